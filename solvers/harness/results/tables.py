"""Any table, in every format the commands print: aligned text, Markdown, CSV, JSON and LaTeX
(booktabs), with the columns chosen by name and, for text on a terminal, only as many as fit.

A table is its rows (dicts), the keys to show, their headers, and which keys are text (left
aligned; the rest are numbers, right aligned). ``render`` prints it; ``fit`` picks the columns
that fit a width, the required ones first and then the rest in order of priority, so a
100-column terminal still shows what matters and nothing wraps.
"""
from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from tabulate import tabulate

from . import csv_cells

TABLE_FORMATS = ("table", "markdown", "csv", "json", "latex")
TEXT_FORMATS = ("text", "markdown", "latex")
"""The formats of the commands whose tables are for people only (ladder, rate, study)."""
SEPARATOR = 2
"""Spaces between two columns of the aligned text table (tabulate's 'simple')."""
ELLIPSIS = "…"
LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                 "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                 "^": r"\textasciicircum{}", ELLIPSIS: r"\ldots{}"}


def terminal_width(stream: TextIO | None = None) -> int | None:
    """The width a text table must fit: COLUMNS when set to a positive number, else the
    terminal's width when ``stream`` (stdout) is one; None (no limit) for a file or a pipe."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
        if columns > 0:
            return columns
    except ValueError:
        pass
    stream = stream or sys.stdout
    try:
        if stream.isatty():
            return os.get_terminal_size(stream.fileno()).columns or None
    except (AttributeError, ValueError, OSError):
        pass
    return None


def latex_text(value: str) -> str:
    r"""Text with LaTeX's special characters escaped.

    >>> print(latex_text("top95.txt 9x9 & 50% of $x_1$"))
    top95.txt 9x9 \& 50\% of \$x\_1\$
    """
    return "".join(LATEX_SPECIAL.get(char, char) for char in value)


def latex(headers: Sequence[str], body: Sequence[Sequence[str]], left: Sequence[bool]) -> str:
    r"""A booktabs tabular (needs \usepackage{booktabs}); a missing value ('-') as an en dash.

    >>> print(latex(["set", "solved"], [["a_b", "3"], ["c", "-"]], [True, False]))
    % \usepackage{booktabs}
    \begin{tabular}{lr}
    \toprule
    set & solved \\
    \midrule
    a\_b & 3 \\
    c & -- \\
    \bottomrule
    \end{tabular}
    """
    def cell(text: str) -> str:
        return "--" if text == "-" else latex_text(text).replace("\n", " ").replace(" - ", " -- ")

    lines = [r"% \usepackage{booktabs}", r"\begin{tabular}{" + "".join("l" if x else "r" for x in left) + "}",
             r"\toprule", " & ".join(cell(h) for h in headers) + r" \\", r"\midrule"]
    lines += [" & ".join(cell(c) for c in row) + r" \\" for row in body]
    return "\n".join([*lines, r"\bottomrule", r"\end{tabular}"])


def text_table(headers: Sequence[str], body: Sequence[Sequence[str]], left: Sequence[bool],
               fmt: str) -> str:
    """Cells already formatted as an aligned text table ('table' or 'text'), a Markdown table
    or a LaTeX tabular."""
    if fmt == "latex":
        return latex(headers, body, left)
    if fmt == "markdown":
        return str(tabulate(body, headers=list(headers), disable_numparse=True, tablefmt="github",
                            colalign=["left" if x else "right" for x in left]))
    return aligned(headers, body, left)


def aligned(headers: Sequence[str], body: Sequence[Sequence[str]], left: Sequence[bool]) -> str:
    """An aligned text table as tabulate's 'simple' draws it, without its extra padding:
    a header, a rule of dashes, the rows, two spaces between columns (a cell may hold lines).

    >>> print(aligned(["set", "solved"], [["top95.txt 9x9", "95"]], [True, False]))
    set            solved
    -------------  ------
    top95.txt 9x9      95
    """
    rows = [[str(c).splitlines() or [""] for c in row] for row in body]
    sizes = [max([len(h), *(len(line) for row in rows for line in row[i])]) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        return (" " * SEPARATOR).join(c.ljust(w) if x else c.rjust(w)
                                      for c, w, x in zip(cells, sizes, left)).rstrip()

    out = [line(headers), (" " * SEPARATOR).join("-" * w for w in sizes)]
    for row in rows:
        for depth in range(max(len(c) for c in row)):
            out.append(line([c[depth] if depth < len(c) else "" for c in row]))
    return "\n".join(out)


def width(text: str) -> int:
    """The width of a printed table: its widest line."""
    return max((len(line) for line in text.splitlines()), default=0)


def fit(keys: Sequence[str], required: Sequence[str], priority: Sequence[str],
        measure: Callable[[list[str]], int], limit: int) -> list[str]:
    """The keys (in their order) whose table fits ``limit`` columns: every required key, then
    each key of ``priority`` in turn while the table still fits; keys in neither come last.

    >>> fit(["a", "b", "c", "d"], ["a"], ["c", "b"], lambda ks: 10 * len(ks), 25)
    ['a', 'c']
    """
    chosen = [k for k in keys if k in required]
    rest = [k for k in priority if k in keys and k not in chosen]
    rest += [k for k in keys if k not in chosen and k not in rest]
    for key in rest:
        trial = [k for k in keys if k in chosen or k == key]
        if measure(trial) <= limit:
            chosen = trial
    return [k for k in keys if k in chosen]


def shorten(text: str, size: int) -> str:
    """Text cut to ``size`` characters with an ellipsis in the middle (both ends say most).

    >>> shorten("forum_hardest_1106.txt 9x9", 15)
    'forum_h…txt 9x9'
    """
    if len(text) <= size or size < 3:
        return text
    head = (size - 1) // 2
    return text[:head] + ELLIPSIS + text[len(text) - (size - 1 - head):]


def shorten_set(text: str, size: int) -> str:
    """A puzzle set's name cut to ``size`` characters, its grid size kept whole.

    >>> shorten_set("forum_hardest_1106.txt 9x9", 15)
    'forum_hard… 9x9'
    """
    name, _, grid = text.rpartition(" ")
    if len(text) <= size or not name or size - len(grid) - 2 < 1:
        return shorten(text, size)
    return name[:size - len(grid) - 2] + ELLIPSIS + " " + grid


def choose(keys: Sequence[str], wanted: Sequence[str] | None, what: str) -> list[str]:
    """The keys named in ``wanted`` (in its order), or all when it is None; ValueError naming
    the unknown ones and the valid ones."""
    if wanted is None:
        return list(keys)
    unknown = [k for k in wanted if k not in keys]
    if unknown:
        raise ValueError(f"--columns: no column {', '.join(map(repr, unknown))} in {what}; "
                         f"its columns: {', '.join(keys)}")
    return list(wanted)


def seconds(value: float) -> str:
    """A duration in seconds, three significant figures (at most six decimals), never exponents.

    >>> [seconds(x) for x in (0.0000147, 0.001234, 1.5, 12.34, 1234.5)]
    ['0.000015', '0.00123', '1.50', '12.3', '1234']
    """
    if value >= 100:
        return f"{value:.0f}"
    if value < 0.001:
        return f"{value:.6f}"
    return f"{value:#.3g}"


def csv_text(keys: Sequence[str], rows: Sequence[dict[str, Any]], headers: Sequence[str] | None = None) -> str:
    """Rows as CSV: a header line, then one line per row (None as an empty cell; a text a
    spreadsheet would run as a formula neutralised: csv_cells)."""
    out = io.StringIO()
    writer = csv_cells.writer(out)
    writer.writerow(list(headers or keys))
    writer.writerows([["" if row.get(k) is None else row.get(k) for k in keys] for row in rows])
    return out.getvalue().rstrip("\n")


def json_text(keys: Sequence[str], rows: Sequence[dict[str, Any]]) -> str:
    """Rows as a JSON list of objects holding only ``keys``."""
    return json.dumps([{k: row.get(k) for k in keys} for row in rows], indent=2)
