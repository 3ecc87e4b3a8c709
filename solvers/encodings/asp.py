"""A model as an answer set program: what the ``asp`` backend grounds and solves with clingo
and ``export --format asp`` writes, the same program for both.

The puzzle is facts: ``given(R,C,V)`` for each given, ``in(G,R,C)`` for each cell of each
all-different group (rows, columns, boxes, regions, diagonals, extra groups, cages' cells;
rows and columns counted from 1), ``cage(K,T)`` and ``in_cage(K,R,C)`` for each cage total.
The rules are the same for every puzzle: a choice rule gives each cell exactly one digit, a
cardinality constraint forbids a digit twice in a group, and a ``#sum`` aggregate holds each
cage to its total. Each answer set names every cell's digit as ``value(R,C,V)``
(``#show value/3``): ``clingo FILE.lp`` prints one, ``clingo FILE.lp 0`` all of them.

``encoding=extended`` adds what the basic rules imply but do not state: a group of n cells
holds every digit (the hidden-single rule, as the extended CNF encoding adds it).

>>> from models import parse_puzzle, Model
>>> text = program_text(Model.from_puzzle(parse_puzzle("12..34....43..21")))
>>> print(*[line for line in text.splitlines() if line.startswith(("in(1,", "given(1"))], sep="\\n")
given(1,1,1). given(1,2,2). given(2,1,3). given(2,2,4). given(3,3,4). given(3,4,3). given(4,3,2). given(4,4,1).
in(1,1,1). in(1,1,2). in(1,1,3). in(1,1,4).  % row 1
"""
from __future__ import annotations

from collections.abc import Iterable

from models import Model

from .comments import comment_text

ENCODINGS = {
    "basic": "each cell one digit (a choice rule); no digit twice in a group (a cardinality "
             "constraint); cage totals by #sum",
    "extended": "basic, and each group of n cells holds every digit (stated, not only implied)",
}
"""The two rule sets, the default first."""
ATOM = "value"
"""The shown predicate: value(Row, Column, Digit), rows and columns from 1."""

_RULES = f"""\
#defined given/3. #defined cage/2. #defined in_cage/3.
digit(1..n).
cell(R,C) :- digit(R), digit(C).
group(G) :- in(G,_,_).

% each cell holds exactly one digit; a given is that digit
{ATOM}(R,C,V) :- given(R,C,V).
{{ {ATOM}(R,C,V) : digit(V) }} = 1 :- cell(R,C).
% no digit twice in a group
:- group(G), digit(V), 2 {{ {ATOM}(R,C,V) : in(G,R,C) }}.
% each cage's digits add up to its total
:- cage(K,T), #sum {{ V,R,C : in_cage(K,R,C), {ATOM}(R,C,V) }} != T.
"""
_EXTENDED = f"""\
% extended: a group of n cells holds every digit
full(G) :- group(G), #count {{ R,C : in(G,R,C) }} = n.
:- full(G), digit(V), not 1 {{ {ATOM}(R,C,V) : in(G,R,C) }}.
"""


def program_text(model: Model, encoding: str = "basic", *, title: str = "") -> str:
    """The model as a clingo program; ``title`` is a comment line on top (the puzzle's source)."""
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown ASP encoding {encoding!r}; valid: {', '.join(ENCODINGS)}")
    puzzle, n = model.puzzle, model.n
    givens = [(cell, value) for cell, value in enumerate(model.givens) if value]
    return "\n".join([
        "% Sudoku as an answer set program (sudoku-methods, solvers/encodings/asp.py)",
        *([f"% {comment_text(title)}"] if title else []),
        f"% {puzzle.geometry.label()} {puzzle.variant}, {len(model.groups)} all-different groups, "
        f"{len(model.cages)} cage totals, {puzzle.num_givens} givens; encoding {encoding}: "
        f"{ENCODINGS[encoding]}",
        "% solve: clingo THIS.lp   (clingo THIS.lp 0 lists every answer set; value(Row,Column,Digit))",
        "",
        f"#const n = {n}.",
        *_lines((f"given({_place(cell, n)},{value})." for cell, value in givens), 8),
        *(f"{_facts('in', index, group.cells, n)}  % {comment_text(group.name)}"
          for index, group in enumerate(model.groups, start=1)),
        *(f"cage({index},{cage.total}). {_facts('in_cage', index, cage.cells, n)}"
          for index, cage in enumerate(model.cages, start=1)),
        "",
        _RULES + (_EXTENDED if encoding == "extended" else ""),
        f"#show {ATOM}/3.",
    ]) + "\n"


def _place(cell: int, n: int) -> str:
    return f"{cell // n + 1},{cell % n + 1}"


def _facts(name: str, index: int, cells: Iterable[int], n: int) -> str:
    return " ".join(f"{name}({index},{_place(cell, n)})." for cell in cells)


def _lines(facts: Iterable[str], per_line: int) -> list[str]:
    """Facts, per_line of them to a line."""
    every = list(facts)
    return [" ".join(every[i:i + per_line]) for i in range(0, len(every), per_line)]
