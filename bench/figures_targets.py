"""bench/README.md's targets table and the sections its rows point to, registered as
bench/figures.py registers its own (issue 34, item 6); bench/figures.py adds ``FIGURES``.

Each bench script run here writes its tables into its ``--json`` file (bench/tables.py), so a
table of the page is a ``RenderedTable``: the page shows exactly its rendering from the kept
file (tests/test_figures_targets.py checks it without re-running anything). The numbers a
target's verdict rests on are figures: counts exact; a time ratio measured side by side
inside the interval its target states (at least the target, the ratio moving with the
machine's load), so a re-run that falls short of the target is reported as moved.
"""
from __future__ import annotations

import re
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.figure_base import Figure, Outputs, decoded
from bench.figures_docs import RenderedTable

PAGE = "bench/README.md"
KEPT = "bench/figures"
RATIO_CEILING = 1000.0
"""The upper end of a ratio's interval when the target states only a lower one."""


def kept(name: str) -> str:
    return f"{KEPT}/{name}"


def number(cell: object) -> float:
    """A table cell as a number: ``4.67x``, ``34,048``, ``95/95`` (the solved count) read alike."""
    found = re.search(r"-?[0-9][0-9,]*(\.[0-9]+)?", str(cell))
    if found is None:
        raise ValueError(f"no number in {cell!r}")
    return float(found.group(0).replace(",", ""))


def table_cell(file: str, table: str, column: str, **match: str) -> Callable[[Outputs], float]:
    """The number in ``column`` of the kept table's row whose cells equal ``match`` (column
    names with spaces written with underscores)."""
    def read(outputs: Outputs) -> float:
        kept_table = decoded(outputs[Path(file).name])["tables"][table]
        headers = kept_table["headers"]
        wanted = {headers.index(key.replace("_", " ")): value for key, value in match.items()}
        rows = [row for row in kept_table["rows"] if all(str(row[i]).strip() == value for i, value in wanted.items())]
        if len(rows) != 1:
            raise ValueError(f"{len(rows)} rows of {table} match {match}")
        return number(rows[0][headers.index(column)])
    return read


def rendered(name: str, file: str, table: str) -> RenderedTable:
    """A page's table that is the kept run's table ``table``, rendered as the script prints
    it with ``--format github``."""
    def render(outputs: Outputs) -> list[str]:
        from bench import tables  # noqa: PLC0415 - bench/tables.py imports tabulate, only needed here
        return tables.render(decoded(outputs[Path(file).name]), table).splitlines()
    return RenderedTable(name, PAGE, (file,), render)


def at_least(name: str, shown: str, commands: tuple[tuple[str, ...], ...], file: str,
             read: Callable[[Outputs], float], target: float, what: str, *, cheap: bool = True) -> Figure:
    """A ratio whose target is a lower bound: it holds while a re-run stays at or above it."""
    return Figure(name, PAGE, shown, commands, (file,), read, target, RATIO_CEILING, cheap=cheap,
                  what=f"ratio (at least the target's {target:g}x; it moves with the load): {what}")


def exactly(name: str, shown: str, commands: tuple[tuple[str, ...], ...], file: str,
            read: Callable[[Outputs], float], count: float, what: str, *, cheap: bool = True) -> Figure:
    return Figure(name, PAGE, shown, commands, (file,), read, count, count, cheap=cheap, what=f"count: {what}")


# ---------------------------------------------------------------- dlx against Algorithm X

DLX = kept("dlx.json")
DLX_RUN = (("python", "bench/bench_dlx.py", "--repeat", "3", "--format", "github", "--json", "{out}/dlx.json"),)


def side_by_side_ratio(file: str, puzzle_set: str, method: str) -> Callable[[Outputs], float]:
    """The anchor's mean time over a method's (bench/side_by_side.py), to 2 places."""
    def read(outputs: Outputs) -> float:
        document: dict[str, Any] = decoded(outputs[Path(file).name])
        measured = document["measured"][puzzle_set]
        anchor = statistics.mean(measured[document["anchor"]]["times"])
        return round(anchor / statistics.mean(measured[method]["times"]), 2)
    return read


def _dlx_figures() -> tuple[Figure, ...]:
    shown = DLX_SHOWN
    return (
        at_least("dlx-top95-ratio", shown, DLX_RUN, DLX, side_by_side_ratio(DLX, "top95", "dlx"), 3.0,
                 "Assaf's Algorithm X's mean time over dlx's on top95, counting to two"),
        exactly("dlx-top95-nodes", shown, DLX_RUN, DLX, table_cell(DLX, "side by side", "mean nodes", set="top95",
                                                                    method="dlx"), 923.0,
                "dlx's mean rows tried per top95 puzzle, counting to two"),
        exactly("dlx-top95-updates", shown, DLX_RUN, DLX, table_cell(DLX, "side by side", "mean updates",
                                                                      set="top95", method="dlx"), 34048,
                "dlx's mean link updates per top95 puzzle"),
        exactly("dlx-hardest-nodes", shown, DLX_RUN, DLX, table_cell(DLX, "side by side", "mean nodes",
                                                                      set="hardest", method="dlx"), 411.0,
                "dlx's mean rows tried per hardest puzzle"),
    )


DLX_SHOWN = "10.31 against 48.12 ms: **4.67x**"


FIGURES: tuple[Figure, ...] = (*_dlx_figures(),)
TABLES: tuple[RenderedTable, ...] = (rendered("dlx-side-by-side", DLX, "side by side"),)
