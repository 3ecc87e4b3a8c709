"""The pictures researchers publish, from saved-JSON run records (matplotlib, imported only here).

cactus:  puzzles solved against time, one panel per grid size, one line per configuration
         (colour AND line style, so it reads in black and white), the limit drawn,
         integer count ticks, log time axis.
scatter: two configurations puzzle by puzzle, log-log, timeouts on the limit's edge,
         the diagonal drawn (the SAT competition's standard picture).

matplotlib is an optional extra (``pip install 'sudoku-methods[plot]'``).
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..results.outputs import OutputError, atomic_path
from ..results.paired import pairs_between
from ..results.records import record

INSTALL_HINT = "the plot needs matplotlib: pip install 'sudoku-methods[plot]' (or pip install matplotlib)"
PLOT_FORMATS = ("png", "pdf", "svg", "svgz", "eps", "ps", "jpg", "jpeg", "tif", "tiff", "webp")
STYLES = ("-", "--", "-.", ":")
MARKERS = ("o", "s", "^", "D", "v", "x", "+", "*")
FLOOR_S = 1e-4


class PlotUnavailableError(ImportError):
    """matplotlib is not installed."""


def require_matplotlib() -> None:
    """Fail early, before a long run, when the plot cannot be drawn."""
    try:
        import matplotlib  # noqa: F401, PLC0415 - only to see whether matplotlib is installed
    except ImportError as error:
        raise PlotUnavailableError(INSTALL_HINT) from error


def check_plot_format(path: str) -> None:
    """OutputError unless the file's suffix names a format the plot can be saved in.

    >>> check_plot_format("a.svg")
    >>> check_plot_format("a.gif")
    Traceback (most recent call last):
    ...
    solvers.harness.results.outputs.OutputError: a.gif: unknown plot format 'gif'; use one of png, pdf, svg, ...
    """
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in PLOT_FORMATS:
        shown = f"unknown plot format {suffix!r}" if suffix else "no suffix to tell the plot format"
        raise OutputError(f"{path}: {shown}; use one of {', '.join(PLOT_FORMATS)}")


def solved_times(runs: Iterable[dict[str, Any]], limit: float | None = None) -> dict[str, list[float]]:
    """For each configuration, the sorted times of its correct answers (within the limit).

    >>> runs = [{"file": "f", "index": i, "size": "9x9", "solver": "a", "status": "solved",
    ...          "category": c, "time_s": t}
    ...         for i, c, t in ((0, "correct", 2.0), (1, "timeout", 9.0), (2, "correct", 0.5))]
    >>> solved_times(runs)
    {'a': [0.5, 2.0]}
    """
    times: dict[str, list[float]] = {}
    for run in runs:
        flat = record(run)
        times.setdefault(flat["configuration"], [])
        if flat["category"] == "correct" and (limit is None or flat["time_s"] <= limit):
            times[flat["configuration"]].append(max(flat["time_s"], 1e-6))
    return {label: sorted(values) for label, values in times.items()}


def cactus_plot(runs: Iterable[dict[str, Any]], path: str, *, limit: float | None = None,
                title: str = "") -> None:
    """Write the cactus plot of these runs to path (.png, .svg, .pdf ...)."""
    plt = _pyplot()
    from matplotlib.ticker import MaxNLocator  # noqa: PLC0415 - matplotlib only when a plot is drawn

    records = median_runs([record(r) for r in runs], limit)
    sizes = sorted({r["n"] for r in records})
    figure, panels = plt.subplots(1, len(sizes), figsize=(6.5 * len(sizes), 4.5), squeeze=False)
    for axes, n in zip(panels[0], sizes):
        mine = [r for r in records if r["n"] == n]
        total = len({(r["file"], r["index"]) for r in mine})
        for number, (label, times) in enumerate(solved_times(mine, limit).items()):
            axes.step(times, range(1, len(times) + 1), where="post", label=label,
                      linestyle=STYLES[number % len(STYLES)], marker=MARKERS[number % len(MARKERS)],
                      markersize=3)
        if limit is not None:
            axes.axvline(limit, color="grey", linestyle=":", label=f"limit {limit:g} s")
        axes.set_xscale("log")
        axes.set_xlabel("time per puzzle (s, log scale)")
        axes.set_ylabel(f"puzzles solved (of {total})")
        axes.set_ylim(0, max(total, 1) + 0.5)
        axes.yaxis.set_major_locator(MaxNLocator(integer=True))
        axes.grid(True, which="both", alpha=0.3)
        axes.legend(loc="lower right", fontsize="small")
        axes.set_title(f"{n}x{n}")
    figure.suptitle(title or "Puzzles solved within a time per puzzle")
    _save(figure, path)


def survival_plot(runs: Iterable[dict[str, Any]], path: str, *, field: str = "time_s",
                  limit: float | None = None, title: str = "") -> None:
    """Log-log survival curves P(cost > x), one per configuration (results/tails.py)."""
    from ..results.tails import costs, survival  # noqa: PLC0415 - only this picture needs it

    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for number, (label, pairs) in enumerate(costs([record(r) for r in runs], field, limit).items()):
        xs, ys = survival([v for v, _ in pairs])
        axes.step(xs, ys, where="pre", label=f"{label} ({len(xs)} runs)",
                  linestyle=STYLES[number % len(STYLES)], marker=MARKERS[number % len(MARKERS)],
                  markersize=2)
    if limit is not None and field == "time_s":
        axes.axvline(limit, color="grey", linestyle=":", label=f"limit {limit:g} s")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("time per run (s)" if field == "time_s" else field)
    axes.set_ylabel("share of runs costing more")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(loc="lower left", fontsize="small")
    figure.suptitle(title or "Survival of the run-time distribution (log-log)")
    _save(figure, path)


def curve_plot(runs: Iterable[dict[str, Any]], path: str, *, x: str, y: str,
               limit: float | None = None, title: str = "") -> int:
    """y against x per configuration: the median line and the interquartile band
    (results/curves.py); returns the number of points drawn."""
    from ..results.curves import curve  # noqa: PLC0415 - only this picture needs it

    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(7, 4.5))
    drawn = 0
    records = [{**record(r), "puzzle": r.get("puzzle")} for r in runs]
    for number, (label, points) in enumerate(curve(records, x, y, limit).items()):
        xs = [p.x for p in points]
        line, = axes.plot(xs, [p.median for p in points], linestyle=STYLES[number % len(STYLES)],
                          marker=MARKERS[number % len(MARKERS)], markersize=3,
                          label=f"{label} (median, quartiles)")
        axes.fill_between(xs, [p.low for p in points], [p.high for p in points],
                          color=line.get_color(), alpha=0.2)
        drawn += len(points)
    axes.set_yscale("log")
    axes.set_xlabel(x)
    axes.set_ylabel(f"{y} per run (log scale)")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize="small")
    figure.suptitle(title or f"{y} against {x}")
    _save(figure, path)
    return drawn


def median_runs(records: list[dict[str, Any]], limit: float | None) -> list[dict[str, Any]]:
    """One run per (puzzle, configuration): the median of its repetitions, unsolved ones
    ranking last (so a puzzle counts as solved when most repetitions solved it)."""
    groups: dict[tuple[str, int, str], list[dict[str, Any]]] = {}
    for flat in records:
        groups.setdefault((flat["file"], flat["index"], flat["configuration"]), []).append(flat)

    def rank(flat: dict[str, Any]) -> float:
        solved = flat["category"] == "correct" and (limit is None or flat["time_s"] <= limit)
        return flat["time_s"] if solved else math.inf

    return [sorted(group, key=rank)[(len(group) - 1) // 2] for group in groups.values()]


def scatter_plot(runs: Sequence[dict[str, Any]], path: str, x_label: str, y_label: str, *,
                 limit: float, title: str = "") -> int:
    """Write the scatter plot of configuration y against x; returns the number of points."""
    plt = _pyplot()
    points = scatter_points(runs, x_label, y_label, limit)
    figure, axes = plt.subplots(figsize=(5.5, 5.5))
    low = min([t for pair in points for t in pair] + [limit]) / 2
    edge = limit * 1.0
    axes.plot([low, edge], [low, edge], color="grey", linewidth=1, label="same time")
    axes.axvline(edge, color="grey", linestyle=":", linewidth=1)
    axes.axhline(edge, color="grey", linestyle=":", linewidth=1, label=f"limit {limit:g} s (timeouts)")
    axes.scatter([p[0] for p in points], [p[1] for p in points], s=14, marker="x")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlim(low, edge * 1.5)
    axes.set_ylim(low, edge * 1.5)
    axes.set_aspect("equal")
    axes.set_xlabel(f"{x_label} (s)")
    axes.set_ylabel(f"{y_label} (s)")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(loc="upper left", fontsize="small")
    axes.set_title(title or f"{y_label} against {x_label}, per puzzle")
    _save(figure, path)
    return len(points)


def scatter_points(runs: Sequence[dict[str, Any]], x_label: str, y_label: str,
                   limit: float) -> list[tuple[float, float]]:
    """(x time, y time) per puzzle both ran, unsolved at the limit, floored for the log axes.

    >>> runs = [{"file": "f", "index": 0, "size": "9x9", "solver": s, "status": "solved",
    ...          "category": c, "time_s": t, "puzzle": "."}
    ...         for s, c, t in (("a", "correct", 0.5), ("b", "timeout", 1.0))]
    >>> scatter_points(runs, "a", "b", 1.0)
    [(0.5, 1.0)]
    """
    document = {"limit_s": limit, "runs": list(runs)}
    pairs = pairs_between(document, document, labels=(x_label, y_label))
    return [(max(p.old_s, FLOOR_S), max(p.new_s, FLOOR_S)) for p in pairs]


def _pyplot() -> Any:
    require_matplotlib()
    import matplotlib  # noqa: PLC0415 - matplotlib only when a plot is drawn
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 - matplotlib only when a plot is drawn
    return plt


def _save(figure: Any, path: str) -> None:
    """Save whole or not at all (outputs.atomic_path: a temporary file, then a rename)."""
    import matplotlib.pyplot as plt  # noqa: PLC0415 - matplotlib only when a plot is drawn

    figure.tight_layout()
    try:
        with atomic_path(path) as temporary:
            figure.savefig(temporary, dpi=120, format=Path(path).suffix.lower().lstrip(".") or "png")
    finally:
        plt.close(figure)
