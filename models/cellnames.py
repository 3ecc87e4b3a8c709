"""Cell names as setters write them: R1C1 is row 1, column 1 (1-based; case ignored).

>>> cell_name(10, 9), parse_cell_name("r2c2", 9)
('R2C2', 10)
"""
from __future__ import annotations

import re

from .errors import ConstraintError

_NAME = re.compile(r"[Rr]([0-9]{1,3})[Cc]([0-9]{1,3})")  # ASCII digits only, as setters write them


def cell_name(cell: int, n: int) -> str:
    """'R3C5' for the cell in row 3, column 5."""
    row, col = divmod(cell, n)
    return f"R{row + 1}C{col + 1}"


def parse_cell_name(text: str, n: int) -> int:
    """The cell an R<row>C<column> name denotes; ConstraintError if it is no cell of an n x n grid."""
    match = _NAME.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None:
        raise ConstraintError(f"bad cell name {text!r} (expected R<row>C<column>, such as R1C1)")
    row, col = int(match.group(1)), int(match.group(2))
    if not (1 <= row <= n and 1 <= col <= n):
        raise ConstraintError(f"cell {text!r} is outside the {n}x{n} grid")
    return (row - 1) * n + col - 1
