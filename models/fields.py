"""The variant fields of the line format, also written on the line before a grid.

A line puzzle's cells may be followed by fields (a grid may have them on the line before it):

- ``variant=``  its kinds joined by '-': ``x`` (both diagonals), ``latin`` (rows and
  columns only, any side from 2), rule names (``main-diagonal``, ``anti-diagonal``,
  ``antiknight``, ``antiking``, ``disjoint-groups``); ``jigsaw``, ``killer`` and
  ``extra-regions`` may be named too, and then need their fields below;
- ``regions=`` the jigsaw region map, one region symbol per cell;
- ``extra=R1C1,R2C2,...`` an extra region whose cells must differ (repeatable);
- ``cage=17:R1C1,R1C2`` a killer cage with its total, ``cage=R1C1,R1C2`` one without (repeatable).

>>> fields = Fields.read(["variant=latin-antiknight", "cage=3:R1C1,R1C2"])
>>> puzzle = fields.puzzle(Fields.geometry_for(fields, 3), (0,) * 9)
>>> puzzle.variant, puzzle.cages[0].total, write_fields(puzzle)
('latin-antiknight-killer', 3, ['variant=latin-antiknight', 'cage=3:R1C1,R1C2'])
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .cellnames import cell_name, parse_cell_name
from .errors import ConstraintError, PuzzleError, RegionError, SizeError
from .geometry import MAX_SIZE, MIN_LATIN, Geometry, valid_size
from .puzzle import RULES, Cage, Grid, Puzzle, Source
from .symbols import SYMBOLS, symbol

MAX_TOTAL_DIGITS = 1000
"""The longest cage total read (Python converts numbers of up to about 4,300 digits)."""
_TOTAL = re.compile(f"[0-9]{{1,{MAX_TOTAL_DIGITS}}}")
KINDS = ("jigsaw", "latin", "x", *RULES, "extra-regions", "killer")
"""What ``variant=`` may name, joined by '-'."""


@dataclass
class Fields:
    """The fields of one puzzle, read before its size is known."""

    kinds: set[str] = field(default_factory=set)
    regions: str | None = None
    extra: list[str] = field(default_factory=list)
    cages: list[str] = field(default_factory=list)

    @staticmethod
    def read(items: list[str]) -> Fields:
        """Fields from ``key=value`` tokens; PuzzleError naming a bad or repeated one."""
        fields, seen = Fields(), set()
        for item in items:
            key, equals, value = item.partition("=")
            if not equals or key not in ("variant", "regions", "extra", "cage"):
                raise PuzzleError(f"unknown field {item!r} (expected variant=, regions=, extra= or cage=)")
            if key in seen and key in ("variant", "regions"):
                raise PuzzleError(f"field {key}= given twice")
            seen.add(key)
            if key == "variant":
                fields.kinds = _kinds(value)
            elif key == "regions":
                fields.regions = value
            elif key == "extra":
                fields.extra.append(value)
            else:
                fields.cages.append(value)
        return fields

    def merged(self, other: Fields) -> Fields:
        """These fields (written before a puzzle) with the puzzle's own; a repeat is an error."""
        if (self.kinds and other.kinds) or (self.regions is not None and other.regions is not None):
            raise PuzzleError("variant= or regions= given both before the puzzle and after it")
        return Fields(self.kinds | other.kinds, self.regions if other.regions is None else other.regions,
                      self.extra + other.extra, self.cages + other.cages)

    def geometry_for(self, n: int) -> Geometry:
        """The geometry of side n these fields ask for: a Latin square, or the usual boxes
        (a jigsaw of a side no boxes fit, such as 5, stands on the Latin square)."""
        if n > MAX_SIZE:
            raise SizeError(f"a {n}x{n} grid is larger than the model holds (sides up to "
                            f"{MAX_SIZE}, Latin squares and jigsaws included)")
        if "latin" in self.kinds or (self.regions is not None and not valid_size(n)):
            if n < MIN_LATIN:
                raise SizeError(f"a Latin square needs a side of at least {MIN_LATIN}, not {n}")
            return Geometry.latin_square(n)
        if not valid_size(n):
            raise SizeError(f"{n}x{n} is not a valid Sudoku size (box_rows x box_cols with both at "
                            "least 2, such as 4, 6, 9, 16); a Latin square of any side says variant=latin")
        return Geometry.for_size(n)

    def puzzle(self, geometry: Geometry, givens: Grid, source: Source | None = None) -> Puzzle:
        """The puzzle of these fields on a geometry with its givens."""
        n = geometry.n
        if "jigsaw" in self.kinds and self.regions is None:
            raise RegionError(f"variant=jigsaw needs a region map: regions=<{n * n} region symbols>")
        if "killer" in self.kinds and not self.cages:
            raise ConstraintError("variant=killer needs its cages: cage=<total>:R1C1,R1C2,...")
        if "extra-regions" in self.kinds and not self.extra:
            raise ConstraintError("variant=extra-regions needs them: extra=R1C1,R2C2,...")
        regions = None if self.regions is None else _regions(self.regions, n)
        if not (self.kinds or self.cages or self.extra):  # a plain Sudoku (the usual line)
            return Puzzle(geometry, givens, False, regions, source or Source())
        rules = tuple(k for k in RULES if k in self.kinds)
        return Puzzle(geometry, givens, "x" in self.kinds, regions, source or Source(),
                      tuple(_cage(text, n) for text in self.cages), rules,
                      tuple(_cells(text, n, "extra") for text in self.extra))


def write_fields(puzzle: Puzzle) -> list[str]:
    """The fields that say everything about a puzzle besides its givens (none for a Sudoku)."""
    n = puzzle.n
    kinds = (["latin"] if puzzle.geometry.latin and puzzle.regions is None else []) + \
        (["x"] if puzzle.diagonals else []) + list(puzzle.rules)
    out = [f"variant={'-'.join(kinds)}"] if kinds else []
    if puzzle.regions is not None:
        out.append("regions=" + "".join(symbol(r) for r in puzzle.regions))
    out += ["extra=" + ",".join(cell_name(c, n) for c in cells) for cells in puzzle.extra_regions]
    for cage in puzzle.cages:
        total = "" if cage.total is None else f"{cage.total}:"
        out.append("cage=" + total + ",".join(cell_name(c, n) for c in cage.cells))
    return out


def is_fields_line(text: str) -> bool:
    """Whether a line holds only fields (the line before a grid)."""
    tokens = text.split()
    return bool(tokens) and all("=" in token for token in tokens)


def _kinds(value: str) -> set[str]:
    kinds = value.split("-") if value != "standard" else []
    # 'anti-diagonal', 'main-diagonal', 'disjoint-groups' and 'extra-regions' hold a '-' themselves
    joined: list[str] = []
    for part in kinds:
        if joined and f"{joined[-1]}-{part}" in KINDS:
            joined[-1] = f"{joined[-1]}-{part}"
        else:
            joined.append(part)
    unknown = [k for k in joined if k not in KINDS]
    if unknown or (not joined and value != "standard"):
        raise PuzzleError(f"unknown variant {value!r} (expected 'standard' or kinds joined by '-' "
                          f"from {', '.join(KINDS)})")
    if "jigsaw" in joined and "latin" in joined:
        raise PuzzleError(f"variant {value!r}: a jigsaw's regions replace boxes, so it is not 'latin' too")
    return set(joined)


def _regions(value: str, n: int) -> Grid:
    if len(value) != n * n:
        raise RegionError(f"region map has {len(value)} cells, expected {n * n}")
    for i, ch in enumerate(value):
        if ch not in SYMBOLS[:n]:
            raise RegionError(f"bad region symbol {ch!r} at row {i // n + 1}, column {i % n + 1} "
                              f"(expected 1-{symbol(n)}: every cell names its region)",
                              row=i // n + 1, column=i % n + 1)
    return tuple(SYMBOLS.index(ch) + 1 for ch in value)  # Puzzle checks each region's size


def _cells(text: str, n: int, key: str) -> tuple[int, ...]:
    if not text:
        raise ConstraintError(f"{key}= names no cells (expected R1C1,R1C2,...)")
    return tuple(parse_cell_name(name, n) for name in text.split(","))


def _cage(text: str, n: int) -> Cage:
    total, colon, cells = text.rpartition(":")
    if colon and not _TOTAL.fullmatch(total):
        shown = total if len(total) <= 40 else total[:37] + "..."
        raise ConstraintError(f"cage=: the total {shown!r} is not a whole number (at most "
                              f"{MAX_TOTAL_DIGITS} digits 0-9)")
    return Cage(_cells(cells, n, "cage"), int(total) if colon else None)
