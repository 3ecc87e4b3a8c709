r"""Text from outside (a plugin's message, a file's content, a path) made safe to print.

A terminal obeys the control characters in what it is sent: ESC starts sequences that
clear the screen, recolour it, retitle the window or rewrite earlier lines; a carriage
return or backspace overwrites what a line said; bidirectional overrides reorder it. So
every text that is not the toolkit's own passes through ``printable`` before it is printed:
each such character is written as its escape (``\x1b``, ``\r``, ``\u202e``), visible and
harmless. JSON output needs nothing: ``json.dumps`` escapes them already.

>>> print(printable("bad \x1b[31mRED\x1b[0m\r\x07 and\u202e"))
bad \x1b[31mRED\x1b[0m\r\x07 and\u202e
>>> print(printable("two\nlines\x1b", lines=True))
two
lines\x1b
"""
from __future__ import annotations

_CONTROLS = [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0), 0x061C, 0x200E, 0x200F,
             *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_ESCAPED = {code: (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}") for code in _CONTROLS}
_ESCAPED.update({ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t"})
_LINES = {**_ESCAPED}
del _LINES[ord("\n")], _LINES[ord("\t")]


def printable(text: object, *, lines: bool = False) -> str:
    """``str(text)`` with every control character escaped; ``lines`` keeps newlines and tabs
    (a message of several lines), otherwise the text stays on one line."""
    return str(text).translate(_LINES if lines else _ESCAPED)
