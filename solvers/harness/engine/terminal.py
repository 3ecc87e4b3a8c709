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

``escaped_stdout`` applies the same to everything a command prints on stdout (the command
line wraps every command in it): a saved run's file name or configuration label shown by
``report`` reaches the terminal escaped, whichever table printed it.
"""
from __future__ import annotations

import contextlib
import re
import sys
import warnings
from collections.abc import Iterator
from typing import Any, TextIO

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


_CONTROL = re.compile("[" + "".join(re.escape(chr(code)) for code in sorted(_LINES)) + "]")


class EscapedStream:
    """A text stream whose writes have their control characters escaped (newlines and tabs
    kept); a write with none, the usual case, is passed on as it is."""

    def __init__(self, stream: TextIO):
        self._stream = stream

    def write(self, text: str) -> int:
        if _CONTROL.search(text):
            text = printable(text, lines=True)
        return self._stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def escaped_stdout() -> Iterator[None]:
    """Within the block, ``sys.stdout`` escapes every control character written to it."""
    original = sys.stdout
    sys.stdout = EscapedStream(original)  # type: ignore[assignment,unused-ignore]  # a stand-in with the writes escaped
    try:
        yield
    finally:
        sys.stdout = original


@contextlib.contextmanager
def escaped_warnings() -> Iterator[None]:
    """Within the block, a warning (a library's, which may quote a label it was given) is
    printed with its control characters escaped."""
    original = warnings.showwarning

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: TextIO | None = None, line: str | None = None) -> None:
        text = warnings.formatwarning(message, category, filename, lineno, line)
        (file or sys.stderr).write(printable(text, lines=True))
    warnings.showwarning = show
    try:
        yield
    finally:
        warnings.showwarning = original
