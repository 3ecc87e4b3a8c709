"""The cactus plot: puzzles solved against time, one line per backend, log time axis.

matplotlib is an optional extra (``pip install 'sudoku-methods[plot]'``), imported only here.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .judge import Category

INSTALL_HINT = "the plot needs matplotlib: pip install 'sudoku-methods[plot]' (or pip install matplotlib)"


class PlotUnavailableError(ImportError):
    """matplotlib is not installed."""


def require_matplotlib() -> None:
    """Fail early, before a long run, when the plot cannot be drawn."""
    try:
        import matplotlib  # noqa: F401, PLC0415
    except ImportError as error:
        raise PlotUnavailableError(INSTALL_HINT) from error


def solved_times(runs: Iterable[dict[str, Any]]) -> dict[str, list[float]]:
    """For each backend, the sorted times of its correct answers (solutions and proofs).

    >>> solved_times([{"solver": "a", "category": "correct", "time_s": 2.0},
    ...               {"solver": "a", "category": "timeout", "time_s": 9.0},
    ...               {"solver": "a", "category": "correct", "time_s": 0.5}])
    {'a': [0.5, 2.0]}
    """
    times: dict[str, list[float]] = {}
    for run in runs:
        times.setdefault(run["solver"], [])
        if run["category"] == Category.CORRECT:
            times[run["solver"]].append(max(run["time_s"], 1e-6))
    return {solver: sorted(values) for solver, values in times.items()}


def cactus_plot(runs: Iterable[dict[str, Any]], path: str, *, title: str = "") -> None:
    """Write the cactus plot of these runs (saved-JSON records) to path (.png, .svg, .pdf)."""
    require_matplotlib()
    import matplotlib  # noqa: PLC0415
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    records = list(runs)
    total = len({(r["file"], r["index"]) for r in records})
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for solver, times in solved_times(records).items():
        # a step up at each solve time: after t seconds, this many puzzles were solved
        axes.step(times, range(1, len(times) + 1), where="post", marker=".", label=solver)
    axes.set_xscale("log")
    axes.set_xlabel("time per puzzle (s, log scale)")
    axes.set_ylabel(f"puzzles solved (of {total})")
    axes.set_ylim(0, max(total, 1) + 0.5)
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(loc="lower right")
    axes.set_title(title or "Puzzles solved within a time per puzzle")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
