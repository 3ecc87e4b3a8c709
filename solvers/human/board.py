"""The pencil-marks board a human solver works on: candidates as bitmasks, and the houses.

A *group* is any set of cells whose digits all differ (the model's groups: rows, columns,
boxes, jigsaw regions, diagonals, cages, anti-knight pairs...). A *house* is a group of
exactly n cells, so every digit must appear in it once: only houses carry hidden singles,
hidden subsets, fish lines and conjugate pairs. Digit d is bit ``1 << (d - 1)``.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from models import Model
from models.cellnames import cell_name
from models.symbols import symbol


class Contradiction(Exception):  # a state of the board, as the readable mrv names it
    """The board cannot be completed: ``reason`` says why in words; ``where`` says it as the
    trace's contradiction fields (rule 'no candidate' with cell, 'no place' with value and
    group, 'no combination' with group and total)."""

    def __init__(self, reason: str, **where: object) -> None:
        super().__init__(reason)
        self.reason = reason
        self.where = where


@dataclass(frozen=True)
class Link:
    """One link of a chain, as a picture draws it: between two nodes (a node is a digit in one
    cell, or in a few cells of one box and line: a grouped node). Strong: at least one of the
    two holds the digit (drawn solid); weak: not both do (dashed)."""

    cells: tuple[int, ...]
    digit: int
    to_cells: tuple[int, ...]
    to_digit: int
    strong: bool


@dataclass(frozen=True)
class Step:
    """One deduction: the technique, the sentence that explains it, and what it does.

    ``placements`` and ``eliminations`` are (cell, digit) pairs; ``group`` names the house
    or group the step is about (empty when it has none); ``weight`` is the step's difficulty
    when it depends on the step (a chain's length; 0: the technique's weight in scale.BASE);
    ``links`` the chain a picture draws (empty for a step without one)."""

    technique: str
    text: str
    placements: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()
    group: str = ""
    weight: float = 0.0
    links: tuple[Link, ...] = ()


class Layout:
    """What does not change while solving one model: groups, houses, lines, peers, names."""

    def __init__(self, model: Model) -> None:
        n = model.n
        self.model = model
        self.n = n
        self.full = (1 << n) - 1
        self.groups: tuple[tuple[str, tuple[int, ...]], ...] = tuple(
            (g.name, g.cells) for g in model.groups)
        self.houses = tuple((name, cells) for name, cells in self.groups if len(cells) == n)
        geometry = model.puzzle.geometry
        self.rows, self.cols = geometry.rows, geometry.cols
        self.lines = frozenset(self.rows) | frozenset(self.cols)
        self.peers: tuple[frozenset[int], ...] = tuple(frozenset(p) for p in model.peers)
        self.cages = model.cages
        self.cage_names = {g.cells: g.name for g in model.groups if g.name.startswith("cage ")}
        self.boxes = tuple(cells for name, cells in self.houses if name.startswith(("box ", "region ")))
        self.single_houses = (tuple(h for h in self.houses if h[1] in self.boxes)
                              + tuple(h for h in self.houses if h[1] not in self.boxes))
        """The houses, boxes and regions first: where SE looks for hidden singles first."""
        self.cell_houses: tuple[tuple[int, ...], ...] = tuple(
            tuple(h for h, (_, cells) in enumerate(self.houses) if cell in cells)
            for cell in range(model.num_cells))
        self.peer_mask: tuple[int, ...] = tuple(sum(1 << p for p in peers) for peers in self.peers)
        names = {name.split()[0] for name, _ in self.groups}
        self.standard = names <= {"row", "column", "box"} and len(self.groups) == len(self.houses)
        """Rows, columns and boxes only (no variant groups, no cages): the pattern BUG+1 assumes."""

    def name(self, cell: int) -> str:
        """'r4c2': the models' cell name, in the lower case the explanations use."""
        return cell_name(cell, self.n).lower()

    def names(self, cells: Iterable[int]) -> str:
        """'r4c2', 'r4c2 and r4c6', 'r1c1, r1c2 and r1c3'."""
        return words([self.name(c) for c in cells])

    @cached_property
    def house_pairs(self) -> tuple[tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]:
        """(house index, group index, shared cells, the house's other cells, the group's other
        cells) for each house and another group sharing 2+ cells with it."""
        pairs = []
        for h, (_, house) in enumerate(self.houses):
            cells = frozenset(house)
            for g, (_, group) in enumerate(self.groups):
                shared = cells.intersection(group)
                if len(shared) >= 2 and shared != frozenset(group):
                    pairs.append((h, g, tuple(sorted(shared)), tuple(c for c in house if c not in shared),
                                  tuple(c for c in group if c not in shared)))
        return tuple(pairs)


@dataclass
class Board:
    """Values (0 empty) and candidate bitmasks (0 for a filled cell) of one moment."""

    layout: Layout
    values: list[int]
    cand: list[int] = field(default_factory=list)

    @staticmethod
    def start(model: Model) -> Board:
        """The givens placed and their digits removed from their peers' candidates."""
        layout = Layout(model)
        board = Board(layout, [0] * model.num_cells, [layout.full] * model.num_cells)
        for cell, value in enumerate(model.givens):
            if value:
                if not board.cand[cell] >> (value - 1) & 1:
                    raise Contradiction(f"the given {value} in {layout.name(cell)} clashes with a "
                                        f"peer", rule="givens clash",
                                        message=f"the givens hold {value} twice near {layout.name(cell)}")
                board.place(cell, value)
        return board

    def copy(self) -> Board:
        return Board(self.layout, self.values[:], self.cand[:])

    def place(self, cell: int, digit: int) -> None:
        """Fill a cell and take its digit out of every peer's candidates."""
        self.values[cell] = digit
        self.cand[cell] = 0
        keep = ~(1 << (digit - 1))
        for peer in self.layout.peers[cell]:
            self.cand[peer] &= keep

    def apply(self, step: Step) -> None:
        for cell, digit in step.eliminations:
            self.cand[cell] &= ~(1 << (digit - 1))
        for cell, digit in step.placements:
            if not self.cand[cell] >> (digit - 1) & 1:
                raise Contradiction(f"{digit} cannot go in {self.layout.name(cell)} any more",
                                    rule="no candidate", cell=cell)
            self.place(cell, digit)

    def solved(self) -> bool:
        return all(self.values)

    def check(self) -> None:
        """Contradiction if an empty cell has no candidate or a house has no place for a digit."""
        layout = self.layout
        cand, values = self.cand, self.values
        for cell, value in enumerate(values):
            if not value and not cand[cell]:
                raise Contradiction(f"{layout.name(cell)} has no candidate left",
                                    rule="no candidate", cell=cell)
        full = layout.full
        for name, cells in layout.houses:
            seen = 0
            for cell in cells:
                seen |= cand[cell] or 1 << (values[cell] - 1)
            if seen != full:
                missing = digits(full & ~seen)[0]
                raise Contradiction(f"{missing} has no place left in {name}",
                                    rule="no place", value=missing, group=name)
        for cage in layout.cages:  # a filled cage must make its total (cages.py checks the rest)
            if cage.total is not None and all(self.values[c] for c in cage.cells):
                total = sum(self.values[c] for c in cage.cells)
                if total != cage.total:
                    name = layout.cage_names.get(cage.cells, "a cage")
                    raise Contradiction(f"the digits of {name} make {total}, not {cage.total}",
                                        rule="no combination", group=name, total=cage.total)

    def places(self, cells: tuple[int, ...], digit: int) -> list[int]:
        """The empty cells among ``cells`` that still have ``digit`` as a candidate."""
        bit = 1 << (digit - 1)
        return [c for c in cells if self.cand[c] & bit]

    def placed(self, cells: tuple[int, ...]) -> int:
        """The bitmask of the digits already filled in among ``cells``."""
        mask = 0
        for c in cells:
            if self.values[c]:
                mask |= 1 << (self.values[c] - 1)
        return mask


@lru_cache(maxsize=1 << 17)
def digits(mask: int) -> tuple[int, ...]:
    """The digits of a bitmask, smallest first: digits(0b101) == (1, 3)."""
    found, d = [], 1
    while mask:
        if mask & 1:
            found.append(d)
        mask >>= 1
        d += 1
    return tuple(found)


def words(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def digit_words(mask: int) -> str:
    """'3', '3 and 7', '1, 4 and 9' (digits above 9 as the models write them)."""
    return words([symbol(d) for d in digits(mask)])
