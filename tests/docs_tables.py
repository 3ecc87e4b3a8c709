"""The docs' generated tables: each is made from a definition in the toolkit and kept in its
page between two marks, so the page shows it as a plain Markdown table:

    <!-- generated: NAME (python -m tests.docs_tables) -->
    | ... |
    <!-- end: NAME -->

``python -m tests.docs_tables`` (from the checkout) writes every table into its page, and
``--check`` says which pages are behind their definitions; tests/test_docs.py checks that
every page holds what its definition gives now.
"""
from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from solvers.harness.results.records import field_table

ROOT = Path(__file__).resolve().parent.parent
TABLES: dict[str, tuple[str, Callable[[], str]]] = {
    "run-fields": ("docs/experiments.md", field_table),
}
"""Table name -> (its page, relative to the checkout; what makes it)."""


def marks(name: str) -> tuple[str, str]:
    return f"<!-- generated: {name} (python -m tests.docs_tables) -->", f"<!-- end: {name} -->"


def shown(text: str, name: str) -> str | None:
    """The table a page holds between the marks of ``name`` (None if it has no such marks)."""
    start, end = marks(name)
    if start not in text or end not in text:
        return None
    return text.split(start, 1)[1].split(end, 1)[0].strip("\n")


def written(text: str, name: str, table: str) -> str:
    """The page with the table between the marks of ``name`` replaced by ``table``."""
    start, end = marks(name)
    head, rest = text.split(start, 1)
    return f"{head}{start}\n{table}\n{end}{rest.split(end, 1)[1]}"


def stale(root: Path = ROOT) -> list[str]:
    """The tables whose page does not hold what their definition gives now."""
    return [name for name, (page, make) in TABLES.items()
            if shown((root / page).read_text(encoding="utf-8"), name) != make()]


def main(argv: list[str]) -> int:
    if argv == ["--check"]:
        behind = stale()
        for name in behind:
            print(f"{TABLES[name][0]}: the table {name!r} is behind its definition "
                  "(python -m tests.docs_tables writes it)")
        return 1 if behind else 0
    for name, (page, make) in TABLES.items():
        path = ROOT / page
        path.write_text(written(path.read_text(encoding="utf-8"), name, make()), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
