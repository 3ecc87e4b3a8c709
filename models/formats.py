"""Reading and writing puzzles: line, grid and pretty (boxed) layouts.

line:   n*n symbols on one line, optionally followed by ``variant=x`` and/or
        ``regions=<n*n region symbols>`` (jigsaw); '#' starts a comment line.
grid:   n rows, each of n symbols (``6.5..3.4.``) or n whitespace-separated
        symbols or integers (``6 . 5 . . 3 . 4 .``, ``12  0  8  9 ...``);
        puzzles separated by blank lines or simply consecutive.
pretty: the boxed grid from ``to_pretty``; its border lines and bars are skipped on reading.

Reading a batch never stops at a bad puzzle: ``read_puzzles`` returns the good
puzzles and a located ``PuzzleError`` for each bad one.
"""
from __future__ import annotations

import io
import math
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from .errors import (CellCountError, DuplicateGivenError, PuzzleError, RegionError,
                     SizeError)
from .geometry import Geometry, valid_size
from .model import Model
from .puzzle import Grid, Puzzle, Source
from .symbols import MAX_SYMBOL_SIZE, char_value, symbol, token_value

FORMATS = ("auto", "line", "grid")
_BARS = "|│┃║"
_BORDER_CHARS = set("+-=|:─━│┃┼┬┴├┤┌┐└┘═║╬╔╗╚╝╠╣╦╩ \t")
_CORNERS = set("+=─━┼┬┴├┤┌┐└┘═╬╔╗╚╝╠╣╦╩")


@dataclass
class Batch:
    """What one file held: its good puzzles in order, and an error for each bad one."""

    name: str
    puzzles: list[Puzzle] = field(default_factory=list)
    errors: list[PuzzleError] = field(default_factory=list)

    def __iter__(self) -> Iterator[Puzzle]:
        return iter(self.puzzles)

    def __len__(self) -> int:
        return len(self.puzzles)


def read_puzzles(source: str | Path | TextIO, *, fmt: str = "auto", hex16: bool = False) -> Batch:
    """Read every puzzle from a path, '-' (stdin) or an open text file."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    if isinstance(source, (str, Path)):
        if str(source) == "-":
            return _read_lines(sys.stdin.read().splitlines(), "<stdin>", fmt, hex16)
        with open(source, encoding="utf-8") as handle:
            return _read_lines(handle.read().splitlines(), str(source), fmt, hex16)
    return _read_lines(source.read().splitlines(), getattr(source, "name", "<stream>"), fmt, hex16)


def read_text(text: str, *, name: str = "<string>", fmt: str = "auto", hex16: bool = False) -> Batch:
    """Read every puzzle in a string."""
    return read_puzzles(_Named(text, name), fmt=fmt, hex16=hex16)


def parse_puzzle(text: str, *, fmt: str = "auto", hex16: bool = False) -> Puzzle:
    """Exactly one puzzle from a string; raises its PuzzleError if it is bad."""
    batch = read_text(text, fmt=fmt, hex16=hex16)
    if batch.errors:
        raise batch.errors[0]
    if len(batch.puzzles) != 1:
        raise PuzzleError(f"expected one puzzle, found {len(batch.puzzles)}")
    return batch.puzzles[0]


# ---------------------------------------------------------------- reading

class _Named(io.StringIO):
    def __init__(self, text: str, name: str):
        super().__init__(text)
        self.name = name


def _read_lines(lines: list[str], name: str, fmt: str, hex16: bool) -> Batch:
    batch = Batch(name)
    number = 0  # 0-based index of the next line
    index = 0   # 0-based index of the next puzzle, good or bad
    while number < len(lines):
        text = lines[number].strip()
        if not text or text.startswith("#") or _is_border(text):
            number += 1
            continue
        try:
            if fmt == "line" or (fmt == "auto" and _looks_like_line(text)):
                rows = [(number + 1, text)]
                number += 1
                puzzle = _parse_line(text, hex16, Source(name, rows[0][0], index))
            else:
                rows, number = _collect_grid(lines, number)
                puzzle = _parse_grid(rows, hex16, Source(name, rows[0][0], index))
            check_duplicates(puzzle)
            batch.puzzles.append(puzzle)
        except PuzzleError as error:
            batch.errors.append(error.located(file=name, line=error.line or rows[0][0], index=index))
        index += 1
    return batch


def _is_border(text: str) -> bool:
    """A line of a boxed grid that holds no cells, such as '+-------+-------+'."""
    chars = set(text)
    return chars <= _BORDER_CHARS and bool(chars & _CORNERS)


def _looks_like_line(text: str) -> bool:
    """A lone token of n*n cells, or longer than any grid row can be, or one with fields."""
    tokens = text.split()
    n = math.isqrt(len(tokens[0]))
    if len(tokens) > 1:
        return all("=" in t for t in tokens[1:])
    return (n * n == len(tokens[0]) and valid_size(n)) or len(tokens[0]) > MAX_SYMBOL_SIZE


def _parse_line(text: str, hex16: bool, source: Source) -> Puzzle:
    cells, *fields = text.split()
    geometry = _geometry_for_cells(len(cells))
    givens = tuple(char_value(ch, geometry.n, hex16, i // geometry.n + 1, i % geometry.n + 1)
                   for i, ch in enumerate(cells))
    diagonals, regions = False, None
    for item in fields:
        key, _, value = item.partition("=")
        if key == "variant" and value in ("x", "standard", "jigsaw", "jigsaw-x"):
            diagonals = value.endswith("x")
        elif key == "regions":
            regions = _parse_regions(value, geometry)
        else:
            raise PuzzleError(f"unknown field {item!r} (expected variant=x or regions=<map>)")
    return Puzzle(geometry, givens, diagonals, regions, source)


def _geometry_for_cells(count: int) -> Geometry:
    n = math.isqrt(count)
    if n * n == count and valid_size(n):
        return Geometry.for_size(n)
    sizes = [k for k in range(4, MAX_SYMBOL_SIZE + 1) if valid_size(k)]
    nearest = min(sizes, key=lambda k: abs(k * k - count))
    how = "too few" if count < nearest * nearest else "too many"
    raise CellCountError(f"{how} cells: found {count}, expected {nearest * nearest} "
                         f"for {nearest}x{nearest} (a line puzzle has n*n cells)")


def _parse_regions(value: str, geometry: Geometry) -> Grid:
    n = geometry.n
    if len(value) != geometry.cells:
        raise RegionError(f"region map has {len(value)} cells, expected {geometry.cells}")
    regions = tuple(char_value(ch, n, False, i // n + 1, i % n + 1) for i, ch in enumerate(value))
    for region in range(1, n + 1):
        size = regions.count(region)
        if size != n:
            raise RegionError(f"region {symbol(region)} has {size} cells, expected {n}")
    return regions


def _collect_grid(lines: list[str], start: int) -> tuple[list[tuple[int, str]], int]:
    """The rows of one grid: as many as the first row has cells, or up to a blank line."""
    rows: list[tuple[int, str]] = []
    number = start
    wanted = None
    while number < len(lines) and (wanted is None or len(rows) < wanted):
        text = lines[number].strip()
        if not text:
            break
        number += 1
        if text.startswith("#") or _is_border(text):
            continue
        rows.append((number, text))
        if wanted is None:
            wanted = len(_row_tokens(text))
    return rows, number


def _row_tokens(text: str) -> list[str]:
    for bar in _BARS:
        text = text.replace(bar, " ")
    tokens = text.split()
    compact = any(len(t) > 1 and not t.isdigit() for t in tokens)
    return list("".join(tokens)) if compact else tokens


def _parse_grid(rows: list[tuple[int, str]], hex16: bool, source: Source) -> Puzzle:
    n = len(_row_tokens(rows[0][1]))
    if not valid_size(n):
        raise SizeError(f"a first row of {n} cells: size {n} is not a valid grid "
                        "(sizes are box_rows x box_cols with both at least 2, such as 4, 6, 9, 16)")
    givens: list[int] = []
    for row, (line, text) in enumerate(rows, start=1):
        tokens = _row_tokens(text)
        if len(tokens) != n:
            raise CellCountError(f"row {row} has {len(tokens)} cells, expected {n}", line=line, row=row)
        try:
            givens += [token_value(t, n, hex16, row, col) for col, t in enumerate(tokens, start=1)]
        except PuzzleError as error:
            raise error.located(file=source.file, line=line)
    if len(rows) != n:
        raise CellCountError(f"too few rows: found {len(rows)}, expected {n}")
    return Puzzle(Geometry.for_size(n), tuple(givens), source=source)


def check_duplicates(puzzle: Puzzle) -> None:
    """Raise DuplicateGivenError for the first group holding a given twice."""
    n = puzzle.n
    for group in Model.from_puzzle(puzzle).groups:
        seen: dict[int, int] = {}
        for cell in group.cells:
            value = puzzle.givens[cell]
            if not value:
                continue
            if value in seen:
                first = seen[value]
                raise DuplicateGivenError(
                    f"duplicate {symbol(value)} in {group.name} at {_pair(group.name, first, cell, n)}",
                    row=cell // n + 1, column=cell % n + 1)
            seen[value] = cell
    return None


def _pair(group_name: str, a: int, b: int, n: int) -> str:
    if group_name.startswith("row"):
        return f"columns {a % n + 1} and {b % n + 1}"
    if group_name.startswith("column"):
        return f"rows {a // n + 1} and {b // n + 1}"
    return f"row {a // n + 1}, column {a % n + 1} and row {b // n + 1}, column {b % n + 1}"


# ---------------------------------------------------------------- writing

def to_line(puzzle: Puzzle) -> str:
    """One line: n*n symbols ('.' empty), then variant fields if any."""
    if puzzle.n > MAX_SYMBOL_SIZE:
        raise ValueError(f"line format has symbols up to {MAX_SYMBOL_SIZE}x{MAX_SYMBOL_SIZE}; use to_grid")
    text = "".join(symbol(v) for v in puzzle.givens)
    if puzzle.diagonals:
        text += " variant=x"
    if puzzle.regions:
        text += " regions=" + "".join(symbol(r) for r in puzzle.regions)
    return text


def to_grid(puzzle: Puzzle, *, numbers: bool | None = None) -> str:
    """n rows of space-separated cells: symbols, or integers (0 empty) when numbers is true."""
    n = puzzle.n
    numbers = n > MAX_SYMBOL_SIZE if numbers is None else numbers
    width = len(str(n)) if numbers else 1
    cells = [str(v).rjust(width) if numbers else symbol(v) for v in puzzle.givens]
    return "\n".join(" ".join(cells[r * n:(r + 1) * n]) for r in range(n))


def to_pretty(puzzle: Puzzle) -> str:
    """The grid with box borders, for people."""
    g = puzzle.geometry
    numbers = g.n > MAX_SYMBOL_SIZE
    width = len(str(g.n)) if numbers else 1
    cells = [(str(v) if numbers and v else symbol(v)).rjust(width) for v in puzzle.givens]
    border = "+" + "+".join(["-" * ((width + 1) * g.box_cols + 1)] * (g.n // g.box_cols)) + "+"
    out = [border]
    for r in range(g.n):
        row = cells[r * g.n:(r + 1) * g.n]
        boxes = [" ".join(row[c:c + g.box_cols]) for c in range(0, g.n, g.box_cols)]
        out.append("| " + " | ".join(boxes) + " |")
        if (r + 1) % g.box_rows == 0:
            out.append(border)
    return "\n".join(out)
