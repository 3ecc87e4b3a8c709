"""The pictures researchers publish, from saved-JSON run records (matplotlib, imported only here).

cactus:  puzzles solved against a measure (wall time, CPU time or a counter), one panel per
         grid size, one line per configuration (colour AND line style, so it reads in black
         and white), the limit drawn for a time, integer count ticks, log axis.
scatter: two configurations puzzle by puzzle, one panel per puzzle set, log-log, unsolved
         puzzles on an edge (the limit for a time), the diagonal drawn (the SAT competition's
         standard picture).
survival and curve: one panel per puzzle set (results/tails.py, results/curves.py).

matplotlib is an optional extra (``pip install 'sudoku-methods[plot]'``).
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..results.measures import TIMES, puzzle_values
from ..results.measures import label as label_of
from ..results.outputs import OutputError, atomic_path
from ..results.paired import PairingError
from ..results.records import record
from ..results.tails import floor_of

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


def grid(plt: Any, count: int, size: tuple[float, float] = (6.0, 4.5)) -> tuple[Any, list[Any]]:
    """A figure of ``count`` panels, at most three a row; the unused ones hidden."""
    columns = min(count, 3) or 1
    rows = max(1, math.ceil(count / columns))
    figure, axes = plt.subplots(rows, columns, figsize=(size[0] * columns, size[1] * rows), squeeze=False)
    flat = [a for row in axes for a in row]
    for spare in flat[count:]:
        spare.set_visible(False)
    return figure, flat[:count]


def cactus_plot(runs: Iterable[dict[str, Any]], path: str, *, limit: float | None = None,
                title: str = "", field: str = "time_s") -> None:
    """Write the cactus plot of these runs to path (.png, .svg, .pdf ...): per grid size, the
    puzzles each configuration solved within a value of ``field`` (wall time by default)."""
    plt = _pyplot()
    from matplotlib.ticker import MaxNLocator  # noqa: PLC0415 - matplotlib only when a plot is drawn

    values = puzzle_values(runs, field, limit)
    size_of = {key: int(v.set.rsplit(" ", 1)[-1].split("x")[0]) for key, v in values.items()}
    sizes = sorted(set(size_of.values()))
    figure, panels = grid(plt, len(sizes), (6.5, 4.5))
    for axes, n in zip(panels, sizes):
        mine = {key: v for key, v in values.items() if size_of[key] == n}
        total = len({key[:2] for key in mine})
        labels = list(dict.fromkeys(key[2] for key in mine))
        for number, label in enumerate(labels):
            solved = sorted(max(v.value, floor_of(field)) for key, v in mine.items()
                            if key[2] == label and v.solved and v.value is not None)
            missing = any(v.solved and v.value is None for key, v in mine.items() if key[2] == label)
            axes.step(solved, range(1, len(solved) + 1), where="post",
                      label=f"{label} (no {field} counted)" if missing and not solved else label,
                      linestyle=STYLES[number % len(STYLES)], marker=MARKERS[number % len(MARKERS)],
                      markersize=3)
        if limit is not None and field in TIMES:
            axes.axvline(limit, color="grey", linestyle=":", label=f"limit {limit:g} s")
        axes.set_xscale("log")
        axes.set_xlabel(f"{label_of(field)} per puzzle, log scale"
                        + ("" if field in TIMES else f" ({field} of 0 drawn at 1)"))
        axes.set_ylabel(f"puzzles solved (of {total})")
        axes.set_ylim(0, max(total, 1) + 0.5)
        axes.yaxis.set_major_locator(MaxNLocator(integer=True))
        axes.grid(True, which="both", alpha=0.3)
        axes.legend(loc="lower right", fontsize="small")
        axes.set_title(f"{n}x{n}")
    figure.suptitle(title or f"Puzzles solved, against the {label_of(field)} each needed")
    _save(figure, path)


def survival_plot(runs: Iterable[dict[str, Any]], path: str, *, field: str = "time_s",
                  limit: float | None = None, title: str = "") -> None:
    """Log-log survival curves P(cost > x), one panel per puzzle set, one curve per
    configuration (results/tails.py); runs killed with no count keep the curve at their share."""
    from ..results.tails import costs, survival  # noqa: PLC0415 - only this picture needs it

    plt = _pyplot()
    found = costs(runs, field, limit)
    sets = list(dict.fromkeys(name for name, _ in found))
    figure, panels = grid(plt, len(sets), (7.0, 4.5))
    for axes, name in zip(panels, sets):
        mine = [(label, group) for (where, label), group in found.items() if where == name]
        right = max([v for _, g in mine for v, _ in g.values] + [1.0])
        for number, (label, group) in enumerate(mine):
            xs, ys = survival([v for v, _ in group.values], group.unknown)
            unknown = f", {group.unknown} killed with no count" if group.unknown else ""
            line, = axes.step(xs, ys, where="pre", label=f"{label} ({len(xs) + group.unknown} runs{unknown})",
                              linestyle=STYLES[number % len(STYLES)], marker=MARKERS[number % len(MARKERS)],
                              markersize=2)
            if group.unknown:  # censored beyond every value: the curve never falls below their share
                share = group.unknown / (len(xs) + group.unknown)
                axes.plot([xs[-1] if xs else right, right * 2], [share, share], color=line.get_color(),
                          linestyle=":", marker=">", markevery=[1])
        if limit is not None and field in TIMES:
            axes.axvline(limit, color="grey", linestyle=":", label=f"limit {limit:g} s")
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.set_xlabel(f"{label_of(field)} per run")
        axes.set_ylabel("share of runs costing more")
        axes.grid(True, which="both", alpha=0.3)
        axes.legend(loc="lower left", fontsize="small")
        axes.set_title(name)
    figure.suptitle(title or f"Survival of the {label_of(field)} distribution (log-log)")
    _save(figure, path)


def curve_plot(runs: Iterable[dict[str, Any]], path: str, *, x: str, y: str,
               limit: float | None = None, title: str = "") -> int:
    """y against x, one panel per puzzle set, per configuration the median line and the
    interquartile band (results/curves.py); returns the number of points drawn."""
    from ..results.curves import curve  # noqa: PLC0415 - only this picture needs it

    plt = _pyplot()
    records = [{**record(r), "puzzle": r.get("puzzle")} for r in runs]
    found = curve(records, x, y, limit)
    sets = list(dict.fromkeys(name for name, _ in found))
    figure, panels = grid(plt, len(sets), (7.0, 4.5))
    drawn = 0
    for axes, name in zip(panels, sets):
        for number, ((_, label), points) in enumerate((k, v) for k, v in found.items() if k[0] == name):
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
        axes.set_title(name)
    figure.suptitle(title or f"{y} against {x}")
    _save(figure, path)
    return drawn


def scatter_plot(runs: Sequence[dict[str, Any]], path: str, x_label: str, y_label: str, *,
                 limit: float, title: str = "", field: str = "time_s") -> int:
    """Write the scatter plot of configuration y against x, one panel per puzzle set, of
    ``field`` per puzzle; returns the number of points."""
    plt = _pyplot()
    sets = scatter_points(runs, x_label, y_label, limit, field)
    figure, panels = grid(plt, len(sets), (5.5, 5.5))
    for axes, (name, points) in zip(panels, sets.items()):
        _scatter_panel(axes, points, limit if field in TIMES else None, field)
        axes.set_xlabel(f"{x_label}: {label_of(field)}")
        axes.set_ylabel(f"{y_label}: {label_of(field)}")
        axes.set_title(name)
    figure.suptitle(title or f"{y_label} against {x_label}, {label_of(field)} per puzzle")
    _save(figure, path)
    return sum(len(points) for points in sets.values())


def _scatter_panel(axes: Any, points: list[tuple[float | None, float | None]], limit: float | None,
                   field: str) -> None:
    """One set's points, log-log, the diagonal drawn, the unsolved on an edge: the limit for a
    time, beyond the largest count (marked 'not solved') for a counter."""
    known = [v for pair in points for v in pair if v is not None]
    edge = limit if limit is not None else max([*known, 1.0]) * 2
    low = max(min([*known, edge]) / 2, floor_of(field) / 2)
    placed = [(edge if a is None else max(a, floor_of(field)), edge if b is None else max(b, floor_of(field)))
              for a, b in points]
    axes.plot([low, edge], [low, edge], color="grey", linewidth=1, label="same")
    edge_label = f"limit {limit:g} s (timeouts)" if limit is not None else "not solved"
    axes.axvline(edge, color="grey", linestyle=":", linewidth=1)
    axes.axhline(edge, color="grey", linestyle=":", linewidth=1, label=edge_label)
    axes.scatter([p[0] for p in placed], [p[1] for p in placed], s=14, marker="x")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlim(low, edge * 1.5)
    axes.set_ylim(low, edge * 1.5)
    axes.set_aspect("equal")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(loc="upper left", fontsize="small")


def scatter_points(runs: Sequence[dict[str, Any]], x_label: str, y_label: str, limit: float,
                   field: str = "time_s") -> dict[str, list[tuple[float | None, float | None]]]:
    """Per puzzle set, (x value, y value) per puzzle both ran (a time unsolved at the limit; a
    counter unsolved None); PairingError when a configuration has no runs.

    >>> runs = [{"file": "f", "index": 0, "size": "9x9", "solver": s, "status": "solved",
    ...          "category": c, "time_s": t, "puzzle": ".", "stats": {"nodes": 3}}
    ...         for s, c, t in (("a", "correct", 0.5), ("b", "timeout", 1.0))]
    >>> scatter_points(runs, "a", "b", 1.0), scatter_points(runs, "a", "b", 1.0, "nodes")
    ({'f 9x9': [(0.5, 1.0)]}, {'f 9x9': [(3.0, None)]})
    """
    values = puzzle_values(runs, field, limit)
    for label in (x_label, y_label):
        if not any(key[2] == label for key in values):
            raise PairingError(f"no runs of configuration {label!r}")
    found: dict[str, list[tuple[float | None, float | None]]] = {}
    for (file, index, label), value in values.items():
        other = values.get((file, index, y_label))
        if label == x_label and other is not None:
            found.setdefault(value.set, []).append((value.value, other.value))
    return found


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
