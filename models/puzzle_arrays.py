"""Many puzzles of one layout as arrays, for the batch entries (``run --batch``): read fast
from a plain line file, or gathered from the regular reader.

A plain line file holds one puzzle of n*n symbols a line (1-9 then A-Z; '.', '0' or '-' for
an empty cell), with '#' comments, trailing comments and blank lines. Such a file is read in
one pass over its lines and a few numpy operations. A line the fast reader cannot take as it
stands (a bad symbol, a value too large, a repeated given) is read again by the regular
reader, so its error says where and what exactly as ``read_puzzles`` does. A file with
anything else (fields, grids, f-puzzles, links, lines of 16 cells, which may be grid rows;
or --hex) is read by the regular reader whole. Either way the puzzles come out grouped by
layout (geometry, variant groups and cages), in the order each layout first appears, one
``PuzzleArray`` each, with the errors of the bad ones.

numpy is imported by the functions that need it, so ``import models`` stays light.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import PuzzleError
from .formats import iter_puzzles, read_text
from .geometry import Geometry, valid_size
from .puzzle import Puzzle, Source
from .symbols import EMPTY, SYMBOLS

if TYPE_CHECKING:  # only for the type hints
    import numpy as np

_LENGTHS = {n * n: n for n in range(5, len(SYMBOLS) + 1) if valid_size(n)}
"""Line lengths the fast reader takes, and their sides (16 cells may be a compact 16x16 row)."""


@dataclass(frozen=True)
class PuzzleArray:
    """Puzzles of one layout: the layout's first puzzle (its geometry, variant groups, cages
    and source) and, one row each, every puzzle's givens and where it was read."""

    template: Puzzle
    givens: np.ndarray   # uint8[puzzles, cells]: 0 an empty cell
    lines: np.ndarray    # int64[puzzles]: 1-based line of each puzzle in its file (0 if none)
    indexes: np.ndarray  # int64[puzzles]: 0-based place of each puzzle in its file, bad ones counted

    def __len__(self) -> int:
        return len(self.givens)

    @property
    def file(self) -> str:
        return self.template.source.file

    def head(self, first: int) -> PuzzleArray:
        """The puzzles whose place in the file is below ``first`` (``--first``)."""
        kept = self.indexes < first
        return PuzzleArray(self.template, self.givens[kept], self.lines[kept], self.indexes[kept])

    def puzzle(self, row: int) -> Puzzle:
        """The row's puzzle, as the regular reader gives it."""
        return replace(self.template, givens=tuple(self.givens[row].tolist()),
                       source=Source(self.file, int(self.lines[row]), int(self.indexes[row])))


def read_arrays(path: str | Path, *, fmt: str = "auto", hex16: bool = False
                ) -> tuple[list[PuzzleArray], list[PuzzleError]]:
    """The puzzles of a file grouped by layout (fast for a plain line file), and the errors
    of the bad ones."""
    name = str(path)
    data = Path(path).read_bytes()
    if fmt not in ("auto", "line") or hex16:
        return gather(iter_puzzles(path, fmt=fmt, hex16=hex16))
    uniform = _uniform_lines(data)
    if uniform is not None:
        numbers, cells, values = uniform
        return _read_plain(numbers, {cells.shape[1]: (None, cells, values)}, name)
    lines = _plain_lines(data)
    if lines is None:
        return gather(iter_puzzles(path, fmt=fmt, hex16=hex16))
    return _read_plain([number for number, _ in lines], _by_length([text for _, text in lines]), name)


def gather(items: Iterable[Puzzle | PuzzleError]) -> tuple[list[PuzzleArray], list[PuzzleError]]:
    """Puzzles (and errors, kept apart) grouped by layout, in the order layouts first appear."""
    import numpy as np  # noqa: PLC0415 - only for the batch entries

    groups: dict[Any, list[Puzzle]] = {}
    errors: list[PuzzleError] = []
    for item in items:
        if isinstance(item, PuzzleError):
            errors.append(item)
        else:
            key = (item.source.file, item.geometry, item.diagonals, item.regions, item.cages,
                   item.rules, item.extra_regions)
            groups.setdefault(key, []).append(item)
    arrays = [PuzzleArray(puzzles[0], np.array([p.givens for p in puzzles], np.uint8),
                          np.array([p.source.line for p in puzzles], np.int64),
                          np.array([p.source.index for p in puzzles], np.int64))
              for puzzles in groups.values()]
    return arrays, errors


def _uniform_lines(data: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The line numbers, cells (a byte matrix, a row a puzzle) and their values (the same,
    each byte through _symbol_values) of a plain line file whose puzzle lines all have one
    length and no comment after the cells (the common case, found with numpy over the whole
    file), or None to look line by line."""
    import numpy as np  # noqa: PLC0415 - only for the batch entries

    buffer = np.frombuffer(data, np.uint8)
    ends = np.flatnonzero(buffer == ord("\n"))
    if len(buffer) and buffer[-1] != ord("\n"):
        ends = np.append(ends, len(buffer))
    starts = np.concatenate(([0], ends[:-1] + 1)) if len(ends) else ends
    trimmed = ends - ((ends > starts) & (buffer[np.maximum(ends - 1, 0)] == ord("\r")))
    lengths = trimmed - starts
    first = np.where(lengths > 0, buffer[np.minimum(starts, max(len(buffer) - 1, 0))], 0)
    puzzles = (lengths > 0) & (first != ord("#"))
    numbers = np.flatnonzero(puzzles)
    sizes = lengths[numbers]
    # min and max, not np.unique: its first call imports numpy.ma (20-40 ms, a fifth of a batch)
    if not len(sizes) or int(sizes.min()) != int(sizes.max()) or int(sizes[0]) not in _LENGTHS:
        return None
    # a space or '#' in a line of this length is a bad symbol: that line is read again alone
    begins, length = starts[numbers], int(sizes[0])
    # bytes.translate maps the whole file at C speed (2x numpy's look-up on the cells alone)
    values = np.frombuffer(data.translate(_symbol_values().tobytes()), np.uint8)
    # the values copied out of the view: givens a batch entry may take as they are
    return numbers + 1, _cells(buffer, begins, length), _cells(values, begins, length).copy()


def _cells(buffer: np.ndarray, begins: np.ndarray, length: int) -> np.ndarray:
    """The length bytes from each of begins in buffer, a row each: a view of the buffer when
    the lines follow each other at one step (a file of puzzles with the comments at the top:
    nothing copied), else gathered."""
    import numpy as np  # noqa: PLC0415 - only for the batch entries

    step = int(begins[1] - begins[0]) if len(begins) > 1 else length
    if step >= length and (np.diff(begins) == step).all():
        windows = np.lib.stride_tricks.sliding_window_view(buffer[int(begins[0]):], length)
        return windows[::step][:len(begins)]
    return buffer[begins[:, None] + np.arange(length)]


def _plain_lines(data: bytes) -> list[tuple[int, bytes]] | None:
    """(line number, cells) of every puzzle line of a plain line file, or None when the file
    holds anything else."""
    found = [(number, text) for number, text in enumerate((raw.strip() for raw in data.split(b"\n")), 1)
             if text and text[0] != _HASH]
    for place, (number, text) in enumerate(found):
        if b"#" in text:  # a trailing comment, after a space: '4.....8.5...  # hard'
            cells, _, _ = text.partition(b"#")
            if not cells[-1:].isspace():
                return None  # a '#' inside a token: the regular reader decides what it is
            found[place] = (number, cells.rstrip())
    if not {len(text) for _, text in found} <= _LENGTHS.keys():
        return None
    if any(b" " in text or b"\t" in text for _, text in found):
        return None
    return found


_HASH = ord("#")


def _symbol_values() -> np.ndarray:
    """Byte -> cell value: 0 for an empty cell, 1-35 for a symbol, 255 for anything else."""
    import numpy as np  # noqa: PLC0415 - only for the batch entries

    table = np.full(256, 255, np.uint8)
    for char in EMPTY:
        table[ord(char)] = 0
    for value, char in enumerate(SYMBOLS, start=1):
        table[ord(char)] = value
    return table


def _by_length(texts: list[bytes]) -> dict[int, tuple[list[int], np.ndarray, np.ndarray]]:
    """The puzzle lines grouped by length: each length's places, cells (a byte matrix) and
    their values."""
    import numpy as np  # noqa: PLC0415 - only for the batch entries

    places: dict[int, list[int]] = {}
    for place, text in enumerate(texts):
        places.setdefault(len(text), []).append(place)
    table = _symbol_values()
    found = {}
    for length, chosen in places.items():
        cells = np.frombuffer(b"".join(texts[p] for p in chosen), np.uint8).reshape(-1, length)
        found[length] = (chosen, cells, table[cells])
    return found


def _read_plain(numbers: Sequence[int] | np.ndarray,
                lengths: Mapping[int, tuple[list[int] | None, np.ndarray, np.ndarray]], name: str
                ) -> tuple[list[PuzzleArray], list[PuzzleError]]:
    """The puzzles of a plain line file (each puzzle line's number; each length's places,
    None for all, cells and their values): each length's lines converted at once; a line
    with a problem read again, alone, by the regular reader for its located error."""
    import numpy as np  # noqa: PLC0415 - only for the batch entries

    lines = np.asarray(numbers, np.int64)
    arrays, redo = [], []
    for length, (places, cells, values) in lengths.items():
        n = _LENGTHS[length]
        picked = np.arange(len(lines), dtype=np.int64) if places is None else np.array(places, np.int64)
        bad = np.asarray((values > n).any(axis=1))
        if bad.any():
            bad[~bad] = _repeats(values[~bad], n)
        else:
            bad = _repeats(values, n)
        if bad.any():  # the rows kept copied out; else all of them as they are
            redo += [(int(picked[row]), cells[row].tobytes()) for row in np.flatnonzero(bad)]
            picked, values = picked[~bad], values[~bad]
        if len(picked):
            first = int(picked[0])
            template = read_text(cells[int(np.flatnonzero(~bad)[0])].tobytes().decode("ascii"),
                                 name=name).puzzles[0]
            template = replace(template, source=Source(name, int(lines[first]), first))
            arrays.append(PuzzleArray(template, values, lines[picked], picked))
    more, errors = gather(_again(lines.tolist(), redo, name)) if redo else ([], [])
    return arrays + more, errors


def _again(numbers: list[int], lines: list[tuple[int, bytes]], name: str) -> list[Puzzle | PuzzleError]:
    """The lines (place, text) read by the regular reader, one by one, located."""
    items: list[Puzzle | PuzzleError] = []
    for place, text in sorted(lines):
        batch = read_text(text.decode("ascii", errors="replace"), name=name)
        items += [replace(p, source=Source(name, numbers[place], place)) for p in batch.puzzles]
        items += [error.located(file=name, line=numbers[place], index=place) for error in batch.errors]
    return items


def _repeats(values: np.ndarray, n: int) -> np.ndarray:
    """Rows (givens of plain n x n puzzles, 0 an empty cell) that hold a value twice in one
    row, column or box. The givens are turned (cells x rows), so each group is a slice, and
    value v becomes bit v - 1 (an empty cell none): a group repeats a value exactly when the
    sum of its bits exceeds their OR (gathering every group's cells instead measured 4x
    slower on the 17-clue set)."""
    import numpy as np  # noqa: PLC0415 - only for the batch entries

    repeated = np.zeros(len(values), bool)
    if not len(values):
        return repeated
    geometry = Geometry.for_size(n)
    # the sum of n bits below bit n: n * 2**(n - 1) at most
    kind = np.uint16 if n <= 12 else np.uint32 if n <= 27 else np.uint64
    turned = np.ascontiguousarray(values.T).astype(kind)
    bits = np.right_shift(np.left_shift(kind(1), turned), kind(1))  # v -> bit v - 1, 0 -> 0
    grid = bits.reshape(n, n, -1)  # [row, column, puzzle]
    boxed = bits.reshape(n // geometry.box_rows, geometry.box_rows, n // geometry.box_cols,
                         geometry.box_cols, -1)  # [band, row in it, stack, column in it, puzzle]
    for parts in ([grid[:, k] for k in range(n)], [grid[k] for k in range(n)],
                  [boxed[:, i, :, j] for i in range(geometry.box_rows) for j in range(geometry.box_cols)]):
        total, union = parts[0].copy(), parts[0].copy()
        for part in parts[1:]:
            total += part
            union |= part
        repeated |= (total != union).reshape(-1, len(values)).any(axis=0)
    return repeated
