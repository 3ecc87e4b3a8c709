"""Do the documented figures still hold? (issue 34, item 6)

    python bench/check_figures.py                 # check every figure, re-run the cheap ones
    python bench/check_figures.py --static        # check without re-running anything
    python bench/check_figures.py --all           # re-run the costly ones too
    python bench/check_figures.py --only NAME ... [--keep]

Without --only, the figures tables of the docs are checked first: every number in them names
a registered figure or is marked historical (bench/figure_tags.py). Every figure of
bench/figures.py is checked: its page still shows it, its kept JSON files
are there and carry full provenance (the commit, a clean tree, the CPU's model name and
flags, every package's version and build, python-sat's included), and they give a number in
the figure's interval. Then each cheap figure (each figure, with --all or --only) is made
again by its committed commands in a temporary folder and read: a number outside the
figure's interval has moved, and the line says so. --keep replaces a re-run figure's kept
files with the new ones (from a clean tree only, so that their provenance says so), moved
or not: then the page and the interval are to be brought up to them.
Exit status: 0 every figure holds, 1 one moved or a check failed, 2 a bad option.
Under load, state it: the load average is printed before and after.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import figure_tags
from bench.figures import FIGURES, Figure, by_name, decoded

COMMIT = re.compile(r"[0-9a-f]{40}")


def environment_of(document: Mapping[str, Any]) -> Mapping[str, Any]:
    """Where a JSON keeps its provenance: under "provenance" (bench scripts, studies), or at
    its top level (compare.py run's saved runs)."""
    found = document.get("provenance")
    return found if isinstance(found, Mapping) else document


def provenance_problems(document: Any) -> list[str]:
    """What a kept JSON's provenance lacks, in words (empty when it is complete)."""
    if not isinstance(document, Mapping):
        return ["not a JSON object"]
    found = environment_of(document)
    git = (found.get("toolkit") or {}).get("git") or {}
    machine = found.get("machine") or {}
    build = (found.get("builds") or {}).get("python-sat") or {}
    problems = []
    if not COMMIT.fullmatch(str(git.get("commit", ""))):
        problems.append("no commit")
    if git.get("clean") is not True:
        problems.append("not written from a clean tree" if "clean" in git else "no clean-tree flag")
    if not machine.get("cpu") or not machine.get("cpu_flags"):
        problems.append("no CPU model name and flags")
    if not (found.get("packages") or {}).get("python-sat") or not build.get("record_sha256"):
        problems.append("no python-sat version and build")
    return problems


def static_problems(figure: Figure) -> list[str]:
    """What is wrong with a figure without re-running it: its page, its kept outputs, their
    provenance, and whether they give a number inside its interval."""
    page = ROOT / figure.page
    problems = []
    if not page.exists() or " ".join(figure.shown.split()) not in " ".join(page.read_text(encoding="utf-8").split()):
        problems.append(f"{figure.page} does not show {figure.shown!r}")
    outputs = figure.kept()
    missing = [file for file in figure.files if Path(file).name not in outputs]
    if missing:
        return [*problems, f"no kept {', '.join(missing)}"]
    problems += [f"{name}: {problem}" for name, path in outputs.items()
                 for problem in provenance_problems(decoded(path))]
    try:
        value = figure.read(outputs)
    except (KeyError, IndexError, ValueError, TypeError, subprocess.CalledProcessError) as error:
        return [*problems, f"the kept outputs give no number: {type(error).__name__}: {error}"]
    if not figure.holds(value):
        problems.append(f"the kept outputs give {value:g}, outside {figure.low:g}-{figure.high:g}")
    return problems


def command_line(words: Sequence[str], out: Path) -> tuple[list[str], Path | None]:
    """A figure's command as run: ``python`` is this interpreter, ``{out}`` the output
    folder, and ``> FILE`` at the end sends stdout to that file there."""
    words = [word.replace("{out}", str(out)) for word in words]
    target = None
    if len(words) >= 2 and words[-2] == ">":
        target, words = out / words[-1], words[:-2]
    return [sys.executable if words[0] == "python" else words[0], *words[1:]], target


def remake(figure: Figure, out: Path, made: dict[tuple[tuple[str, ...], ...], Path]) -> float:
    """Run a figure's commands into ``out`` (unless ``made`` says where they already ran) and
    read its number; RuntimeError if a command fails."""
    if figure.commands in made:
        return figure.read(figure.written(made[figure.commands]))
    for words in figure.commands:
        command, target = command_line(words, out)
        with open(target, "w", encoding="utf-8") if target else open(os.devnull, "w") as sink:
            done = subprocess.run(command, cwd=ROOT, stdout=sink,
                                  stderr=subprocess.PIPE, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(words)} exited {done.returncode}: {done.stderr.strip()[-400:]}")
    made[figure.commands] = out
    return figure.read(figure.written(out))


def clean_tree() -> bool:
    """Whether the checkout is a git tree with nothing changed or untracked in its code."""
    from solvers.harness.results.provenance import git_state  # noqa: PLC0415 - only --keep needs it
    state = git_state(ROOT)
    return bool(state and state["clean"])


def check(figures: Sequence[Figure], *, rerun: bool, everything: bool, keep: bool, tags: bool = False) -> int:
    """Check and (re-)make the figures, one line each (and with ``tags``, that every figures
    table of the docs is tagged: bench/figure_tags.py); the exit status."""
    failed = False
    if tags:
        untagged = figure_tags.problems()
        print(f"figures tables of {', '.join(figure_tags.PAGES)}: "
              + (f"{len(untagged)} problems" if untagged else "every number tagged"))
        for problem in untagged:
            print(f"    {problem}")
        failed = bool(untagged)
    print(f"load average {os.getloadavg()[0]:.2f} at the start")
    made: dict[tuple[tuple[str, ...], ...], Path] = {}
    with tempfile.TemporaryDirectory(prefix="figures-") as folder:
        for number, figure in enumerate(figures):
            problems: list[str] = []
            line = f"{figure.name}: {figure.page} shows {figure.shown!r} (interval {figure.low:g}-{figure.high:g})"
            if rerun and (figure.cheap or everything):
                out = Path(folder) / str(number)
                out.mkdir()
                line += _remade(figure, out, made, problems, keep)
            elif rerun:
                line += "; costly, not re-run (--all)"
            problems[:0] = static_problems(figure)  # after a --keep, of the files it kept
            print(line)
            for problem in problems:
                print(f"    {problem}")
            failed |= bool(problems)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 1 if failed else 0


def _remade(figure: Figure, out: Path, made: dict[tuple[tuple[str, ...], ...], Path],
            problems: list[str], keep: bool) -> str:
    """Make a figure again; what to add to its line (its problems added to ``problems``)."""
    try:
        value = remake(figure, out, made)
    except (RuntimeError, OSError, KeyError, IndexError, ValueError, TypeError,
            subprocess.CalledProcessError) as error:
        problems.append(f"re-run failed: {error}")
        return ""
    if not figure.holds(value):
        problems.append(f"MOVED: {value:g} is outside {figure.low:g}-{figure.high:g}")
    if keep:
        for file in figure.files:
            (ROOT / file).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(made[figure.commands] / Path(file).name, ROOT / file)
        return f"; re-run gives {value:g} (kept)"
    return f"; re-run gives {value:g}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--static", action="store_true", help="check without re-running anything")
    mode.add_argument("--all", action="store_true", help="re-run the costly figures too")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="these figures only")
    parser.add_argument("--keep", action="store_true",
                        help="replace a re-run figure's kept outputs with the new ones (clean tree only)")
    args = parser.parse_args(argv)
    known = by_name()
    unknown = sorted(set(args.only or ()) - set(known))
    if unknown:
        parser.error(f"no figure named {', '.join(unknown)}; the figures: {', '.join(known)}")
    if args.keep and (args.static or not clean_tree()):
        parser.error("--keep re-runs figures and needs a clean tree (commit first), not --static")
    chosen = [known[name] for name in args.only] if args.only else list(FIGURES)
    return check(chosen, rerun=not args.static, everything=args.all or bool(args.only), keep=args.keep,
                 tags=not args.only)


if __name__ == "__main__":
    sys.exit(main())
