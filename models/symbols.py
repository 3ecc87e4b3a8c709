"""Cell symbols: values 1-9 then A-Z; '.', '0' or '-' for an empty cell."""
from __future__ import annotations

from functools import cache

from .errors import BadCharacterError, ValueRangeError

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
EMPTY = ".0-"
HEX_DIGITS = "0123456789ABCDEF"
MAX_SYMBOL_SIZE = len(SYMBOLS)


def symbol(value: int) -> str:
    """The character for a value (1 -> '1', 10 -> 'A'); '.' for empty; a value past the
    symbols (36 to 64) is its number."""
    if not value:
        return "."
    return SYMBOLS[value - 1] if 0 < value <= MAX_SYMBOL_SIZE else str(value)


def expected(n: int, hex16: bool = False) -> str:
    """What a cell of an n x n grid may hold, for error messages."""
    if hex16:
        return "0-F (value 1 written 0), or '.' or '-' for empty"
    if n > MAX_SYMBOL_SIZE:
        return f"1-9 then A-Z, or integers up to {n} separated by spaces; '.', '0' or '-' for empty"
    last = SYMBOLS[n - 1]
    return f"1-{last}, or '.', '0' or '-' for empty" if n <= 9 else \
        f"1-9 then A-{last}, or '.', '0' or '-' for empty"


@cache
def line_values(n: int) -> dict[str, int]:
    """Every character char_value takes for an n x n grid (not hex16), and its value: one
    lookup per cell for a line of good symbols (char_value then says where a bad one is)."""
    return {**dict.fromkeys(EMPTY, 0), **{SYMBOLS[v - 1]: v for v in range(1, min(n, MAX_SYMBOL_SIZE) + 1)}}


def char_value(char: str, n: int, hex16: bool, row: int, column: int) -> int:
    """Value of one symbol character at (row, column), 1-based, or a located error."""
    if hex16:
        if char in ".-":
            return 0
        digit = HEX_DIGITS.find(char.upper())
        if digit < 0:
            raise BadCharacterError(f"bad character {char!r} at row {row}, column {column} "
                                    f"(expected {expected(n, True)})", row=row, column=column)
        if digit + 1 > n:
            raise ValueRangeError(f"value {char!r} ({digit + 1}) out of range at row {row}, "
                                  f"column {column} for a {n}x{n} grid", row=row, column=column)
        return digit + 1
    if char in EMPTY:
        return 0
    value = SYMBOLS.find(char) + 1
    if value == 0 or (value > 9 and n <= 9):
        raise BadCharacterError(f"bad character {char!r} at row {row}, column {column} "
                                f"(expected {expected(n)})", row=row, column=column)
    if value > n:
        raise ValueRangeError(f"value {char!r} ({value}) out of range at row {row}, column {column} "
                              f"for a {n}x{n} grid (expected {expected(n)})", row=row, column=column)
    return value


def token_value(token: str, n: int, hex16: bool, row: int, column: int) -> int:
    """Value of a whitespace-separated cell token: a symbol, or an integer such as '12'."""
    if hex16 or not (token.isascii() and token.isdigit()) or len(token) == 1:  # not '²1' nor '١٢'
        if len(token) != 1:
            raise BadCharacterError(f"bad cell {token!r} at row {row}, column {column} "
                                    f"(expected {expected(n, hex16)})", row=row, column=column)
        return char_value(token, n, hex16, row, column)
    value = int(token)
    if value > n:
        raise ValueRangeError(f"value {value} out of range at row {row}, column {column} "
                              f"for a {n}x{n} grid (expected 0 to {n})", row=row, column=column)
    return value
