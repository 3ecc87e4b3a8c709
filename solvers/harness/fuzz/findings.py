"""A finding: what failed, whose, how it was shrunk, and the command that reproduces it; and
the files that hold the findings (``--out DIR``).

The command runs ``compare.py run`` from the project root on the finding's file (the
shrunk puzzle, and for a broken relation its mutant, run with the references too) in
the finding's mode, with ``--fail-on error,timeout``, so that a wrong answer, a crash, an
exception or a hang each make it exit 1.
"""
from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from models import Puzzle, to_line

from ..engine.plugins import parse_spec
from ..results.outputs import write_atomic
from ..tasks import Configuration
from .relations import Mutant
from .trials import COUNT_SOLUTIONS

ROOT = Path(__file__).resolve().parents[3]
"""The project root, where the commands run."""
FIELDS = ("kind", "solver", "puzzle", "original", "mode", "command", "seed")
"""What findings.json says about each finding, and nothing else."""


@dataclass
class Finding:
    """One failure: its kind and what shrinking keeps (``signature``), the configuration and
    mode, the case's seed, what happened in words, the puzzle as found and as shrunk (with
    the mutant of the shrunk puzzle, for a broken relation), and how it was made."""

    kind: str
    signature: str
    solver: Configuration
    mode: str
    seed: str
    detail: str
    original: Puzzle
    family: str
    verdict: str
    puzzle: Puzzle | None = None
    mutant: Mutant | None = None
    references: tuple[Configuration, ...] = ()
    time_limit: float = 10.0
    shrunk_detail: str = ""
    """What happened on the shrunk puzzle (empty when it was not shrunk)."""
    tests: int = 0
    minimal: bool = False
    shrink_s: float = 0.0
    found_s: float = 0.0
    duplicates: int = 0
    """Other failures of the same signature seen after it (not shrunk)."""

    @property
    def shrunk(self) -> Puzzle:
        return self.puzzle if self.puzzle is not None else self.original


def command(finding: Finding, path: Path) -> str:
    """The shell command that, run from the project root, reproduces the finding (exit 1)."""
    solvers = [finding.solver]
    if finding.kind == "metamorphic":
        solvers += list(finding.references)
    words = ["python", "compare.py", "run", _shown(path),
             "--solvers", ",".join(configuration.text() for configuration in solvers)]
    for configuration in solvers:
        if configuration.plugin is not None:
            words += ["--plugin", _plugin_from_root(configuration)]
    words += {"plain": [], "unique": ["--unique"], "count": ["--max-solutions", str(COUNT_SOLUTIONS)]}[finding.mode]
    words += ["--timeout", f"{finding.time_limit:g}", "--fail-on", "error,timeout"]
    return shlex.join(words)


def _plugin_from_root(configuration: Configuration) -> str:
    """The configuration's --plugin spec with its file named from the project root."""
    assert configuration.plugin is not None
    spec = parse_spec(configuration.plugin)
    if not spec.is_file:
        return f"{spec.name}={spec.target}:{spec.function}"
    return f"{spec.name}={_shown(Path(spec.target))}:{spec.function}"


def _shown(path: Path) -> str:
    """A path as seen from the project root: relative below it, absolute elsewhere."""
    absolute = path.resolve()
    try:
        return str(absolute.relative_to(ROOT))
    except ValueError:
        return str(absolute)


def file_text(finding: Finding, number: int, path: Path) -> str:
    """The finding's puzzle file: what it is in comments, then the shrunk puzzle (and its
    mutant) in line format."""
    shrunk = finding.shrunk
    how = "1-minimal" if finding.minimal else "not proved 1-minimal (the shrink budget ran out)"
    lines = [f"# compare.py fuzz, finding {number}: {finding.kind} from {finding.solver.name} "
             f"in {finding.mode} mode (case {finding.seed})",
             f"# what happened: {_one_line(finding.shrunk_detail or finding.detail)}",
             f"# shrunk from {label(finding.original)} to {label(shrunk)}, {how}, "
             f"{finding.tests} tests",
             f"# original: {to_line(finding.original)}",
             f"# reproduce from the project root: {command(finding, path)}",
             to_line(shrunk)]
    if finding.mutant is not None:
        lines.insert(-1, f"# the second puzzle is the first's mutant by {finding.mutant.relation}: "
                         f"{finding.mutant.what}")
        lines.append(to_line(finding.mutant.puzzle))
    return "\n".join(lines) + "\n"


def record(finding: Finding, path: Path) -> dict[str, Any]:
    """The finding as findings.json holds it: exactly FIELDS."""
    return {"kind": finding.kind, "solver": finding.solver.name, "puzzle": to_line(finding.shrunk),
            "original": to_line(finding.original), "mode": finding.mode,
            "command": command(finding, path), "seed": finding.seed}


def write(folder: Path, findings: list[Finding]) -> list[Path]:
    """finding-N.txt for each finding and findings.json, in ``folder`` (made if missing)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"finding-{number}.txt" for number in range(1, len(findings) + 1)]
    for number, (finding, path) in enumerate(zip(findings, paths), start=1):
        write_atomic(str(path), file_text(finding, number, path))
    document = {"findings": [record(finding, path) for finding, path in zip(findings, paths)]}
    write_atomic(str(folder / "findings.json"), json.dumps(document, indent=1) + "\n")
    return paths


def label(puzzle: Puzzle) -> str:
    """'6x6 x with 7 givens' (and its cages) for messages."""
    cages = len(puzzle.cages)
    return (f"{puzzle.geometry.label()} {puzzle.variant} with {_many(puzzle.num_givens, 'given')}"
            + (f" and {_many(cages, 'cage')}" if cages else ""))


def _many(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _one_line(text: str) -> str:
    return " ".join(text.split())[:600]
