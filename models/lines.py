"""Lines of an input, read as bytes with a cap and decoded one by one.

Any line end (LF, CRLF, CR) and a UTF-8 byte-order mark are accepted. A line that is
not UTF-8 or is longer than any puzzle line can be becomes a ``BadLine`` holding its
located error, and the lines after it are read as usual; a line is never read
beyond ``MAX_LINE_BYTES`` (the rest of an over-long line is skipped in chunks, and
after ``MAX_SKIP_BYTES`` without a line end the input is given up), so no input,
``/dev/zero`` included, makes the reader hold unbounded data.

>>> import io
>>> [str(x) for x in read_lines(io.BytesIO(b"1.3.\\r\\nab\\xffc\\n# \\xff comment\\n"), "f.txt")]
['1.3.', 'f.txt, line 2: invalid UTF-8 byte 0xff at column 3', '#  comment']
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .errors import EncodingError, LineLengthError, PuzzleError
from .symbols import MAX_SYMBOL_SIZE

MAX_LINE_CHARS = 18 * MAX_SYMBOL_SIZE ** 2 + 512
"""The longest line a puzzle needs (a 35x35 jigsaw killer: its cells, its region map and
every cell named in a cage, up to 7 characters 'R35C35,' and 9 of 'cage=NNN:' each) with
room for a comment; also an f-puzzles document written on one line."""
MAX_LINE_BYTES = 4 * MAX_LINE_CHARS
"""The same in bytes: UTF-8 takes at most 4 bytes a character."""
MAX_SKIP_BYTES = 256 << 20
"""Bytes of one over-long line skipped (read in chunks, never held) before the rest of the
input is given up: a 100 MB line is one located error and the lines after it are read; an
input without line ends (``/dev/zero``) stops here."""
_CHUNK = 1 << 20
_LINE_END = re.compile(rb"\r\n|\r|\n")
_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class _Long:
    """An over-long line: how many bytes were skipped, and whether the input was given up."""

    size: int
    gave_up: bool = False


@dataclass
class BadLine:
    """A line that could not be read; its error is already located."""

    error: PuzzleError

    def __str__(self) -> str:
        return str(self.error)


def read_lines(stream: object, name: str) -> list[str | BadLine]:
    """Every line of a binary or text stream: text, or a BadLine saying what is wrong."""
    return list(iter_lines(stream, name))


def iter_lines(stream: object, name: str) -> Iterator[str | BadLine]:
    """``read_lines`` lazily: each line as soon as it is read (a terminal's end is final)."""
    for number, raw in _raw_lines(byte_reader(stream)):
        if number == 1 and isinstance(raw, bytes):
            raw = raw.removeprefix(_BOM)
        yield _decode(raw, number, name)
        if isinstance(raw, _Long) and raw.gave_up:
            return


def byte_reader(stream: object) -> Callable[[int], bytes]:
    """A function reading up to n bytes of a binary or text stream (b'' at its end)."""
    buffer = getattr(stream, "buffer", None)
    read1: Callable[[int], bytes] | None = getattr(buffer, "read1", None) or getattr(stream, "read1", None)
    if read1 is not None:
        return read1

    def read_text(size: int) -> bytes:
        data = stream.read(size // 4)  # type: ignore[attr-defined]  # any object with read(): a text stream
        return data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data
    return read_text


def _raw_lines(read: Callable[[int], bytes]) -> Iterator[tuple[int, bytes | _Long]]:
    """(line number, its bytes) per line; an over-long line gives (number, bytes skipped)."""
    buffer, position, number, eof, skipped = b"", 0, 0, False, 0
    while True:
        end = _LINE_END.search(buffer, position)
        if end is not None and not (end.group() == b"\r" and end.end() == len(buffer) and not eof):
            number += 1
            line = buffer[position:end.start()]
            yield number, (_Long(skipped + len(line)) if skipped or len(line) > MAX_LINE_BYTES else line)
            position, skipped = end.end(), 0
            continue
        if len(buffer) - position > MAX_LINE_BYTES:
            skipped, buffer, eof = _skip(read, skipped + len(buffer) - position)
            position = 0
            if skipped > MAX_SKIP_BYTES:
                yield number + 1, _Long(skipped, gave_up=True)
                return
            continue
        if eof:
            if position < len(buffer) or skipped:
                line = buffer[position:]
                yield number + 1, (_Long(skipped + len(line)) if skipped or len(line) > MAX_LINE_BYTES
                                   else line)
            return
        chunk = read(65536)
        if not chunk:
            eof = True
        buffer, position = buffer[position:] + chunk, 0


def _skip(read: Callable[[int], bytes], skipped: int) -> tuple[int, bytes, bool]:
    """Skip the rest of an over-long line: (bytes skipped in all, what follows from its line
    end on, whether the input ended); stops past MAX_SKIP_BYTES. Searches each chunk for a
    line end with ``bytes.find`` (memchr), not the regular expression, to skip fast."""
    while skipped <= MAX_SKIP_BYTES:
        chunk = read(_CHUNK)
        if not chunk:
            return skipped, b"", True
        ends = [cut for cut in (chunk.find(b"\n"), chunk.find(b"\r")) if cut >= 0]
        if ends:
            return skipped + min(ends), chunk[min(ends):], False
        skipped += len(chunk)
    return skipped, b"", False


def _decode(raw: bytes | _Long, number: int, name: str) -> str | BadLine:
    if isinstance(raw, _Long):
        what = (f"more than {MAX_SKIP_BYTES:,} bytes without a line end: the rest is not read"
                if raw.gave_up else
                f"line of {raw.size:,} bytes, longer than any puzzle needs (at most {MAX_LINE_BYTES:,})")
        return BadLine(LineLengthError(what, file=name, line=number))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        if raw.lstrip().startswith(b"#"):  # a comment: its bytes never matter
            return raw.decode("utf-8", "replace").replace("\ufffd", "")
        column = len(raw[:error.start].decode("utf-8", "replace")) + 1
        what = f"invalid UTF-8 byte 0x{raw[error.start]:02x} at column {column}"
        return BadLine(EncodingError(what, file=name, line=number, column=column))
