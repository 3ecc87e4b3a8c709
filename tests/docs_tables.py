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

from solvers import registry
from solvers.harness.results.records import field_table

ROOT = Path(__file__).resolve().parent.parent


def backend_table() -> str:
    """The README's short table: each registered backend, its method and notes (the registry
    row's description, the declaration's notes)."""
    rows = [f"| `{b.name}` | {b.description} | {b.declaration.notes or '-'} |" for b in registry.BACKENDS.values()]
    return "\n".join(["| name | method | notes |", "| --- | --- | --- |", *rows])


def counters_table() -> str:
    """docs/backends.md's counters per backend: what its nodes are and the counters it declares."""
    rows = [f"| `{b.name}` | {b.declaration.nodes or '(no nodes)'} | "
            f"{', '.join(f'`{name}`' for name in b.declaration.counters) or '-'} |" for b in registry.BACKENDS.values()]
    return "\n".join(["| backend | what its nodes are | counters |", "| --- | --- | --- |", *rows])


def options_table() -> str:
    """docs/backends.md's options of every backend: name, valid values, default."""
    rows = [f"| `{b.name}` | `{o.name}` | {o.valid()} | `{shown(o.default)}` |"
            for b in registry.BACKENDS.values() for o in b.declaration.options]
    return "\n".join(["| backend | option | values | default |", "| --- | --- | --- | --- |", *rows])


def shown(default: object) -> str:
    """An option's default as the command line writes it."""
    return "none" if default is None else str(default).lower() if isinstance(default, bool) else str(default)


TABLES: dict[str, tuple[str, Callable[[], str]]] = {
    "run-fields": ("docs/experiments.md", field_table),
    "backends": ("README.md", backend_table),
    "backend-counters": ("docs/backends.md", counters_table),
    "backend-options": ("docs/backends.md", options_table),
}
"""Table name -> (its page, relative to the checkout; what makes it)."""


def marks(name: str) -> tuple[str, str]:
    return f"<!-- generated: {name} (python -m tests.docs_tables) -->", f"<!-- end: {name} -->"


def held(text: str, name: str) -> str | None:
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
            if held((root / page).read_text(encoding="utf-8"), name) != make()]


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
