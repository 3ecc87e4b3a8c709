"""Reading and writing puzzles: line, grid and pretty (boxed) layouts.

line:   n*n symbols on one line, optionally followed by variant fields (fields.py):
        ``variant=x``, ``variant=latin``, ``regions=<n*n region symbols>`` (jigsaw),
        ``cage=17:R1C1,R1C2``, ...; '#' starts a comment line, and whitespace then '#'
        starts a comment at the end of a line.
grid:   n rows, each of n symbols (``6.5..3.4.``) or n whitespace-separated
        symbols or integers (``6 . 5 . . 3 . 4 .``, ``12  0  8  9 ...``);
        puzzles separated by blank lines or simply consecutive. The same fields, on a
        line of their own, apply to the grid after them (``variant=latin``).
pretty: the boxed grid from ``to_pretty``; its border lines and bars are skipped on reading.

The grid reader also reads plain .sdk files (``#`` metadata lines, then nine rows of nine symbols).

f-puzzles (fpuzzles.py): a ``.json`` file, or any input starting with '{' or '[', is read as
f-puzzles JSON documents; in a line file, a line starting with '{' is one document and a
line holding '?load=' an f-puzzles link.

Reading a batch never stops at a bad puzzle: ``read_puzzles`` returns the good
puzzles and a located ``PuzzleError`` for each bad one.
"""
from __future__ import annotations

import io
import json
import math
import re
import sys
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import BinaryIO, TextIO

from .errors import (
    CellCountError,
    DocumentError,
    DuplicateGivenError,
    EncodingError,
    LayoutError,
    PuzzleError,
    SizeError,
    as_puzzle_error,
)
from .fields import Fields, is_fields_line, write_fields
from .fpuzzles import LINK_MARK, iter_documents, read_document, read_link
from .geometry import MAX_SIZE, MIN_LATIN, MIN_SIZE, valid_size
from .lines import BadLine, byte_reader, iter_lines
from .model import Model, find_duplicate
from .puzzle import Puzzle, Source
from .symbols import EMPTY, HEX_DIGITS, MAX_SYMBOL_SIZE, SYMBOLS, char_value, line_values, symbol, token_value

FORMATS = ("auto", "line", "grid", "fpuzzles")
MAX_JSON_BYTES = 1 << 26
"""The largest f-puzzles JSON input read (it is parsed whole, unlike the line layouts)."""
MAX_BLOCK_CHARS = 1 << 24
"""Characters of grid rows with no blank line between them held at once: past it, a block
ends at the next whole grid (or every MAX_SIZE rows of a width no grid has)."""
MAX_BAD_IN_A_ROW = 10_000
"""Bad puzzles in a row, none good between, after which the rest of an input is not read."""
_BARS = "|│┃║"
_TRAILING_COMMENT = re.compile(r"(?<=\S)\s+#.*$")  # '4.....8.5...  # hard' keeps its puzzle
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


def read_puzzles(source: str | Path | TextIO | BinaryIO, *, fmt: str = "auto",
                 hex16: bool = False) -> Batch:
    """Read every puzzle from a path, '-' (stdin) or an open text or binary file.

    ``fmt`` forces 'line', 'grid' or 'fpuzzles' where 'auto' would guess; ``hex16`` reads 16x16
    puzzles written 0-F (value 1 written '0', so only '.' and '-' are empty); puzzles
    of other sizes in the same file are read as usual. Any line ends and a UTF-8
    byte-order mark are accepted; a line that is not UTF-8 or is too long is an error
    for its own puzzle only (lines.py). OSError if a path cannot be opened.
    """
    return _batch(_source_name(source), iter_puzzles(source, fmt=fmt, hex16=hex16))


def iter_puzzles(source: str | Path | TextIO | BinaryIO, *, fmt: str = "auto",
                 hex16: bool = False, name: str | None = None) -> Iterator[Puzzle | PuzzleError]:
    """``read_puzzles`` lazily: each puzzle (or the located error of a bad one) as soon as
    its lines are read, holding only the lines of the puzzle being read, so a file of
    millions of puzzles reads in constant memory. ``name`` names the source in errors
    (default: the path, '<stdin>', or the stream's name)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    name = name or _source_name(source)
    if isinstance(source, (str, Path)) and str(source) != "-":
        with open(source, "rb") as handle:
            yield from _stream_items(handle, name, fmt, hex16)
        return
    if isinstance(source, (str, Path)):  # '-': standard input, empty when there is none
        source = sys.stdin if sys.stdin is not None else io.BytesIO()
    yield from _stream_items(source, name, fmt, hex16)


def count_puzzles(path: str | Path, *, fmt: str = "auto", hex16: bool = False) -> int:
    """How many puzzles, good or bad, ``iter_puzzles`` would give for a file: the same reading
    (so the same count, and the same index for each), without parsing a line puzzle's cells:
    6-9 times faster than reading them (puzzles/17_clue.txt's 20,000 in about 1 s on a busy
    2-core machine). OSError if it cannot be opened."""
    with open(path, "rb") as handle:
        return sum(1 for _ in _stream_items(handle, str(path), fmt, hex16, _counted))


def read_stream(stream: TextIO | BinaryIO, name: str, *, fmt: str = "auto", hex16: bool = False) -> Batch:
    """Every puzzle of an open stream, named ``name`` in errors."""
    return _batch(name, _stream_items(stream, name, fmt, hex16))


def _stream_items(stream: TextIO | BinaryIO, name: str, fmt: str, hex16: bool,
                  check: Checker | None = None) -> Iterator[Puzzle | PuzzleError]:
    """The puzzles and located errors of an open stream: f-puzzles JSON when its name ends
    in .json or it starts with '{' or '[', else read line by line."""
    read = byte_reader(stream)
    head = read(65536)
    if fmt == "fpuzzles" or (fmt == "auto" and (name.lower().endswith(".json") or _spans_lines(head))):
        yield from _json_items(head, read, name)
        return
    yield from _given_up_after_bad_run(_parse_lines(_Lines(iter_lines(_Peeked(head, read), name)),
                                                    name, fmt, hex16, check or _checked), name)


def _given_up_after_bad_run(items: Iterator[Puzzle | PuzzleError], name: str
                            ) -> Iterator[Puzzle | PuzzleError]:
    """The items, up to MAX_BAD_IN_A_ROW errors with no puzzle between: then one more error
    says the rest is not read (random bytes, ``/dev/urandom``, are no puzzle file)."""
    in_a_row = 0
    for item in items:
        yield item
        in_a_row = in_a_row + 1 if isinstance(item, PuzzleError) and item is not _NOT_PARSED else 0
        if in_a_row >= MAX_BAD_IN_A_ROW:
            line = item.line + 1 if isinstance(item, PuzzleError) else 0
            yield PuzzleError(f"{MAX_BAD_IN_A_ROW:,} bad puzzles in a row: the rest is not read "
                                "(is it a puzzle file?)", file=name, line=line)
            return


def _same(puzzle: Puzzle) -> Puzzle:
    return puzzle


def _spans_lines(head: bytes) -> bool:
    """Whether an input starts with JSON that its first line does not complete (a document
    written over several lines): then it is read whole; one document a line is read by lines."""
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if text[:1] not in (b"{", b"["):
        return False
    first, newline, _ = text.partition(b"\n")
    try:
        json.loads(first)
    except (ValueError, RecursionError):
        return True
    return not newline and len(head) >= 65536  # one line, longer than the peek: read it whole


class _Peeked:
    """A binary stream whose first chunk has been read already (to choose the format)."""

    def __init__(self, head: bytes, read: Callable[[int], bytes]):
        self._head, self._read = head, read

    def read1(self, size: int = -1) -> bytes:
        if self._head:
            head, self._head = self._head, b""
            return head
        return self._read(size)


def _json_items(head: bytes, read: Callable[[int], bytes], name: str) -> Iterator[Puzzle | PuzzleError]:
    """The puzzles of f-puzzles JSON documents (read whole, up to MAX_JSON_BYTES)."""
    chunks, size = [head], len(head)
    while (chunk := read(1 << 20)) and size <= MAX_JSON_BYTES:
        chunks.append(chunk)
        size += len(chunk)
    if size > MAX_JSON_BYTES:
        yield DocumentError(f"more than {MAX_JSON_BYTES:,} bytes of JSON: not read", file=name, line=1)
        return
    data = b"".join(chunks).removeprefix(b"\xef\xbb\xbf")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        yield EncodingError(f"invalid UTF-8 byte 0x{data[error.start]:02x}", file=name, line=line)
        return
    for item in iter_documents(text, name):
        if isinstance(item, PuzzleError):
            yield item
        else:
            yield _checked(partial(_same, item), name, item.source.line, item.source.index)


def _batch(name: str, items: Iterator[Puzzle | PuzzleError]) -> Batch:
    batch = Batch(name)
    for item in items:
        if isinstance(item, PuzzleError):
            batch.errors.append(item)
        else:
            batch.puzzles.append(item)
    return batch


def _source_name(source: str | Path | TextIO | BinaryIO) -> str:
    if isinstance(source, (str, Path)):
        return "<stdin>" if str(source) == "-" else str(source)
    return getattr(source, "name", "<stream>")


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


Line = str | BadLine
Row = tuple[int, Line]
"""A grid row: its 1-based line number and its text (or why it could not be read)."""


def _text(line: Line) -> str:
    if isinstance(line, BadLine):
        return ""
    return (_TRAILING_COMMENT.sub("", line) if "#" in line else line).strip()  # no '#': nothing to cut


class _Lines:
    """The lines of an input read on demand: ``get`` past the end is None, and lines before
    ``forget``'s number are dropped, so only the puzzle being read is held."""

    def __init__(self, lines: Iterator[Line]):
        self._source: Iterator[Line] | None = lines
        self._kept: deque[Line] = deque()
        self._first = 0

    def get(self, number: int) -> Line | None:
        while number >= self._first + len(self._kept):
            line = next(self._source, None) if self._source is not None else None
            if line is None:  # a terminal's end (Ctrl-D) is not sticky: never read past it
                self._source = None
                return None
            self._kept.append(line)
        return self._kept[number - self._first] if number >= self._first else None

    def forget(self, number: int) -> None:
        while self._first < number and self._kept:
            self._kept.popleft()
            self._first += 1


def _parse_lines(lines: _Lines, name: str, fmt: str, hex16: bool,
                 check: Checker) -> Iterator[Puzzle | PuzzleError]:
    """The puzzles of the lines, each one-line puzzle made by ``check`` (``_checked``: parsed
    and checked)."""
    number = 0  # 0-based index of the next line
    index = 0   # 0-based index of the next puzzle, good or bad
    header: tuple[int, str] | None = None  # a line of fields for the next puzzle: (line, text)
    while (line := lines.get(number)) is not None:
        lines.forget(number)
        text = _text(line)
        if isinstance(line, BadLine):
            yield line.error.located(file=name, line=number + 1, index=index)
            index += 1
            number += 1
            header = None
        elif not text or text.startswith("#") or _is_border(text):
            number += 1
        elif text.startswith("{") or LINK_MARK in text:
            source = Source(name, number + 1, index)
            yield check(partial(_read_fpuzzles_line, line.strip(), source), name, number + 1, index)
            index += 1
            number += 1
            header = None
        elif is_fields_line(text):
            if header is not None:
                yield PuzzleError("a line of fields with no puzzle after it (fields go on the line "
                                  "just before a grid)", file=name, line=header[0], index=index)
                index += 1
            header = (number + 1, text)
            number += 1
        elif fmt == "line" or (fmt == "auto" and _looks_like_line(text, lines, number)):
            yield check(partial(_parse_line, text, hex16, Source(name, number + 1, index), header),
                        name, number + 1, index)
            index += 1
            number += 1
            header = None
        else:
            rows, number = _collect_block(lines, number, fmt)
            for item in split_block(rows, hex16, name, index, header):
                yield item
                index += 1
            header = None
    if header is not None:
        yield PuzzleError("a line of fields with no puzzle after it (fields go on the line just "
                          "before a grid)", file=name, line=header[0], index=index)


def _read_fpuzzles_line(text: str, source: Source) -> Puzzle:
    """One f-puzzles document written on a line, or an f-puzzles link."""
    if not text.startswith("{"):
        return read_link(text, source)
    try:
        doc = json.loads(text)
    except RecursionError:
        raise DocumentError("not JSON this reader takes: nested deeper than Python's recursion limit") \
            from None
    except json.JSONDecodeError as error:
        raise DocumentError(f"not JSON: {error.msg} at column {error.colno}") from None
    return read_document(doc, source)


def _header_fields(header: tuple[int, str] | None) -> Fields:
    """The fields of the line before a puzzle (none without one), located at that line."""
    if header is None:
        return Fields()
    try:
        return Fields.read(header[1].split())
    except PuzzleError as error:
        raise error.located(file=error.file, line=header[0]) from None


Checker = Callable[[Callable[[], Puzzle], str, int, int], "Puzzle | PuzzleError"]
"""How a one-line puzzle is made: (its parser, file name, line, index) -> the puzzle or its error."""
_NOT_PARSED = PuzzleError("not parsed: only counted")
"""What count_puzzles counts for a line puzzle: never a bad one (a run of them is no bad run)."""


def _counted(_parse: Callable[[], Puzzle], _name: str, _line: int, _index: int) -> Puzzle | PuzzleError:
    """count_puzzles' Checker: a puzzle counted, not parsed."""
    return _NOT_PARSED


def _checked(parse: Callable[[], Puzzle], name: str, line: int, index: int) -> Puzzle | PuzzleError:
    """The parsed puzzle with no repeated given, or its located error."""
    try:
        puzzle = parse()
        check_duplicates(puzzle)
        return puzzle
    except Exception as error:  # noqa: BLE001 - whatever fails, it is this puzzle's error (issue 39)
        located = as_puzzle_error(error)
        return located.located(file=name, line=located.line or line, index=index)


def _is_border(text: str) -> bool:
    """A line of a boxed grid that holds no cells, such as '+-------+-------+'."""
    chars = set(text)
    return chars <= _BORDER_CHARS and bool(chars & _CORNERS)


def _looks_like_line(text: str, lines: _Lines, number: int) -> bool:
    """Whether the puzzle starting at lines[number] is a line puzzle rather than a grid.

    A line puzzle's first token has n*n cells for a valid n, or is longer than any
    grid row can be; fields such as ``variant=x`` may follow it. The one clash is 16
    cells, which is both a 4x4 line puzzle and a compact 16x16 grid row: 16 such
    rows in a row holding a symbol that a 4x4 grid cannot are read as a 16x16 grid.
    """
    first, *rest = text.split()
    n = math.isqrt(len(first))
    if len(first) > MAX_SYMBOL_SIZE or any("=" in token for token in rest):
        return True  # fields follow the cells: no grid row has them
    if n * n != len(first) or not valid_size(n):
        return False
    return len(first) != 16 or not _is_compact_16x16(lines, number)


def _is_compact_16x16(lines: _Lines, start: int) -> bool:
    rows: list[str] = []
    number = start
    while (raw := lines.get(number)) is not None:
        number += 1
        text = _text(raw)
        if text.startswith("#"):
            continue
        if len(text) != 16 or " " in text:
            break
        rows.append(text)
        if len(rows) == 16:
            return any(ch not in "1234" + EMPTY for row in rows for ch in row)
    return False


def _parse_line(text: str, hex16: bool, source: Source, header: tuple[int, str] | None = None) -> Puzzle:
    cells, *items = text.split()
    fields = _header_fields(header).merged(Fields.read(items)) if items or header is not None else Fields()
    n = _side_for_cells(len(cells), fields)
    geometry = fields.geometry_for(n)
    hex16 = hex16 and n == 16
    try:  # good symbols: one lookup a cell; a bad one is found and located below
        givens = tuple(map(line_values(n).__getitem__, cells)) if not hex16 else None
    except KeyError:
        givens = None
    if givens is None:
        givens = tuple(char_value(ch, n, hex16, i // n + 1, i % n + 1) for i, ch in enumerate(cells))
    return fields.puzzle(geometry, givens, source)


def _side_for_cells(count: int, fields: Fields) -> int:
    """The side of a line puzzle of ``count`` cells: its square root, a valid size (any side
    from 2 for a Latin square or a jigsaw)."""
    n = math.isqrt(count)
    free = "latin" in fields.kinds or fields.regions is not None
    if n * n == count and (valid_size(n) or (free and n >= MIN_LATIN)):
        return n
    if n * n == count and n > 1:
        raise SizeError(f"{count} cells make a {n}x{n} grid, but size {n} is not a valid grid "
                        "(sizes are box_rows x box_cols with both at least 2, such as 4, 6, 9, 16); "
                        "a Latin square of any side says variant=latin")
    sizes = [k for k in range(4, MAX_SYMBOL_SIZE + 1) if valid_size(k)]
    nearest = min(sizes, key=lambda k: abs(k * k - count))
    how = "too few" if count < nearest * nearest else "too many"
    raise CellCountError(f"{how} cells: found {count}, expected {nearest * nearest} "
                         f"for {nearest}x{nearest} (a line puzzle has n*n cells)")


def _collect_block(lines: _Lines, start: int, fmt: str) -> tuple[list[Row], int]:
    """The rows of consecutive grids: up to a blank line, or a row of another width that
    starts something new (a line puzzle, or a grid of another size after whole grids)."""
    rows: list[Row] = []
    number, width, held = start, None, 0
    while (line := lines.get(number)) is not None:
        text = _text(line)
        if width and not len(rows) % min(width, MAX_SIZE) and held > MAX_BLOCK_CHARS:
            break  # a bound on what is held: the grids after these start a block of their own
        if not isinstance(line, BadLine):
            if not text or is_fields_line(text):
                break
            if text.startswith("#") or _is_border(text):
                number += 1
                continue
            count = len(_row_tokens(text))
            if count == 0:  # no cells, no border ('|'): a block of its own, one located error
                if not rows:
                    rows.append((number + 1, text))
                    number += 1
                break
            if width is None:
                width = count
            elif count != width and _starts_anew(text, lines, number, fmt, count, len(rows), width):
                break
            elif (count == width and not len(rows) % width and fmt == "auto"
                  and _looks_like_line(text, lines, number)):
                break  # after whole 16x16 grids, a 16-cell line puzzle (4x4)
        rows.append((number + 1, line if isinstance(line, BadLine) else text))
        held += len(text)
        number += 1
    return rows, number


def _starts_anew(text: str, lines: _Lines, number: int, fmt: str, count: int, done: int,
                 width: int) -> bool:
    if fmt == "auto" and _looks_like_line(text, lines, number):
        return True
    return width > 0 and done % width == 0 and valid_size(count)  # width 0: a row of no cells, '|'


def split_block(rows: list[Row], hex16: bool, name: str, index: int,
                header: tuple[int, str] | None = None) -> list[Puzzle | PuzzleError]:
    """The puzzles (or their errors) of a block of grid rows with no blank line between them.

    ``header`` is the line of fields before the block (line number, text): it applies to
    the block's first grid.

    n rows make a grid (n the first row's cells). When the rows are no whole number of
    grids, the grids before the fault and after it are found by reading from both ends
    (a grid that parses with no duplicate is plausible), and the rows between are one
    LayoutError, rather than grids stitched from two puzzles.
    """
    first = rows[0][1]
    n = len(_row_tokens(first)) if isinstance(first, str) else 0
    if n == 0 or len(rows) <= n or len(rows) % n == 0:
        step = n if n and len(rows) % n == 0 else len(rows)
        return [_grid(rows[i:i + step], hex16, name, index + k, header if k == 0 else None)
                for k, i in enumerate(range(0, len(rows), step))]
    whole, rest = divmod(len(rows), n)
    forward = [_grid(rows[i * n:(i + 1) * n], hex16, name, 0) for i in range(whole)]
    backward = [_grid(rows[rest + i * n:rest + (i + 1) * n], hex16, name, 0) for i in range(whole)]
    fits = [f for f in range(whole + 1)
            if all(isinstance(g, Puzzle) for g in forward[:f] + backward[f:])] or list(range(whole + 1))
    low, high = min(fits), max(fits)
    items: list[Puzzle | PuzzleError] = [
        _grid(rows[i * n:(i + 1) * n], hex16, name, index + i, header if i == 0 else None)
        for i in range(low)]
    bad = rows[low * n:high * n + rest]
    items.append(LayoutError(
        f"{len(bad)} rows (lines {bad[0][0]}-{bad[-1][0]}) where whole grids of {n} rows were "
        f"expected: a row missing or one too many? (put a blank line between puzzles)",
        file=name, line=bad[0][0], index=index + low))
    items += [_grid(rows[rest + i * n:rest + (i + 1) * n], hex16, name, index + low + 1 + i - high)
              for i in range(high, whole)]
    return items


def _grid(rows: list[Row], hex16: bool, name: str, index: int,
          header: tuple[int, str] | None = None) -> Puzzle | PuzzleError:
    """One grid's puzzle, or its located error."""
    try:
        for _line, text in rows:
            if isinstance(text, BadLine):
                raise text.error
        fields = _header_fields(header)
        puzzle = _parse_grid(rows, hex16, Source(name, rows[0][0], index),  # type: ignore[arg-type]  # rows are text here: bad lines raised above
                             fields)
        check_duplicates(puzzle)
        return puzzle
    except Exception as error:  # noqa: BLE001 - whatever fails, it is this grid's error (issue 39)
        located = as_puzzle_error(error)
        return located.located(file=name, line=located.line or rows[0][0], index=index)


def _row_tokens(text: str) -> list[str]:
    """The cells of a grid row: one per token, or one per character in a compact row.

    A row is compact ('6.5..3.4.', '123|456|789') when a token holds a non-digit
    beside other characters, when a token is longer than any cell value (2 digits),
    or when there are fewer tokens than the smallest grid has cells in a row.
    """
    for bar in _BARS:
        text = text.replace(bar, " ")
    tokens = text.split()
    compact = (len(tokens) < MIN_SIZE
               or any(len(t) > 2 or (len(t) > 1 and not t.isdigit()) for t in tokens))
    return list("".join(tokens)) if compact else tokens


def _parse_grid(rows: list[tuple[int, str]], hex16: bool, source: Source,
                fields: Fields | None = None) -> Puzzle:
    fields = fields or Fields()
    n = len(_row_tokens(rows[0][1]))
    hex16 = hex16 and n == 16
    free = "latin" in fields.kinds or fields.regions is not None
    if n == 0:
        raise CellCountError(f"a line of no cells and no grid border: {rows[0][1][:40]!r} (expected a "
                             "puzzle line or a grid row)")
    if not (valid_size(n) or (free and n >= MIN_LATIN)):
        raise SizeError(f"the first row has {n} cells, but {n}x{n} is not a valid grid "
                        "(sizes are box_rows x box_cols with both at least 2, such as 4, 6, 9, 16); "
                        "a Latin square of any side has 'variant=latin' on the line before its grid")
    givens: list[int] = []
    for row, (line, text) in enumerate(rows, start=1):
        tokens = _row_tokens(text)
        if len(tokens) != n:
            raise CellCountError(f"row {row} has {len(tokens)} cells, expected {n}", line=line, row=row)
        try:
            givens += [token_value(t, n, hex16, row, col) for col, t in enumerate(tokens, start=1)]
        except PuzzleError as error:
            raise error.located(file=source.file, line=line) from None
    if len(rows) != n:
        raise CellCountError(f"too few rows: found {len(rows)}, expected {n}")
    return fields.puzzle(fields.geometry_for(n), tuple(givens), source)


def check_duplicates(puzzle: Puzzle) -> None:
    """Raise DuplicateGivenError, at the second cell, for the first group holding a given twice."""
    duplicate = find_duplicate(puzzle.givens, Model.from_puzzle(puzzle).groups)
    if duplicate is None:
        return
    n, name, cell = puzzle.n, duplicate.group.name, duplicate.second
    raise DuplicateGivenError(
        f"duplicate {symbol(duplicate.value)} in {name} at {_pair(name, duplicate.first, cell, n)}",
        row=cell // n + 1, column=cell % n + 1)


def _pair(group_name: str, a: int, b: int, n: int) -> str:
    if group_name.startswith("row"):
        return f"columns {a % n + 1} and {b % n + 1}"
    if group_name.startswith("column"):
        return f"rows {a // n + 1} and {b // n + 1}"
    return f"row {a // n + 1}, column {a % n + 1} and row {b // n + 1}, column {b % n + 1}"


# ---------------------------------------------------------------- writing

def to_line(puzzle: Puzzle, *, hex16: bool = False) -> str:
    """One line: n*n symbols ('.' empty), then variant fields if any (fields.py).

    ``hex16`` writes a 16x16 puzzle in 0-F (value 1 written '0'), as ``read_puzzles(hex16=True)`` reads it.
    """
    if puzzle.n > MAX_SYMBOL_SIZE:
        raise ValueError(f"line format has symbols up to {MAX_SYMBOL_SIZE}x{MAX_SYMBOL_SIZE}; use to_grid")
    if hex16:
        text = "".join(_cell_symbol(v, puzzle.n, hex16) for v in puzzle.givens)
    else:  # symbol(v) for every cell, by table: this runs once per judged run
        text = "".join(map(_LINE_SYMBOLS.__getitem__, puzzle.givens))
    return " ".join([text, *write_fields(puzzle)])


def to_record(puzzle: Puzzle) -> str:
    """The puzzle on one line for a record or a table: its line format up to 35x35; beyond
    the symbols, its cells as integers separated by spaces (0 empty), then its fields."""
    if puzzle.n <= MAX_SYMBOL_SIZE:
        return to_line(puzzle)
    return " ".join([*map(str, puzzle.givens), *write_fields(puzzle)])


def to_grid(puzzle: Puzzle, *, numbers: bool | None = None, hex16: bool = False) -> str:
    """n rows of space-separated cells: symbols, or integers (0 empty) when numbers is true.

    Grids over 35x35 have no symbols left and are always written in numbers. A variant's
    fields (``variant=latin``, cages, ...) go on a line of their own before the rows.
    """
    n = puzzle.n
    numbers = n > MAX_SYMBOL_SIZE or bool(numbers)
    if numbers and hex16:
        raise ValueError("choose numbers or hex16, not both")
    width = len(str(n)) if numbers else 1
    cells = [str(v).rjust(width) if numbers else _cell_symbol(v, n, hex16) for v in puzzle.givens]
    return "\n".join(_header(puzzle) + [" ".join(cells[r * n:(r + 1) * n]) for r in range(n)])


def _header(puzzle: Puzzle) -> list[str]:
    """The line of fields written before a grid: none for a Sudoku."""
    fields = write_fields(puzzle)
    return [" ".join(fields)] if fields else []


_LINE_SYMBOLS = "." + SYMBOLS


def _cell_symbol(value: int, n: int, hex16: bool) -> str:
    if not hex16:
        return symbol(value)
    if n != 16:
        raise ValueError(f"hex16 writes 16x16 puzzles only, not {n}x{n}")
    return HEX_DIGITS[value - 1] if value else "."


def to_pretty(puzzle: Puzzle) -> str:
    """The grid with box borders (a Latin square: its frame only), for people; a variant's
    fields on a line before it, as ``to_grid`` writes them."""
    g = puzzle.geometry
    numbers = g.n > MAX_SYMBOL_SIZE
    width = len(str(g.n)) if numbers else 1
    cells = [(str(v) if numbers and v else symbol(v)).rjust(width) for v in puzzle.givens]
    box_rows = g.n if g.latin else g.box_rows
    border = "+" + "+".join(["-" * ((width + 1) * g.box_cols + 1)] * (g.n // g.box_cols)) + "+"
    out = [*_header(puzzle), border]
    for r in range(g.n):
        row = cells[r * g.n:(r + 1) * g.n]
        boxes = [" ".join(row[c:c + g.box_cols]) for c in range(0, g.n, g.box_cols)]
        out.append("| " + " | ".join(boxes) + " |")
        if (r + 1) % box_rows == 0:
            out.append(border)
    return "\n".join(out)
