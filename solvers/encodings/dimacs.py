"""DIMACS CNF: export a puzzle under any encoding for an external SAT solver, and read its answer back.

An exported file starts with comment lines that name the puzzle (in line format, so
it can be read again), its source, the encoding and the variable numbering; for the
simplified encoding one ``c map VAR ROW COLUMN VALUE`` line per variable gives the
renumbering. Then the ``p cnf VARIABLES CLAUSES`` header and one clause per line.

A solver's answer is read in the SAT-competition form (``s SATISFIABLE`` and ``v``
lines), MiniSat's result-file form (``SAT`` / ``UNSAT`` / ``INDET`` and a line of
literals), or as bare literals.

>>> from models import parse_puzzle
>>> puzzle = parse_puzzle("12..34....43..21")
>>> text = export_dimacs(puzzle, "efficient")
>>> read_dimacs(text).header
(64, 408)
>>> decode_model("s UNSATISFIABLE", puzzle, "efficient") is None
True
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from models import Cage, Geometry, Grid, Model, Puzzle, PuzzleError, as_model, parse_puzzle, to_line
from models.symbols import MAX_SYMBOL_SIZE

from .cnf import CNF, DESCRIPTIONS, ENCODINGS, Clause, EncodingError, Numbering, check_encoding, encode

__all__ = ["Answer", "Dimacs", "DimacsError", "cnf_puzzle", "cnf_text", "decode_model", "decode_with_cnf",
           "export_dimacs", "header_puzzle", "read_answer", "read_dimacs"]

SATISFIABLE, UNSATISFIABLE, UNKNOWN = "SATISFIABLE", "UNSATISFIABLE", "UNKNOWN"
_STATUS_WORDS = {"SATISFIABLE": SATISFIABLE, "SAT": SATISFIABLE,
                 "UNSATISFIABLE": UNSATISFIABLE, "UNSAT": UNSATISFIABLE,
                 "UNKNOWN": UNKNOWN, "INDETERMINATE": UNKNOWN, "INDET": UNKNOWN}


class DimacsError(ValueError):
    """Malformed DIMACS text, or an answer that gives no grid; says which line when it can."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line


@dataclass(frozen=True)
class Dimacs:
    """A parsed DIMACS CNF file: its header, clauses and comment lines (without the 'c ')."""

    num_vars: int
    clauses: list[Clause]
    comments: tuple[str, ...] = ()

    @property
    def header(self) -> tuple[int, int]:
        return self.num_vars, len(self.clauses)

    def field(self, name: str) -> str | None:
        """The value of a 'c name: value' comment line, if there is one."""
        prefix = name + ":"
        for comment in self.comments:
            if comment.startswith(prefix):
                return comment[len(prefix):].strip()
        return None


@dataclass(frozen=True)
class Answer:
    """What a SAT solver said: SATISFIABLE, UNSATISFIABLE or UNKNOWN, and the model's literals."""

    status: str
    literals: tuple[int, ...] = field(default=())


def export_dimacs(puzzle_or_model: Puzzle | Model, encoding: str = ENCODINGS[0]) -> str:
    """The puzzle under the encoding as DIMACS CNF text, with a comment header."""
    model = as_model(puzzle_or_model)
    return cnf_text(model, encode(model, check_encoding(encoding)))


def cnf_text(model: Model, cnf: CNF, extra: Sequence[Clause] = ()) -> str:
    """DIMACS text of a model's CNF, with ``extra`` clauses (such as blocking clauses) at the end."""
    lines = _header_lines(model, cnf, len(extra))
    return "".join(lines) + "".join(map(_clause_line, cnf.clauses)) + "".join(map(_clause_line, extra))


def _header_lines(model: Model, cnf: CNF, extra: int = 0) -> list[str]:
    puzzle, n = model.puzzle, cnf.n
    lines = [
        "c Sudoku as SAT, DIMACS CNF (sudoku-methods, solvers/encodings/dimacs.py)\n",
        *_puzzle_lines(puzzle),
        f"c source: {puzzle.source}\n",
        f"c geometry: {puzzle.geometry.label()}, variant {puzzle.variant}, "
        f"{len(model.groups)} all-different groups, {puzzle.num_givens} givens\n",
        f"c encoding: {cnf.encoding} - {DESCRIPTIONS[cnf.encoding]}\n",
        f"c numbering: {Numbering(n).describe()}\n",
    ]
    if cnf.numbering.renumbered:
        lines.append(f"c renumbered: only the {cnf.numbering.top} variables the givens leave open "
                     "are kept, as 1..V; each line 'c map VAR ROW COLUMN VALUE' names one\n")
        for var in range(1, cnf.numbering.top + 1):
            cell, value = cnf.numbering.cell_value(var)
            lines.append(f"c map {var} {cell // n + 1} {cell % n + 1} {value}\n")
    if cnf.aux_vars:
        lines.append(f"c selectors: variables {cnf.numbering.top + 1}..{cnf.num_vars} choose a "
                     "combination of digits for each killer cage\n")
    if extra:
        lines.append(f"c blocking: the last {extra} clauses rule out grids already found\n")
    lines.append(f"p cnf {cnf.num_vars} {len(cnf.clauses) + extra}\n")
    return lines


def _puzzle_lines(puzzle: Puzzle) -> list[str]:
    """The puzzle in the header: one line-format line up to 35x35; beyond the symbol alphabet,
    its box shape, givens and variant as integers (0 empty), which any size can hold."""
    if puzzle.n <= MAX_SYMBOL_SIZE:
        return [f"c puzzle: {to_line(puzzle)}\n"]
    geometry = puzzle.geometry
    lines = [f"c boxes: {geometry.box_rows}x{geometry.box_cols}\n",
             f"c givens: {' '.join(map(str, puzzle.givens))}\n"]
    if puzzle.diagonals:
        lines.append("c diagonals: yes\n")
    if puzzle.regions:
        lines.append(f"c regions: {' '.join(map(str, puzzle.regions))}\n")
    return lines + _cage_lines(puzzle)


def _cage_lines(puzzle: Puzzle) -> list[str]:
    """One 'c cage: TOTAL r1c1 r1c2 ...' line per killer cage ('-' for a cage without a total),
    for a grid too large for the line format."""
    n = puzzle.n
    return [f"c cage: {'-' if cage.total is None else cage.total} "
            + " ".join(f"r{c // n + 1}c{c % n + 1}" for c in cage.cells) + "\n"
            for cage in puzzle.cages]


def _header_cages(dimacs: Dimacs, n: int) -> tuple[Cage, ...]:
    """The cages of the 'c cage:' comments; DimacsError naming a malformed one."""
    cages = []
    for comment in dimacs.comments:
        if not comment.startswith("cage:"):
            continue
        try:
            total, *cells = comment[len("cage:"):].split()
            places = [_cell(name, n) for name in cells]
            cages.append(Cage(tuple(places), None if total == "-" else int(total)))
        except ValueError:
            raise DimacsError(f"the CNF file's comment 'c {comment}' is not 'c cage: TOTAL r1c1 "
                              f"r1c2 ...' with rows and columns 1..{n}") from None
    return tuple(cages)


def _cell(name: str, n: int) -> int:
    row, _, col = name.removeprefix("r").partition("c")
    r, c = int(row), int(col)
    if not (1 <= r <= n and 1 <= c <= n):
        raise ValueError(name)
    return (r - 1) * n + c - 1


def header_puzzle(dimacs: Dimacs) -> Puzzle:
    """The puzzle an exported file's comments name ('c puzzle:', which carries any cages as
    line-format fields; or 'c boxes:', 'c givens:' and one 'c cage:' per cage)."""
    line = dimacs.field("puzzle")
    if line is not None:
        try:
            return parse_puzzle(line)
        except PuzzleError as error:
            raise DimacsError(f"the CNF file's 'c puzzle:' comment: {error}") from None
    boxes, givens = dimacs.field("boxes"), dimacs.field("givens")
    if boxes is None or givens is None:
        raise DimacsError("the CNF file has no 'c puzzle:' (or 'c boxes:' and 'c givens:') comment "
                          "naming its puzzle")
    try:
        rows, _, cols = boxes.partition("x")
        regions = dimacs.field("regions")
        geometry = Geometry.of(int(rows), int(cols))
        return Puzzle(geometry, tuple(int(v) for v in givens.split()),
                      dimacs.field("diagonals") == "yes",
                      None if regions is None else tuple(int(r) for r in regions.split()),
                      cages=_header_cages(dimacs, geometry.n))
    except ValueError as error:
        raise DimacsError(f"the CNF file's puzzle comments are malformed: {error}") from None


def _clause_line(clause: Clause) -> str:
    return " ".join(map(str, clause)) + " 0\n" if clause else "0\n"


def read_dimacs(text: str) -> Dimacs:
    """Parse DIMACS CNF text; DimacsError (with the line) if the header or a clause is wrong."""
    comments: list[str] = []
    clauses: list[Clause] = []
    header: tuple[int, int] | None = None
    current: Clause = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("c"):
            comments.append(line[1:].strip())
            continue
        if line.startswith("%"):  # the end marker some benchmark files carry
            break
        if line.startswith("p"):
            header = _read_header(line, number, header)
            continue
        if header is None:
            raise DimacsError(f"clause before the 'p cnf' header: {line!r}", number)
        for token in line.split():
            literal = _int(token, number)
            if literal == 0:
                clauses.append(current)
                current = []
            elif abs(literal) > header[0]:
                raise DimacsError(f"literal {literal} outside 1..{header[0]}", number)
            else:
                current.append(literal)
    if header is None:
        raise DimacsError("no 'p cnf VARIABLES CLAUSES' header")
    if current:
        raise DimacsError(f"the last clause is not ended by 0: {current}")
    if len(clauses) != header[1]:
        raise DimacsError(f"the header promises {header[1]} clauses, the file has {len(clauses)}")
    return Dimacs(header[0], clauses, tuple(comments))


def _read_header(line: str, number: int, previous: tuple[int, int] | None) -> tuple[int, int]:
    parts = line.split()
    if previous is not None:
        raise DimacsError("a second 'p' header", number)
    if len(parts) != 4 or parts[:2] != ["p", "cnf"]:
        raise DimacsError(f"expected 'p cnf VARIABLES CLAUSES', found {line!r}", number)
    num_vars, num_clauses = _int(parts[2], number), _int(parts[3], number)
    if num_vars < 0 or num_clauses < 0:
        raise DimacsError(f"negative count in {line!r}", number)
    return num_vars, num_clauses


def _int(token: str, number: int) -> int:
    try:
        return int(token)
    except ValueError:
        raise DimacsError(f"expected an integer, found {token!r}", number) from None


def read_answer(text: str) -> Answer:
    """A SAT solver's output: 's STATUS' and 'v' lines, MiniSat's result file, or bare literals."""
    status: str | None = None
    status_line = model_line = 0
    literals: list[int] = []
    for number, raw in enumerate(text.splitlines(), 1):
        words = raw.split()
        if not words or words[0] == "c":
            continue
        if (words[0] == "s" and len(words) >= 2) or words[0].upper() in _STATUS_WORDS:
            word = " ".join(words[1:] if words[0] == "s" else words).upper()
            if word not in _STATUS_WORDS:
                raise DimacsError(f"unknown solver status {word!r}", number)
            if status is not None and _STATUS_WORDS[word] != status:
                raise DimacsError(f"the solver's status {word} contradicts its status {status} on "
                                  f"line {status_line}", number)
            status, status_line = _STATUS_WORDS[word], number
            continue
        tokens = words[1:] if words[0] == "v" else words
        literals += (_int(token, number) for token in tokens)
        model_line = model_line or number  # even 'v 0': the model of a CNF without variables
    literals = [lit for lit in literals if lit != 0]
    if status is None:
        if not model_line:
            raise DimacsError("no solver status ('s SATISFIABLE', 'SAT', ...) and no model")
        status = SATISFIABLE
    if status == SATISFIABLE and not model_line:
        raise DimacsError("the solver says SATISFIABLE but gives no model ('v' lines)")
    if status == UNSATISFIABLE and model_line:
        raise DimacsError(f"the solver says UNSATISFIABLE (line {status_line}) but gives a model "
                          "('v' lines): a contradiction", model_line)
    return Answer(status, tuple(literals))


def decode_model(text: str, puzzle_or_model: Puzzle | Model, encoding: str = ENCODINGS[0]) -> Grid | None:
    """The grid in a solver's answer to the puzzle's CNF; None if the solver proved it UNSAT.

    The encoding is rebuilt from the puzzle (it is deterministic), which gives the
    renumbering of the simplified encoding. DimacsError if the solver gave up or its
    model does not describe a grid.
    """
    answer = read_answer(text)
    if answer.status == UNSATISFIABLE:
        return None
    if answer.status == UNKNOWN:
        raise DimacsError("the solver gave no answer (UNKNOWN): there is no grid to decode")
    cnf = encode(as_model(puzzle_or_model), check_encoding(encoding))
    try:
        return cnf.decode(lit for lit in answer.literals if lit > 0)
    except EncodingError as error:
        raise DimacsError(str(error)) from None


def decode_with_cnf(answer_text: str, cnf_text: str) -> Grid | None:
    """Decode an answer using only the exported CNF file it answers (puzzle and encoding from its comments)."""
    puzzle, encoding = cnf_puzzle(read_dimacs(cnf_text))
    return decode_model(answer_text, puzzle, encoding)


def cnf_puzzle(dimacs: Dimacs) -> tuple[Puzzle, str]:
    """The puzzle and encoding an exported file names in its comments, checked against its header."""
    encoding = dimacs.field("encoding")
    if encoding is None:
        raise DimacsError("the CNF file has no 'c encoding:' comment to decode with")
    puzzle = header_puzzle(dimacs)
    encoding = encoding.split()[0]
    try:
        num_vars = encode(as_model(puzzle), check_encoding(encoding)).num_vars
    except EncodingError as error:
        raise DimacsError(f"the CNF file's 'c encoding:' comment: {error}") from None
    if num_vars != dimacs.num_vars:
        raise DimacsError(f"the CNF file's header has {dimacs.num_vars} variables; its puzzle under "
                          f"the {encoding} encoding has {num_vars}")
    return puzzle, encoding
