"""Errors for bad puzzle input; each says where (file, line, row, column) and what."""
from __future__ import annotations


class PuzzleError(ValueError):
    """A puzzle that cannot be read or cannot be right, with its location.

    ``str(error)`` reads like ``puzzles/x.txt, line 4: bad character 'x' at row 1, column 2 ...``.
    """

    kind = "bad puzzle"

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


class BadCharacterError(PuzzleError):
    kind = "bad character"


class ValueRangeError(PuzzleError):
    kind = "value out of range"


class CellCountError(PuzzleError):
    kind = "wrong number of cells"


class SizeError(PuzzleError):
    kind = "invalid size"


class DuplicateGivenError(PuzzleError):
    kind = "duplicate given"


class RegionError(PuzzleError):
    kind = "bad region map"
