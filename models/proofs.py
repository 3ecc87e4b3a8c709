"""An independent checker of unsatisfiability proofs in DRUP form (reverse unit propagation).

A SAT engine that says "no model" can leave a proof: the clauses (lemmas) it learnt, in
order, with the ones it forgot marked ``d``. Each lemma must follow from the clauses
before it by unit propagation alone: assume every literal of the lemma false, propagate
the unit clauses, and a clause must become false (a conflict). The proof refutes the
formula when the empty clause follows in the same way at the end. Checking that is far
simpler than finding the proof, so this module, which shares no code with any solver
(not even the CNF encoding that built the formula), can vouch for the engine's "unsat",
as ``models.verify`` vouches for a solution.

Proof text: one clause per line, literals as signed integers ending in ``0`` (DIMACS);
``d`` before a clause deletes one copy of it; ``c`` lines and blank lines are ignored.
Deleting a clause that is not there is ignored, and so is deleting a clause that forced
a value at the top level (as drat-trim does: SAT engines delete satisfied clauses, and the
values they forced stay). RAT lemmas (DRAT's extension) are not accepted: a lemma that is
not RUP is a failed check.

>>> formula = [[1, 2, 3], [1, 2, -3], [1, -2, 3], [1, -2, -3], [-1, 2, 3], [-1, 2, -3],
...            [-1, -2, 3], [-1, -2, -3]]
>>> check_rup(formula, ["1 2 0", "1 0", "2 0", "0"]).ok
True
>>> print(check_rup(formula, ["1 2 0", "2 0", "0"]).reason)   # lemma "1 0" left out
lemma 3 (line 3): 0 does not follow by unit propagation
>>> print(check_rup(formula, ["1 0", "2 0", "0"]).reason)   # lemma "1 2 0" made stronger
lemma 1 (line 1): 1 0 does not follow by unit propagation
"""
from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

CHECK_EVERY = 256
"""Lemmas between two looks at the clock (the deadline)."""


class ProofFormatError(ValueError):
    """A proof line that is not a clause: says which line and what was found."""


@dataclass(frozen=True)
class ProofVerdict:
    """``ok`` when every lemma and the final empty clause follow by unit propagation;
    otherwise ``reason`` names the first one that does not (or the deadline passed:
    ``timed_out``). ``lemmas`` counts the lemmas checked."""

    ok: bool
    reason: str
    lemmas: int = 0
    timed_out: bool = False

    def __bool__(self) -> bool:
        return self.ok


def parse_proof(lines: Iterable[str]) -> list[tuple[bool, tuple[int, ...], int]]:
    """Proof lines as (is a deletion, clause, line number); ProofFormatError for a bad line.

    >>> parse_proof(["1 -2 0", "d 1 -2 0", "c note", "0"])
    [(False, (1, -2), 1), (True, (1, -2), 2), (False, (), 4)]
    """
    return list(iter_proof(lines))


def iter_proof(lines: Iterable[str]) -> Iterator[tuple[bool, tuple[int, ...], int]]:
    """``parse_proof`` lazily, one line at a time, so a proof is never held whole."""
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith("c"):
            continue
        deletion = text.startswith("d")
        tokens = text[1:].split() if deletion else text.split()
        try:
            literals = [int(token) for token in tokens]
        except ValueError:
            raise ProofFormatError(f"proof line {number}: {_shown(text)} is not a clause of integers") \
                from None
        if not literals or literals[-1] != 0 or 0 in literals[:-1]:
            raise ProofFormatError(f"proof line {number}: {_shown(text)} must end with one 0")
        yield deletion, tuple(literals[:-1]), number


def _shown(text: str) -> str:
    """A proof line in a message, cut to a readable length."""
    return repr(text if len(text) <= 80 else text[:77] + "...")


class _Database:
    """Clauses under two watched literals, over the assignment that unit propagation of the
    whole database fixes (the top level), kept up to date as clauses come and go."""

    def __init__(self, top: int) -> None:
        self.top = top  # variables 1..top are indexed directly; larger ones are renumbered
        self.fresh: dict[int, int] = {}  # a variable beyond top -> its index past top
        self.clauses: list[list[int]] = []
        self.alive: list[bool] = []
        self.by_key: dict[tuple[int, ...], list[int]] = {}
        self.watches: dict[int, list[int]] = {}
        self.value = [0] * (top + 1)  # var -> 1 true, -1 false, 0 unassigned
        self.trail: list[int] = []  # top-level assignments, in order
        self.reasons: set[int] = set()  # clauses that forced a top-level assignment
        self.refuted = False  # unit propagation alone reached a conflict
        self.kept = 0  # deletions ignored because the clause is a top-level reason

    def dense(self, clause: tuple[int, ...]) -> tuple[int, ...]:
        """The clause with each variable beyond ``top`` renumbered past it, in order of first
        use, so a lemma naming variable 10**12 costs one slot, not 10**12."""
        return tuple(self._index(literal) for literal in clause)

    def _index(self, literal: int) -> int:
        variable = abs(literal)
        if variable <= self.top:
            return literal
        index = self.fresh.get(variable)
        if index is None:
            self.value.append(0)
            index = self.fresh[variable] = len(self.value) - 1
        return index if literal > 0 else -index

    def _true(self, literal: int) -> int:
        return self.value[literal] if literal > 0 else -self.value[-literal]

    def add(self, clause: Sequence[int]) -> None:
        literals = list(dict.fromkeys(clause))
        ident = len(self.clauses)
        self.clauses.append(literals)
        self.alive.append(True)
        self.by_key.setdefault(tuple(sorted(literals)), []).append(ident)
        if self.refuted:
            return
        value, open_literals = self.value, []
        for literal in literals:
            current = value[literal] if literal > 0 else -value[-literal]
            if current > 0:
                return  # satisfied for good: it can never propagate
            if current == 0:
                open_literals.append(literal)
        if not open_literals:
            self.refuted = True
        elif len(open_literals) == 1:
            self.reasons.add(ident)
            self._assign(open_literals[0], self.trail)
            self.refuted = self._propagate_from(len(self.trail) - 1, self.trail, self.reasons)
        else:
            rest = [lit for lit in literals if lit not in open_literals[:2]]
            literals[:] = open_literals[:2] + rest
            self.watches.setdefault(literals[0], []).append(ident)
            self.watches.setdefault(literals[1], []).append(ident)

    def delete(self, clause: Sequence[int]) -> None:
        copies = self.by_key.get(tuple(sorted(set(clause))))
        if not copies:
            return
        if copies[-1] in self.reasons:
            self.kept += 1  # its top-level consequence stays (drat-trim does the same)
            return
        self.alive[copies.pop()] = False  # dropped from its watch lists when next met

    def refutes(self, assumed_false: Sequence[int]) -> bool:
        """Whether unit propagation, with these literals false, reaches a conflict."""
        if self.refuted:
            return True
        value, trail = self.value, list[int]()
        try:
            for literal in assumed_false:
                current = self._true(literal)
                if current > 0:
                    return True
                if current == 0:
                    self._assign(-literal, trail)
            return self._propagate_from(0, trail, None)
        finally:
            for literal in trail:
                value[abs(literal)] = 0

    def _assign(self, literal: int, trail: list[int]) -> None:
        self.value[abs(literal)] = 1 if literal > 0 else -1
        trail.append(literal)

    def _propagate_from(self, head: int, trail: list[int], reasons: set[int] | None) -> bool:
        while head < len(trail):
            if self._propagate(-trail[head], trail, reasons):
                return True
            head += 1
        return False

    def _propagate(self, false: int, trail: list[int], reasons: set[int] | None) -> bool:
        """Visit the clauses watching a literal just made false; True on a conflict."""
        value, clauses, alive, watches = self.value, self.clauses, self.alive, self.watches
        watching = watches.get(false, [])
        kept: list[int] = []
        conflict = False
        for position, ident in enumerate(watching):
            if conflict:
                kept.extend(watching[position:])
                break
            if not alive[ident]:
                continue
            clause = clauses[ident]
            if clause[0] == false:
                clause[0], clause[1] = clause[1], clause[0]
            other = clause[0]
            other_value = value[abs(other)] * (1 if other > 0 else -1)
            if other_value > 0:
                kept.append(ident)
                continue
            for k in range(2, len(clause)):
                literal = clause[k]
                if value[abs(literal)] * (1 if literal > 0 else -1) >= 0:
                    clause[1], clause[k] = literal, false
                    watches.setdefault(literal, []).append(ident)
                    break
            else:
                kept.append(ident)
                if other_value < 0:
                    conflict = True
                else:
                    value[abs(other)] = 1 if other > 0 else -1
                    trail.append(other)
                    if reasons is not None:
                        reasons.add(ident)
        watches[false] = kept
        return conflict


def check_rup(formula: Iterable[Sequence[int]], proof: Iterable[str], *,
              deadline: float | None = None) -> ProofVerdict:
    """Check a DRUP proof that ``formula`` (clauses of nonzero ints) has no model.

    ``deadline`` is a ``time.monotonic()`` value after which the check stops unfinished
    (``timed_out``); the clock is read every CHECK_EVERY steps of any kind (formula clauses
    loaded, proof lines read, deletions, lemmas), so no part of the check outlives it. The
    proof is read one line at a time, and a variable the formula does not have costs one
    slot however large its number. A malformed proof line raises ProofFormatError.
    """
    clauses = [tuple(clause) for clause in formula]
    top = max((abs(lit) for clause in clauses for lit in clause), default=0)
    database, clock = _Database(top), _Clock(deadline)
    for loaded, clause in enumerate(clauses):
        if not loaded % CHECK_EVERY and clock.passed():
            return clock.verdict("while loading the formula", 0)
        database.add(clause)
    lemmas = 0
    top = database.top
    for deletion, clause, line in iter_proof(clock.lines(proof)):
        if clause and (max(clause) > top or -min(clause) > top):
            clause = database.dense(clause)
        if deletion:
            database.delete(clause)
            continue
        lemmas += 1
        if any(-literal in clause for literal in clause):
            database.add(clause)  # a tautology follows from anything
            continue
        if not database.refutes(clause):
            shown = " ".join(map(str, (*clause_named(clause, database), 0)))
            return ProofVerdict(False, f"lemma {lemmas} (line {line}): {shown} does not follow "
                                       "by unit propagation", lemmas)
        if not clause:
            return ProofVerdict(True, f"{lemmas} lemmas checked, the last the empty clause", lemmas)
        database.add(clause)
    if clock.stopped:
        return clock.verdict("reading the proof", lemmas)
    if database.refutes(()):
        return ProofVerdict(True, f"{lemmas} lemmas checked; the empty clause follows by unit "
                                  "propagation", lemmas)
    return ProofVerdict(False, f"after {lemmas} lemmas the empty clause does not follow by unit "
                               "propagation", lemmas)


def clause_named(clause: tuple[int, ...], database: _Database) -> tuple[int, ...]:
    """A clause with renumbered variables given their own numbers back, for a message."""
    if not database.fresh:
        return clause
    named = {index: variable for variable, index in database.fresh.items()}
    return tuple(lit if abs(lit) <= database.top else named[abs(lit)] * (1 if lit > 0 else -1)
                 for lit in clause)


class _Clock:
    """The deadline (None: none), looked at every CHECK_EVERY steps."""

    def __init__(self, deadline: float | None) -> None:
        self.deadline = deadline
        self.stopped = False  # the proof's lines were cut short by the deadline

    def passed(self) -> bool:
        return self.deadline is not None and time.monotonic() > self.deadline

    def lines(self, lines: Iterable[str]) -> Iterator[str]:
        """The proof's lines (comments and deletions too) until the deadline passes."""
        for count, line in enumerate(lines):
            if not count % CHECK_EVERY and self.passed():
                self.stopped = True
                return
            yield line

    def verdict(self, where: str, lemmas: int) -> ProofVerdict:
        return ProofVerdict(False, f"stopped {where} after {lemmas} lemmas: the time for "
                                   "checking ran out", lemmas, timed_out=True)
