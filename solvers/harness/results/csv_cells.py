"""CSV for spreadsheets: a text cell that a spreadsheet would run as a formula is neutralised.

A spreadsheet opening a CSV runs any cell that begins with ``=``, ``+``, ``-`` or ``@`` as a
formula (and a leading tab or carriage return can hide one), so a file name or configuration
label such as ``=HYPERLINK(...)`` or ``@SUM(...)`` would run on the reader's machine. The
standard neutralisation (OWASP's) is a leading apostrophe, which spreadsheets show as text
and do not display. Numbers stay numbers: only text cells are touched, and a text that is a
plain number (``-3``, ``+1.5e3``) is no formula and is left alone.

>>> [cell(v) for v in ("=1+1", "@SUM(A1)", "-2+3", "-3", "+1.5e3", "mrv", "\\tx", -4.5, None)]
["'=1+1", "'@SUM(A1)", "'-2+3", '-3', '+1.5e3', 'mrv', "'\\tx", -4.5, None]
"""
from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any, TextIO

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def cell(value: Any) -> Any:
    """The value as a CSV cell: a text a spreadsheet would run as a formula gets a leading
    apostrophe; anything else is unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


class Writer:
    """``csv.writer`` with every cell neutralised (lines end with a newline)."""

    def __init__(self, out: TextIO):
        self._writer = csv.writer(out, lineterminator="\n")

    def writerow(self, row: Iterable[Any]) -> None:
        self._writer.writerow([cell(value) for value in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def writer(out: TextIO) -> Writer:
    """A CSV writer whose cells never run as formulas."""
    return Writer(out)
