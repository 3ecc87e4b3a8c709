"""The manual's figures (docs/experiments.md, docs/results.md, docs/teaching.md) and the
sections of bench/README.md no target points to, registered as bench/figures.py registers
its own (issue 34, item 6); bench/figures.py adds ``FIGURES`` to its list.

A table whose cells are all read from kept JSON files is a ``RenderedTable``: the page must
show exactly what its ``render`` makes of the kept files (tests/test_figures_docs.py checks
it without re-running anything), and the numbers its text relies on are figures as well.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench.figure_base import ROOT, Figure, Outputs


@dataclass(frozen=True)
class RenderedTable:
    """A table of a page made from kept JSON files: its lines are ``render``'s."""

    name: str
    page: str
    files: tuple[str, ...]
    render: Callable[[Outputs], list[str]]

    def kept(self) -> dict[str, Path]:
        """The kept files by base name (a missing one left out)."""
        return {Path(file).name: ROOT / file for file in self.files if (ROOT / file).exists()}

    def problems(self) -> list[str]:
        """What is wrong: a kept file missing, or the page not showing the rendering."""
        outputs = self.kept()
        missing = [file for file in self.files if Path(file).name not in outputs]
        if missing:
            return [f"no kept {', '.join(missing)}"]
        page = (ROOT / self.page).read_text(encoding="utf-8")
        lines = self.render(outputs)
        return [] if "\n".join(lines) in page else [f"{self.page} does not show the table {self.name} as rendered:\n"
                                                      + "\n".join(lines)]


FIGURES: tuple[Figure, ...] = ()
TABLES: tuple[RenderedTable, ...] = ()
