"""Errors for bad puzzle input; each says where (file, line, row, column) and what."""
from __future__ import annotations


class PuzzleError(ValueError):
    """A puzzle that cannot be read or cannot be right, with its location.

    ``str(error)`` reads like ``puzzles/x.txt, line 4: bad character 'x' at row 1, column 2 ...``.
    """

    kind = "bad puzzle"

    def __init_subclass__(cls, kind: str = "", **rest: object) -> None:
        """A subclass names its kind of failure: ``class SizeError(PuzzleError, kind="invalid size")``."""
        super().__init_subclass__(**rest)
        if kind:
            cls.kind = kind

    def __init__(self, what: str, *, file: str = "<string>", line: int = 0,
                 row: int | None = None, column: int | None = None, index: int | None = None):
        self.what = what
        self.file = file
        self.line = line
        self.row = row
        self.column = column
        self.index = index
        super().__init__(self._message())

    def located(self, *, file: str, line: int, index: int | None = None) -> PuzzleError:
        """The same error placed in a file; returns self for chaining."""
        self.file, self.line = file, line
        if index is not None:
            self.index = index
        self.args = (self._message(),)
        return self

    def _message(self) -> str:
        where = f"{self.file}, line {self.line}" if self.line else self.file
        return f"{where}: {self.what}"


class BadCharacterError(PuzzleError, kind="bad character"):
    """A character or token that is no cell symbol, nor an empty cell."""


class ValueRangeError(PuzzleError, kind="value out of range"):
    """A symbol for a value larger than the grid's size."""


class CellCountError(PuzzleError, kind="wrong number of cells"):
    """A row, a line or a whole grid with the wrong number of cells."""


class SizeError(PuzzleError, kind="invalid size"):
    """A number of cells that makes no valid grid (the side must be box_rows x box_cols)."""


class DuplicateGivenError(PuzzleError, kind="duplicate given"):
    """A value given twice in one group (located at the second cell)."""


class RegionError(PuzzleError, kind="bad region map"):
    """A jigsaw region map that is missing, of the wrong size, or with a bad region."""


class EncodingError(PuzzleError, kind="invalid UTF-8"):
    """A line holding bytes that are not UTF-8."""


class LineLengthError(PuzzleError, kind="line too long"):
    """A line longer than any puzzle needs (or an input without line ends)."""


class LayoutError(PuzzleError, kind="grid layout"):
    """Rows of grids that do not divide into whole grids (a row missing or extra)."""


class ConstraintError(PuzzleError, kind="bad constraint"):
    """A cage, extra region or rule that no grid could meet or that names no cells of the grid."""


class UnsupportedConstraintError(PuzzleError, kind="unsupported constraint"):
    """A constraint of a variant format (an f-puzzles thermometer, arrow, ...) the model cannot hold."""


class DocumentError(PuzzleError, kind="bad document"):
    """A structured document (f-puzzles JSON or link) that is malformed: says the key path and what."""


class UnreadablePuzzleError(PuzzleError, kind="unreadable puzzle"):
    """A puzzle whose reading failed in a way no other kind names (the reader's last net)."""


MAX_REASON_CHARS = 300
"""The longest text of a foreign exception kept in an UnreadablePuzzleError."""


def as_puzzle_error(error: Exception) -> PuzzleError:
    """Any exception raised while reading one puzzle, as that puzzle's PuzzleError: a
    PuzzleError as it is, anything else (a geometry the model refuses, a MemoryError, a
    RecursionError, a bug of the reader) named with its type, so one puzzle never ends a batch."""
    if isinstance(error, PuzzleError):
        return error
    text = str(error)
    if len(text) > MAX_REASON_CHARS:
        text = text[:MAX_REASON_CHARS - 3] + "..."
    return UnreadablePuzzleError(f"cannot be read: {type(error).__name__}: {text}" if text
                                 else f"cannot be read: {type(error).__name__}")
