"""The f-puzzles format, the one variant setters share: read and write.

A document is a JSON object (a ``.json`` file holds one, or one per line, or a JSON list
of them), or the lz-string base64 text after ``?load=`` in an f-puzzles link. Mapped:

- ``size``; ``grid`` rows of cells: ``value`` with ``given: true`` is a given (a value
  without it is a player's entry and is left out), ``region`` (0-based; every cell
  ``null``: a Latin square) a jigsaw region;
- ``killercage`` and ``cage``: ``cells`` (``R1C1``...) and ``value`` the total (none: the
  cells only differ);
- ``diagonal-`` (top left to bottom right) and ``diagonal+`` (bottom left to top right),
  each alone or both (X-Sudoku); ``antiknight``, ``antiking``, ``disjointgroups``;
  ``extraregion``: ``cells`` that must all differ.

Titles, authors, rules text, colours and pencil marks are not constraints and are
skipped. Any other key holding something (a thermometer, an arrow, ``nonconsecutive:
true``, given pencil marks...) is an ``UnsupportedConstraintError`` naming it: a puzzle is
never solved without one of its rules. A malformed document is a ``DocumentError``
naming the key path (``killercage[2].cells[0]``).

>>> doc = {"size": 4, "grid": [[{"value": 1, "given": True}, {}, {}, {}]] + [[{}] * 4] * 3,
...        "killercage": [{"cells": ["R4C3", "R4C4"], "value": "7"}], "diagonal-": True}
>>> puzzle = read_document(doc)
>>> puzzle.variant, puzzle.givens[0], puzzle.cages[0].total
('main-diagonal-killer', 1, 7)
>>> read_document(to_fpuzzles(puzzle)) == puzzle
True
"""
from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Iterator
from typing import Any

from .cellnames import cell_name, parse_cell_name
from .errors import DocumentError, PuzzleError, UnsupportedConstraintError, as_puzzle_error
from .geometry import MAX_SIZE, MIN_LATIN, Geometry, valid_size
from .lz_string import LZStringError, compress_to_base64, decompress_from_base64
from .puzzle import Cage, Puzzle, Source

LINK_MARK = "?load="
LINK_PREFIX = "https://www.f-puzzles.com/" + LINK_MARK
MAX_LINK_CHARS = 1 << 14
"""The longest compressed text decoded: a 16x16 document compresses to a few kilobytes, and
lz-string can expand its input about quadratically (16 KiB at most some tens of megabytes)."""
MAX_TOTAL_DIGITS = 1000
"""The longest cage total read from text (a larger one is still a puzzle without solutions,
but Python will not convert a number of more than about 4,300 digits)."""
MAX_DOCUMENT_CHARS = 1 << 24
"""The longest decompressed document accepted (lz-string can expand its input many times)."""

METADATA = frozenset({"size", "grid", "title", "author", "ruleset", "solution", "highlightConflicts",
                      "disabledlogic", "truecandidatesoptions", "successMessage", "version"})
"""Keys that describe the puzzle or the editor, not a rule of the grid."""
RULE_KEYS = {"diagonal-": "main-diagonal", "diagonal+": "anti-diagonal", "antiknight": "antiknight",
             "antiking": "antiking", "disjointgroups": "disjoint-groups"}
CAGE_KEYS = ("killercage", "cage")
CELL_PLAYER_KEYS = frozenset({"c", "highlight", "centerPencilMarks", "cornerPencilMarks", "candidates"})
"""Cell keys a player or a colourist writes: not part of the puzzle."""
COSMETIC_ITEM_KEYS = frozenset({"outlineC", "fontC", "baseC", "c", "width", "height", "angle"})
SUPPORTED = ("givens, jigsaw regions (or none: a Latin square), killercage/cage, diagonal+/diagonal-, "
             "extraregion, disjointgroups, antiknight, antiking")


def read_document(doc: Any, source: Source | None = None) -> Puzzle:
    """The puzzle of one parsed f-puzzles document; DocumentError or UnsupportedConstraintError
    (each naming the key path) if it is malformed or holds a rule the model cannot."""
    source = source or Source()
    if not isinstance(doc, dict):
        raise DocumentError(f"an f-puzzles document is a JSON object, not {_kind(doc)}")
    for key, value in doc.items():
        if key not in METADATA and key not in RULE_KEYS and key not in CAGE_KEYS \
                and key != "extraregion" and _present(value):
            raise UnsupportedConstraintError(f"{key}: the f-puzzles constraint {key!r} is not supported "
                                             f"(supported: {SUPPORTED})")
    n = _size(doc)
    givens, region_of = _grid(doc, n)
    geometry, regions = _shape(region_of, n)
    rules = tuple(rule for key, rule in RULE_KEYS.items() if _flag(doc, key))
    cages = [(f"{key}[{i}]", cage) for key in CAGE_KEYS for i, cage in enumerate(_cages(doc, key, n))]
    extra = [_cells(item, f"extraregion[{i}]", n) for i, item in enumerate(_items(doc, "extraregion"))]
    try:
        return Puzzle(geometry, givens, regions=regions, source=source,
                      cages=tuple(cage for _, cage in cages), rules=rules, extra_regions=tuple(extra))
    except PuzzleError as error:  # a cage or extra region no grid can meet: name its key
        match = re.match(r"(cage|extra region) (\d+)", error.what)
        if match:
            number = int(match.group(2)) - 1
            key = cages[number][0] if match.group(1) == "cage" else f"extraregion[{number}]"
            error.what = f"{key}: {error.what}"
            error.args = (error._message(),)
        raise


def decode_link(text: str) -> Any:
    """The parsed document of an f-puzzles link (or of its text after '?load=')."""
    packed = text.split(LINK_MARK, 1)[1] if LINK_MARK in text else text
    packed = urllib.parse.unquote(packed.split("&", 1)[0].strip())
    if not packed or len(packed) > MAX_LINK_CHARS:
        raise DocumentError(f"the link's text after {LINK_MARK!r} is empty or longer than "
                            f"{MAX_LINK_CHARS:,} characters")
    try:
        unpacked: str | None = decompress_from_base64(packed, limit=MAX_DOCUMENT_CHARS)
    except LZStringError:
        unpacked = None
    if not unpacked or len(unpacked) > MAX_DOCUMENT_CHARS:
        raise DocumentError(f"the link's text after {LINK_MARK!r} is not lz-string base64 of a document")
    try:
        return json.loads(unpacked)
    except RecursionError:
        raise DocumentError("the link's document is nested deeper than Python's recursion limit") from None
    except json.JSONDecodeError as error:
        raise DocumentError(f"the link's document is not JSON: {error.msg} at character {error.pos}") \
            from None
    except ValueError as error:  # a number of more digits than Python converts
        raise DocumentError(f"the link's document is not JSON this reader takes: {_digits(error)}") from None


def read_link(text: str, source: Source | None = None) -> Puzzle:
    """The puzzle of an f-puzzles link."""
    return read_document(decode_link(text), source)


def iter_documents(text: str, name: str) -> Iterator[Puzzle | PuzzleError]:
    """Each document of a JSON text (one, one per line, or a list of them): its puzzle, or its
    located error; after malformed JSON, reading goes on at the next line starting with '{'."""
    decoder = json.JSONDecoder()
    position, index = 0, 0
    while True:
        position = _skip_space(text, position)
        if position >= len(text):
            return
        line = text.count("\n", 0, position) + 1
        if text[position] not in "{[":  # a link, or something that is no document
            end = text.find("\n", position)
            end = len(text) if end < 0 else end
            yield _link_line(text[position:end].strip(), Source(name, line, index))
            index += 1
            position = end
            continue
        try:
            doc, end = decoder.raw_decode(text, position)
        except RecursionError:
            yield DocumentError("not JSON this reader takes: nested deeper than Python's recursion "
                                "limit", file=name, line=line, index=index)
            return
        except json.JSONDecodeError as error:
            at = f"column {error.colno}" if error.lineno == line else \
                f"line {error.lineno}, column {error.colno}"
            yield DocumentError(f"not JSON: {error.msg} at {at}", file=name, line=line, index=index)
            index += 1
            following = text.find("\n{", error.pos)
            if following < 0:
                return
            position = following + 1
            continue
        except ValueError as error:  # a number of more digits than Python converts (str_digits)
            yield DocumentError(f"not JSON this reader takes: {_digits(error)}", file=name, line=line, index=index)
            index += 1
            following = text.find("\n{", position + 1)
            if following < 0:
                return
            position = following + 1
            continue
        docs = list(enumerate(doc)) if isinstance(doc, list) else [(None, doc)]
        for number, item in docs:
            yield _located(item, Source(name, line, index), "" if number is None else f"[{number}]")
            index += 1
        position = end


def to_fpuzzles(puzzle: Puzzle, *, title: str = "", ruleset: str = "") -> dict[str, Any]:
    """The f-puzzles document of a puzzle (the site draws sizes up to 16)."""
    n = puzzle.n
    grid: list[list[dict[str, Any]]] = []
    for row in range(n):
        cells = []
        for col in range(n):
            cell = row * n + col
            entry: dict[str, Any] = {}
            if puzzle.givens[cell]:
                entry = {"value": puzzle.givens[cell], "given": True}
            if puzzle.regions is not None:
                entry["region"] = puzzle.regions[cell] - 1
            elif puzzle.geometry.latin:
                entry["region"] = None
            cells.append(entry)
        grid.append(cells)
    doc: dict[str, Any] = {"size": n, "title": title, "author": "", "ruleset": ruleset, "grid": grid}
    rules = set(puzzle.rules) | ({"main-diagonal", "anti-diagonal"} if puzzle.diagonals else set())
    for key, rule in RULE_KEYS.items():
        if rule in rules:
            doc[key] = True
    if puzzle.cages:
        doc["killercage"] = [{"cells": [cell_name(c, n) for c in cage.cells],
                              **({} if cage.total is None else {"value": str(cage.total)})}
                             for cage in puzzle.cages]
    if puzzle.extra_regions:
        doc["extraregion"] = [{"cells": [cell_name(c, n) for c in cells]} for cells in puzzle.extra_regions]
    return doc


def to_fpuzzles_json(puzzle: Puzzle, *, title: str = "", ruleset: str = "") -> str:
    """The document as JSON on one line (a file of them holds one puzzle per line)."""
    return json.dumps(to_fpuzzles(puzzle, title=title, ruleset=ruleset), separators=(",", ":"))


def to_fpuzzles_link(puzzle: Puzzle) -> str:
    """An f-puzzles link that opens the puzzle."""
    return LINK_PREFIX + compress_to_base64(to_fpuzzles_json(puzzle))


# ---------------------------------------------------------------- reading the parts

def _located(doc: Any, source: Source, prefix: str) -> Puzzle | PuzzleError:
    try:
        return read_document(doc, source)
    except Exception as caught:  # noqa: BLE001 - whatever fails, it is this document's error (issue 39)
        error = as_puzzle_error(caught)
        if prefix:
            error.what = f"document {prefix}: {error.what}"
        return error.located(file=source.file, line=source.line, index=source.index)


def _link_line(text: str, source: Source) -> Puzzle | PuzzleError:
    try:
        if LINK_MARK not in text:
            raise DocumentError(f"expected an f-puzzles document ('{{...}}') or link ('{LINK_MARK}...'), "
                                f"found {text[:40]!r}")
        return read_link(text, source)
    except Exception as caught:  # noqa: BLE001 - whatever fails, it is this link's error (issue 39)
        return as_puzzle_error(caught).located(file=source.file, line=source.line, index=source.index)


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t\r\n\ufeff":
        position += 1
    return position


def _present(value: Any) -> bool:
    """Whether a key holds something: not false, null, empty or zero."""
    return bool(value)


_TOTAL = re.compile(f"[0-9]{{1,{MAX_TOTAL_DIGITS}}}")


def _digits(error: ValueError) -> str:
    """What a ValueError from the JSON decoder means (a number too long to convert)."""
    return "a number has more digits than Python converts" if "digits" in str(error) else str(error)


def _shown(value: Any) -> str:
    """A value as an error message quotes it: its repr, cut to 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _kind(value: Any) -> str:
    """What a JSON value is, in words ("an empty list" where emptiness is what is wrong)."""
    kind = {dict: "an object", list: "a list", str: "a string", bool: "true/false",
            type(None): "null"}.get(type(value), "a number")
    if isinstance(value, (dict, list, str)) and not value:
        return kind.replace("a ", "an empty ", 1).replace("an object", "an empty object")
    return kind


def _size(doc: dict[str, Any]) -> int:
    size = doc.get("size")
    if not isinstance(size, int) or isinstance(size, bool):
        raise DocumentError(f"size: expected a whole number, found {_kind(size) if 'size' in doc else 'nothing'}")
    if not MIN_LATIN <= size <= MAX_SIZE:
        raise DocumentError(f"size: {size} is outside {MIN_LATIN}-{MAX_SIZE}")
    return size


def _flag(doc: dict[str, Any], key: str) -> bool:
    value = doc.get(key, False)
    if value is None or isinstance(value, bool):
        return bool(value)
    raise DocumentError(f"{key}: expected true or false, found {_kind(value)}")


def _grid(doc: dict[str, Any], n: int) -> tuple[tuple[int, ...], list[int | None]]:
    """The givens, and each cell's region number (None: in no region)."""
    grid = doc.get("grid")
    if not isinstance(grid, list) or len(grid) != n:
        found = f"{len(grid)} rows" if isinstance(grid, list) else _kind(grid) if "grid" in doc else "nothing"
        raise DocumentError(f"grid: expected {n} rows of {n} cells, found {found}")
    default = _default_regions(n)
    givens: list[int] = []
    regions: list[int | None] = []
    for r, row in enumerate(grid):
        if not isinstance(row, list) or len(row) != n:
            found = f"{len(row)} cells" if isinstance(row, list) else _kind(row)
            raise DocumentError(f"grid[{r}]: expected {n} cells, found {found}")
        for c, cell in enumerate(row):
            where = f"grid[{r}][{c}]"
            if cell is None:
                cell = {}
            if not isinstance(cell, dict):
                raise DocumentError(f"{where}: expected an object, found {_kind(cell)}")
            givens.append(_given(cell, where, n))
            regions.append(_region(cell, where, n, default[r * n + c]))
    return tuple(givens), regions


def _given(cell: dict[str, Any], where: str, n: int) -> int:
    for key, value in cell.items():
        if key not in ("value", "given", "region") and key not in CELL_PLAYER_KEYS and _present(value):
            what = ("given pencil marks (the cell may hold only these)" if key == "givenPencilMarks"
                    else f"the cell key {key!r}")
            raise UnsupportedConstraintError(f"{where}.{key}: {what} is not supported "
                                             f"(supported: {SUPPORTED})")
    given = cell.get("given", False)
    if not isinstance(given, bool):
        raise DocumentError(f"{where}.given: expected true or false, found {_kind(given)}")
    value = cell.get("value")
    if not given:
        return 0  # no value, or a player's entry: not part of the puzzle
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= n:
        raise DocumentError(f"{where}.value: a given is a whole number 1-{n}, found {value!r}")
    return value


def _region(cell: dict[str, Any], where: str, n: int, default: int) -> int | None:
    if "region" not in cell:
        return default
    region = cell["region"]
    if region is None:
        return None
    if not isinstance(region, int) or isinstance(region, bool) or not 0 <= region < n:
        raise DocumentError(f"{where}.region: expected a region number 0-{n - 1} or null, found {region!r}")
    return region


def _default_regions(n: int) -> list[int]:
    """f-puzzles' regions when a cell names none: the usual boxes, or the rows where no
    boxes fit (a side such as 5 or 7)."""
    if valid_size(n):
        geometry = Geometry.for_size(n)
        return [geometry.box_of(cell) for cell in range(geometry.cells)]
    return [cell // n for cell in range(n * n)]


def _shape(region_of: list[int | None], n: int) -> tuple[Geometry, tuple[int, ...] | None]:
    """The geometry and jigsaw map the cells' regions make: boxes, a Latin square (no
    regions, or the rows as regions), or a jigsaw."""
    if all(region is None for region in region_of):
        return Geometry.latin_square(n), None
    if any(region is None for region in region_of):
        cell = region_of.index(None)
        raise DocumentError(f"grid[{cell // n}][{cell % n}].region: null leaves the cell outside every "
                            "region, which only a grid with no regions at all (a Latin square) may do")
    numbering: dict[int | None, int] = {}
    canonical = tuple(numbering.setdefault(region, len(numbering) + 1) for region in region_of)
    rows = tuple(cell // n + 1 for cell in range(n * n))
    if canonical == rows:
        return Geometry.latin_square(n), None
    jigsaw = tuple(region + 1 for region in region_of if region is not None)  # f-puzzles' numbers
    if valid_size(n):
        boxes = Geometry.for_size(n)
        numbering = {}
        if canonical == tuple(numbering.setdefault(boxes.box_of(c), len(numbering) + 1)
                              for c in range(n * n)):
            return boxes, None
        return boxes, jigsaw
    return Geometry.latin_square(n), jigsaw


def _items(doc: dict[str, Any], key: str) -> list[dict[str, Any]]:
    items = doc.get(key)
    if not _present(items):
        return []
    if not isinstance(items, list):
        raise DocumentError(f"{key}: expected a list, found {_kind(items)}")
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise DocumentError(f"{key}[{i}]: expected an object, found {_kind(item)}")
        extra = [k for k in item if k not in ("cells", "value") and k not in COSMETIC_ITEM_KEYS]
        if extra:
            raise UnsupportedConstraintError(f"{key}[{i}].{extra[0]}: the key {extra[0]!r} is not "
                                             f"supported (supported: {SUPPORTED})")
    return items


def _cells(item: dict[str, Any], where: str, n: int) -> tuple[int, ...]:
    cells = item.get("cells")
    if not isinstance(cells, list) or not cells:
        raise DocumentError(f"{where}.cells: expected a list of cell names such as 'R1C1', "
                            f"found {_kind(cells) if 'cells' in item else 'nothing'}")
    out = []
    for i, name in enumerate(cells):
        try:
            out.append(parse_cell_name(name, n))
        except PuzzleError as error:
            raise DocumentError(f"{where}.cells[{i}]: {error.what}") from None
    return tuple(out)


def _cages(doc: dict[str, Any], key: str, n: int) -> Iterator[Cage]:
    for i, item in enumerate(_items(doc, key)):
        where = f"{key}[{i}]"
        cells = _cells(item, where, n)
        value = item.get("value")
        if value is None or value == "":
            yield Cage(cells)
        elif isinstance(value, int) and not isinstance(value, bool):
            yield Cage(cells, value)
        elif isinstance(value, str) and _TOTAL.fullmatch(value.strip()):
            yield Cage(cells, int(value))
        else:
            raise DocumentError(f"{where}.value: a cage total is a whole number, found {_shown(value)} "
                                f"(digits 0-9, at most {MAX_TOTAL_DIGITS})")
