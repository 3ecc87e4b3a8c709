"""Every number in a figures table says where it stands (issue 34, item 6).

The pages that quote measurements (``PAGES``: bench/README.md and docs/*.md) mark each table
of figures with a tag on the line just above it, and each row of a targets table with a tag
of its own:

- ``[figures NAME, NAME]`` (or ``[figure NAME]``): the numbers are registered in
  bench/figures.py (each name is a figure shown on that page, re-made by check_figures.py);
- ``[no figures: WHY]``: the numbers are not measurements (weights, option defaults).

A row's own tag stands for that row. A table made by ``python -m tests.docs_tables`` (its
line above is a ``<!-- generated: ... -->`` comment) holds no measurement. Tables inside
fenced code blocks are command transcripts and are not checked. A ``[historical DATE,
SOURCE]`` tag (a dated record, not re-made) was accepted while the figures were being re-run;
none is left, and one is now a problem: a figure is registered or cut. ``problems()`` lists what
is missing or wrong, page and line first, so a new figure cannot slip in unregistered.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.figures import FIGURES

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("bench/README.md", *sorted(f"docs/{page.name}" for page in (ROOT / "docs").glob("*.md")))
"""bench/README.md and every page of the manual (docs/*.md)."""
TAG = re.compile(r"\[(figures?|historical|no figures)\b([^\]]*)\]")
GENERATED = "<!-- generated:"


@dataclass(frozen=True)
class Table:
    """A Markdown table of a page: its header's line number (from 1), the line above it (its
    caption, blank lines skipped) and its body rows with their line numbers."""

    page: str
    line: int
    above: str
    header: str
    rows: tuple[tuple[int, str], ...]

    @property
    def targets(self) -> bool:
        """Whether it is a targets table (its first column is ``target``): each row a target
        with its own standing figure, so each row carries its own tag."""
        return self.header.strip("| ").split("|")[0].strip().lower() == "target"


def tables(page: str, text: str) -> Iterator[Table]:
    """The Markdown tables of a page, outside fenced code blocks."""
    lines = text.splitlines()
    fenced, number = False, 0
    while number < len(lines):
        line = lines[number]
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if fenced or not line.startswith("|"):
            number += 1
            continue
        end = number
        while end < len(lines) and lines[end].startswith("|"):
            end += 1
        above = next((lines[i] for i in range(number - 1, -1, -1) if lines[i].strip()), "")
        body = tuple((i + 1, lines[i]) for i in range(number + 2, end))  # after the |---| line
        yield Table(page, number + 1, above, line, body)
        number = end


def tag_problems(tag: re.Match[str], page: str, registered: dict[str, str]) -> list[str]:
    """What is wrong with one tag (empty when it is well formed and names what exists)."""
    kind, rest = tag.group(1), tag.group(2)
    if kind.startswith("figure"):
        names = [name.strip() for name in rest.split(",") if name.strip()]
        if not names:
            return [f"{tag.group(0)} names no figure"]
        return [f"{tag.group(0)}: no figure {name} is registered on {page} in bench/figures.py"
                for name in names if registered.get(name) != page]
    if kind == "no figures":
        return [] if rest.startswith(":") and rest[1:].strip() else [f"{tag.group(0)} gives no reason"]
    return [f"{tag.group(0)}: a dated record no longer stands for a figure: register it (bench/figures*.py, "
            "with the committed command that makes it) or cut it"]


def table_problems(table: Table, registered: dict[str, str]) -> list[str]:
    """What a table lacks: a tag for every row that holds a number, each tag well formed."""
    where = f"{table.page}:{table.line}"
    if table.above.startswith(GENERATED):
        return []
    above = list(TAG.finditer(table.above))
    problems = [f"{where}: {problem}" for tag in above for problem in tag_problems(tag, table.page, registered)]
    covered = bool(above) and not table.targets
    for number, row in table.rows:
        tags = list(TAG.finditer(row))
        problems += [f"{table.page}:{number}: {problem}"
                     for tag in tags for problem in tag_problems(tag, table.page, registered)]
        if not tags and not covered and re.search(r"\d", row):
            needs = "its own tag (a targets row)" if table.targets else "a tag, or its table one on the line above"
            problems.append(f"{table.page}:{number}: a row with numbers and no [figures ...] "
                            f"or [no figures: ...] tag: it needs {needs}")
    return problems


def problems(pages: Sequence[str] | None = None, root: Path | None = None) -> list[str]:
    """Every untagged number and malformed tag in the figures tables of the pages (``PAGES``
    unless named), read from ``root`` (the checkout unless named)."""
    registered = {figure.name: figure.page for figure in FIGURES}
    base = ROOT if root is None else root
    found = []
    for page in PAGES if pages is None else pages:
        text = (base / page).read_text(encoding="utf-8")
        for table in tables(page, text):
            found += table_problems(table, registered)
    return found
