"""``compare.py fuzz``: hunt a solver's bugs with generated puzzles, their mutants and reference
backends, and shrink each failure to a small puzzle (solvers/harness/fuzz/, docs/fuzzing.md).

    python compare.py fuzz --solvers A[,B...] [--plugin NAME=FILE:FUNC] [--against REF,...]
                           [--budget SECONDS] [--seed S] [--sizes ...] [--variants ...]
                           [--modes ...] [--out DIR] [--keep-going]

Exit status: 0 nothing found within the budget, 1 a finding, 2 bad usage, 130 interrupted.
"""
from __future__ import annotations

import argparse
import os
import secrets
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from tabulate import tabulate

from models import to_line
from models.geometry import valid_size

from ... import registry
from ...generate.instances import FAMILIES, SIZES
from ..engine.configs import load_plugins
from ..engine.configs import resolve as resolve_solvers
from ..fuzz import findings as saved
from ..fuzz.campaign import Plan, Tally, fuzz
from ..fuzz.findings import Finding
from ..fuzz.trials import MODES
from ..tasks import Configuration
from .common import EXIT_INTERRUPTED, EXIT_OK, EXIT_WRONG, Subcommands, UsageError, positive_int, seconds
from .progress import duration

REFERENCES = ("sat", "mrv", "cpsat")
"""The default references: the first two available, of backends not under test."""
PROGRESS_S = 5.0
"""Seconds between progress lines."""
MAX_SIDE = 25


def add_parser(subparsers: Subcommands) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "fuzz", help="hunt a solver's bugs with generated puzzles, mutants and references; shrink each one",
        description="Generate puzzles of every size, variant and verdict, run the solvers under test "
                    "on them, on their mutants (symmetries, one given more or less) and beside "
                    "reference backends; judge every answer as run does; shrink each failure to a "
                    "1-minimal puzzle and say how to reproduce it.")
    parser.add_argument("--solvers", metavar="CONFIGS",
                        help="the configurations to fuzz, [LABEL=]BACKEND[:OPTION=VALUE...], comma-separated "
                             "(default: the --plugin backends)")
    parser.add_argument("--plugin", action="append", default=[], metavar="SPEC",
                        help="add your own backend: [NAME=]path/to/file.py:function or module:function; "
                             "may be repeated")
    parser.add_argument("--against", metavar="REFS",
                        help="reference configurations run on every puzzle too, comma-separated, or "
                             f"none (default: the first two available of {', '.join(REFERENCES)} "
                             "whose backend is not under test)")
    parser.add_argument("--budget", type=seconds, default=60.0, metavar="SECONDS",
                        help="time spent searching (default: 60); shrinking a finding is extra")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="the same seed gives the same instances (default: a random seed, printed)")
    parser.add_argument("--sizes", type=sides, default=SIZES, metavar="N,N,...",
                        help=f"grid sides, from 4 to {MAX_SIDE} (default: {','.join(map(str, SIZES))})")
    parser.add_argument("--variants", type=families, default=None, metavar="V,V,...",
                        help=f"variant families from {', '.join(FAMILIES)} (default: all that the "
                             "solvers under test support)")
    parser.add_argument("--modes", type=modes, default=tuple(MODES), metavar="M,M,...",
                        help="plain (one solution), unique (two, as run --unique), count (up to four, "
                             "as run --max-solutions 4); default: all three")
    parser.add_argument("--timeout", type=seconds, default=10.0, metavar="SECONDS",
                        help="wall-clock limit per run; past it, on a puzzle a reference answered, "
                             "is a hang (default: 10)")
    parser.add_argument("--jobs", "-j", type=positive_int, default=None, metavar="N",
                        help="worker processes (default: the number of cores)")
    parser.add_argument("--out", metavar="DIR",
                        help="write each shrunk puzzle (finding-N.txt) and findings.json here")
    parser.add_argument("--keep-going", action="store_true",
                        help="search the whole budget and report every kind of failure, not only the first")
    parser.add_argument("--shrink-budget", type=seconds, default=120.0, metavar="SECONDS",
                        help="time to shrink each finding (default: 120)")
    return parser


def _words(text: str, choices: Sequence[str], what: str) -> tuple[str, ...]:
    chosen = tuple(dict.fromkeys(word.strip() for word in text.split(",")))
    wrong = [word for word in chosen if word not in choices]
    if wrong or not text.strip():
        raise argparse.ArgumentTypeError(f"unknown {what} {(wrong or [text])[0]!r}: expected "
                                         f"{', '.join(choices)}, comma-separated")
    return chosen


def families(text: str) -> tuple[str, ...]:
    """--variants: variant families, comma-separated."""
    return _words(text, FAMILIES, "variant")


def modes(text: str) -> tuple[str, ...]:
    """--modes: plain, unique, count, comma-separated."""
    return _words(text, tuple(MODES), "mode")


def sides(text: str) -> tuple[int, ...]:
    """--sizes: grid sides that boxes tile, from 4 to MAX_SIDE, comma-separated.

    >>> sides("9, 4,6")
    (4, 6, 9)
    """
    try:
        chosen = sorted({int(word) for word in text.split(",")})
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected sides such as 4,6,9, not {text!r}") from None
    wrong = [n for n in chosen if not (valid_size(n) and n <= MAX_SIDE)]
    if wrong:
        raise argparse.ArgumentTypeError(
            f"{wrong[0]} is no side to fuzz: sides from 4 to {MAX_SIDE} that boxes of at least 2x2 "
            f"tile ({', '.join(str(n) for n in range(4, MAX_SIDE + 1) if valid_size(n))})")
    return tuple(chosen)


def run(args: argparse.Namespace) -> int:
    out = _checked_folder(args.out)
    plugins = load_plugins(args.plugin)
    if args.solvers is None and not plugins:
        raise UsageError("fuzz needs the configurations to fuzz: --solvers A[,B...] or --plugin SPEC")
    subjects = tuple(resolve_solvers(args.solvers, plugins) if args.solvers is not None
                     else plugins.values())
    references = _references(args.against, subjects, plugins)
    chosen = args.variants or _supported(subjects)
    plan = Plan(subjects, references, secrets.randbelow(1_000_000) if args.seed is None else args.seed,
                args.budget, args.sizes, chosen, args.modes, args.timeout, args.jobs, args.keep_going,
                args.shrink_budget)
    print(_header(plan), flush=True)
    tally, findings = fuzz(plan, _Reporter(plan))
    paths = saved.write(out, findings) if out is not None else []
    _summary(plan, tally, findings, paths)
    if tally.interrupted:
        return EXIT_INTERRUPTED
    return EXIT_WRONG if findings else EXIT_OK


def _checked_folder(text: str | None) -> Path | None:
    """--out's folder (made when the findings are written), refused (exit 2) when it is a file
    or could not be made: a file on its way, or a folder there that is not writable."""
    if text is None:
        return None
    folder = Path(text)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"--out {text}: is a file, not a folder")
    there = next(p for p in (folder, *folder.absolute().parents) if p.exists())
    if not there.is_dir():
        raise UsageError(f"--out {text}: {there} is a file, not a folder")
    if not os.access(there, os.W_OK):
        raise UsageError(f"--out {text}: {there} is not writable")
    return folder


def _references(text: str | None, subjects: Sequence[Configuration],
                plugins: dict[str, Configuration]) -> tuple[Configuration, ...]:
    """--against's configurations: none, the ones named, or two available defaults."""
    if text is not None and text.strip() == "none":
        return ()
    if text is not None:
        chosen = resolve_solvers(text, plugins, add_plugins=False)
    else:
        tested = {c.backend_name for c in subjects if c.plugin is None}
        names = [name for name in REFERENCES if name not in tested and registry.get(name).available]
        chosen = resolve_solvers(",".join(names[:2]), add_plugins=False) if names else []
    clash = {c.name for c in chosen} & {c.name for c in subjects}
    if clash:
        raise UsageError(f"--against {sorted(clash)[0]}: is also under test; label one of them "
                         "with LABEL=")
    return tuple(chosen)


def _supported(subjects: Sequence[Configuration]) -> tuple[str, ...]:
    """Every family, but killer when no solver under test declares cage sums (a plugin may)."""
    sums = any(c.plugin is not None or "sum" in registry.get(c.backend_name).declaration.constraints
               for c in subjects)
    if sums:
        return FAMILIES
    print("compare.py fuzz: no solver under test declares killer cage sums: killer puzzles left out",
          file=sys.stderr)
    return tuple(family for family in FAMILIES if family != "killer")


def _header(plan: Plan) -> str:
    against = ", ".join(c.name for c in plan.references) or "none"
    return (f"fuzz {', '.join(c.name for c in plan.subjects)} against {against}: seed {plan.seed}, "
            f"budget {plan.budget_s:g} s, limit {plan.time_limit:g} s a run; sides "
            f"{','.join(map(str, plan.sizes))}; variants {','.join(plan.families)}; modes "
            f"{','.join(plan.modes)}")


class _Reporter:
    """A progress line on stderr every PROGRESS_S seconds: cases, rate, sides and variants."""

    def __init__(self, plan: Plan):
        self.plan, self.said = plan, time.monotonic()

    def __call__(self, tally: Tally) -> None:
        if time.monotonic() - self.said < PROGRESS_S:
            return
        self.said = time.monotonic()
        sides_seen = " ".join(f"{n}x{n}:{count}" for n, count in sorted(tally.sizes.items()))
        kinds = " ".join(f"{family}:{count}" for family, count in tally.families.most_common())
        print(f"fuzz: {duration(tally.searched_s)} of {duration(self.plan.budget_s)}, {tally.cases:,} "
              f"instances ({tally.rate():.1f}/s), {tally.runs:,} runs, failures {tally.failures}; "
              f"{sides_seen}; {kinds}", file=sys.stderr, flush=True)


def _summary(plan: Plan, tally: Tally, findings: Sequence[Finding], paths: Sequence[Path]) -> None:
    """What was tried (instances by side and variant, and how many a second), then each finding."""
    print(_tried(plan, tally))
    verdicts = ", ".join(f"{verdict} {count}" for verdict, count in sorted(tally.verdicts.items()))
    modes_run = ", ".join(f"{mode} {count}" for mode, count in sorted(tally.modes.items()))
    print(f"\n{tally.cases:,} instances in {duration(tally.searched_s)} ({tally.rate():.1f}/s), "
          f"each with up to 3 mutants, {tally.runs:,} runs in all; verdicts: {verdicts}; modes: "
          f"{modes_run}; runs that gave up: {tally.gave_up}, unsupported: {tally.unsupported}, "
          f"unchecked claims: {tally.unchecked}, "
          f"reference runs past the limit: {tally.slow_references}, runs past it that answered in "
          f"time when run again: {tally.passing_hangs}")
    if tally.interrupted:
        print("interrupted: findings not shrunk" if findings else "interrupted")
    if not findings:
        print(f"no finding: every answer checked out (seed {plan.seed})")
    for number, finding in enumerate(findings, start=1):
        print(_reported(finding, number, paths[number - 1] if paths else None))
    if paths:
        print(f"\nfindings written to {paths[0].parent / 'findings.json'}")
    elif findings:
        print("\n(--out DIR saves each shrunk puzzle with a command that reproduces it)")


def _tried(plan: Plan, tally: Tally) -> str:
    """Instances by side (rows) and variant family (columns), with a second's worth."""
    rows = []
    for size in sorted(tally.sizes):
        counts = [tally.pairs[size, family] for family in plan.families]
        rows.append([f"{size}x{size}", *counts, tally.sizes[size],
                     f"{tally.sizes[size] / max(tally.searched_s, 1e-9):.2f}"])
    rows.append(["all", *[tally.families[f] for f in plan.families], tally.cases, f"{tally.rate():.2f}"])
    return str(tabulate(rows, headers=["side", *plan.families, "instances", "per s"], tablefmt="simple"))


def _reported(finding: Finding, number: int, path: Path | None) -> str:
    shrunk = finding.shrunk
    how = "1-minimal" if finding.minimal else "not proved 1-minimal"
    lines = [f"\nfinding {number}: {finding.kind} from {finding.solver.name} in {finding.mode} mode "
             f"(case {finding.seed}, after {duration(finding.found_s)} of searching"
             + (f"; {finding.duplicates} more like it" if finding.duplicates else "") + ")",
             f"  what happened: {' '.join((finding.shrunk_detail or finding.detail).split())[:400]}",
             f"  shrunk from {saved.label(finding.original)} to {saved.label(shrunk)}: {how}, "
             f"{finding.tests} tests in {duration(finding.shrink_s)}",
             f"  puzzle: {to_line(shrunk)}"]
    if finding.mutant is not None:
        lines.append(f"  its mutant ({finding.mutant.relation}: {finding.mutant.what}): "
                     f"{to_line(finding.mutant.puzzle)}")
    if path is not None:
        lines.append(f"  reproduce: {saved.command(finding, path)}")
    return "\n".join(lines)
