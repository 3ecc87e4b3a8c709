"""Levers for the `sat` backend on the Frisch 25x25: CNF variants timed with PicoSAT (pycosat).

    python bench/bench_sat_frisch.py [--puzzles 0,8,9] [--variants simplified,locked,...]
                                     [--time-limit 60] [--set puzzles/25x25_gecode_frisch.txt]

Each variant is a CNF of the same puzzle, equivalent to the `simplified` encoding (the
backend's default) but for the variable numbering, the clause order or redundant clauses.
Each run asks for two solutions, as the backend does with ``limit_by=process``: one
PicoSAT (``pycosat.itersolve``) in a forked process, killed at the limit, so the proof
that there is no second solution uses what was learned finding the first. Prints, per
puzzle and variant, the seconds to the first solution and to the end of the proof
(``t`` = not reached within the limit). The variants alternate puzzle by puzzle. Every
first solution is decoded and checked with models.verify.

Variants:
- ``simplified``: the backend's default CNF (extended reduced by the givens, cell-major).
- ``locked``: + one variable per (intersection of two groups, value), "the value lies in
  the intersection", with the clauses that let unit propagation do locked candidates
  (pointing and claiming).
- ``commander``: the groups' pairwise at-most-one clauses replaced by a two-level
  (commander) at-most-one over those intersection variables.
- ``value-major``, ``reversed``: the same clauses, variables renumbered value by value,
  or in reverse (PicoSAT breaks ties between unscored variables by number).
- ``shuffled-S``: variables and clauses in a random order, seed S.
- ``subsets``: + a unit clause for every candidate that naked and hidden pairs, locked
  candidates and singles remove at the root (computed in Python).
- ``fresh-proof``: the second question asked of a new PicoSAT with the blocking clause
  (what was learned finding the first solution is lost).
"""
from __future__ import annotations

import argparse
import contextlib
import os
import random
import select
import signal
import sys
import time
from collections.abc import Callable
from itertools import combinations

import pycosat
from common import ROOT
from tabulate import tabulate

from models import Model, read_puzzles, verify
from solvers.encodings.cnf import CNF, Clause, encode

Built = tuple[list[Clause], int, Callable[[list[int]], list[int]]]
"""A variant's clauses, its number of variables, and a map of its model back to the
simplified CNF's literals (for decoding)."""


def simplified(model: Model, cnf: CNF) -> Built:
    return list(cnf.clauses), cnf.num_vars, _same


def _same(literals: list[int]) -> list[int]:
    return literals


def _segments(model: Model) -> list[tuple[int, int, tuple[int, ...]]]:
    """(group, other group, shared cells) for every two groups sharing two cells or more."""
    sets = [frozenset(g.cells) for g in model.groups]
    return [(i, j, tuple(sorted(sets[i] & sets[j])))
            for i, j in combinations(range(len(sets)), 2) if len(sets[i] & sets[j]) >= 2]


def _var_of(cnf: CNF) -> Callable[[int, int], int | None]:
    """(cell, value) -> the simplified CNF's variable, or None where the givens removed it."""
    index = {s: k for k, s in enumerate(cnf.numbering.standard) if k}
    n = cnf.n
    return lambda cell, value: index.get(cell * n + value)


def locked(model: Model, cnf: CNF) -> Built:
    """y <-> (value in the shared cells); y or value elsewhere in each group; y excludes the rest."""
    clauses, top, var = list(cnf.clauses), cnf.num_vars, _var_of(cnf)
    groups = [frozenset(g.cells) for g in model.groups]
    for i, j, shared in _segments(model):
        for value in range(1, model.n + 1):
            inside = [x for c in shared if (x := var(c, value))]
            if len(inside) < 2:
                continue
            top += 1
            rest = [[x for c in sorted(groups[g] - set(shared)) if (x := var(c, value))]
                    for g in (i, j)]
            clauses += [[-x, top] for x in inside] + [[-top, *inside]]
            clauses += [[top, *r] for r in rest] + [[-top, -x] for r in rest for x in r]
    return clauses, top, _same


def commander(model: Model, cnf: CNF) -> Built:
    """Each group's at-most-one per value through its segments (cells it shares with the
    lowest-numbered group that shares two or more); everything else as simplified."""
    var, top = _var_of(cnf), cnf.num_vars
    clauses = [c for c in cnf.clauses if not (len(c) == 2 and c[0] < 0)]  # drop binary AMOs
    for row in (c for c in cnf.clauses if c and c[0] > 0 and len({cnf.numbering.cell_value(x)[0]
                                                              for x in c}) == 1):
        clauses += [[-a, -b] for a, b in combinations(row, 2)]        # the cells' own AMO
    segment_var: dict[tuple[tuple[int, ...], int], int] = {}
    for parts in _partitions(model):
        for value in range(1, model.n + 1):
            terms = []
            for part in parts:
                inside = [x for c in part if (x := var(c, value))]
                if len(inside) == 1:
                    terms.append(inside[0])
                elif inside:
                    if (part, value) not in segment_var:
                        top += 1
                        segment_var[part, value] = top
                        clauses += [[-x, top] for x in inside] + [[-top, *inside]]
                        clauses += [[-a, -b] for a, b in combinations(inside, 2)]
                    terms.append(segment_var[part, value])
            clauses += [terms] * bool(terms) + [[-a, -b] for a, b in combinations(terms, 2)]
    return clauses, top, _same


def _partitions(model: Model) -> list[list[tuple[int, ...]]]:
    """For each group, its cells split by the lowest-numbered other group sharing two or more."""
    sets = [frozenset(g.cells) for g in model.groups]
    result = []
    for g, cells in enumerate(sets):
        parts: dict[object, list[int]] = {}
        for c in sorted(cells):
            others = [h for h in model.cell_groups[c] if h != g and len(sets[h] & cells) >= 2]
            parts.setdefault(min(others) if others else ("alone", c), []).append(c)
        result.append([tuple(p) for p in parts.values()])
    return result


def renumbered(key: Callable[[int, int], tuple[int, ...]]) -> Callable[[Model, CNF], Built]:
    """A variant with the simplified clauses, variables renumbered in order of key(cell, value)."""
    def build(model: Model, cnf: CNF) -> Built:
        order = sorted(range(1, cnf.num_vars + 1), key=lambda k: key(*cnf.numbering.cell_value(k)))
        return _permute(cnf.clauses, order)
    return build


def shuffled(seed: int) -> Callable[[Model, CNF], Built]:
    def build(model: Model, cnf: CNF) -> Built:
        rng = random.Random(seed)
        order = list(range(1, cnf.num_vars + 1))
        rng.shuffle(order)
        clauses, top, back = _permute(cnf.clauses, order)
        rng.shuffle(clauses)
        return clauses, top, back
    return build


def _permute(clauses: list[Clause], order: list[int]) -> Built:
    """Old variable order[i] becomes i + 1."""
    new = [0] * (len(order) + 1)
    for position, old in enumerate(order, 1):
        new[old] = position
    mapped = [[new[x] if x > 0 else -new[-x] for x in c] for c in clauses]
    return mapped, len(order), lambda lits: [order[x - 1] if x > 0 else -order[-x - 1] for x in lits]


def subsets(model: Model, cnf: CNF) -> Built:
    """simplified + a negative unit for every candidate the root deductions remove."""
    domains = _root_deductions(model)
    clauses = list(cnf.clauses)
    for k in range(1, cnf.num_vars + 1):
        cell, value = cnf.numbering.cell_value(k)
        if not domains[cell] >> value & 1:
            clauses.append([-k])
    return clauses, cnf.num_vars, _same


def _root_deductions(model: Model) -> list[int]:
    """Candidate bitmasks after naked singles, hidden singles, locked candidates and naked
    and hidden pairs, to a fixed point."""
    n, groups = model.n, [g.cells for g in model.groups]
    full = sum(1 << v for v in range(1, n + 1))
    domains = [1 << v if v else full for v in model.givens]
    for cells in groups:
        held = sum(1 << model.givens[c] for c in cells if model.givens[c])
        for c in cells:
            if not model.givens[c]:
                domains[c] &= ~held
    shared = [(frozenset(model.groups[i].cells), frozenset(model.groups[j].cells), frozenset(s))
              for i, j, s in _segments(model)]
    before = None
    while before != domains:
        before = list(domains)
        for cells in groups:
            _singles_and_pairs(domains, cells, n)
        for a, b, inside in shared:
            for value in range(1, n + 1):
                _locked(domains, a - inside, b - inside, 1 << value)
    return domains


def _singles_and_pairs(domains: list[int], cells: tuple[int, ...], n: int) -> None:
    """Naked singles and pairs remove their values from the group; hidden singles and pairs
    keep only theirs."""
    for c in cells:
        d = domains[c]
        if bin(d).count("1") in (1, 2):
            twins = [o for o in cells if domains[o] == d]
            if len(twins) == bin(d).count("1"):
                for o in cells:
                    if o not in twins:
                        domains[o] &= ~d
    places = {v: [c for c in cells if domains[c] >> v & 1] for v in range(1, n + 1)}
    for v, where in places.items():
        if len(where) == 1:
            domains[where[0]] &= 1 << v
    for v, w in combinations(range(1, n + 1), 2):
        if len(places[v]) == 2 and places[v] == places[w]:
            for c in places[v]:
                domains[c] &= (1 << v) | (1 << w)


def _locked(domains: list[int], a_only: frozenset[int], b_only: frozenset[int], bit: int) -> None:
    """A value missing outside the intersection in one group is missing there in the other."""
    in_a = any(domains[c] & bit for c in a_only)
    in_b = any(domains[c] & bit for c in b_only)
    if in_a != in_b:
        for c in (a_only if in_a else b_only):
            domains[c] &= ~bit


VARIANTS: dict[str, Callable[[Model, CNF], Built]] = {
    "simplified": simplified,
    "locked": locked,
    "commander": commander,
    "value-major": renumbered(lambda cell, value: (value, cell)),
    "reversed": renumbered(lambda cell, value: (-cell, -value)),
    "subsets": subsets,
    "fresh-proof": simplified,
}


def variant(name: str) -> Callable[[Model, CNF], Built]:
    if name.startswith("shuffled-") and name[9:].isdigit():
        return shuffled(int(name[9:]))
    if name not in VARIANTS:
        raise SystemExit(f"unknown variant {name!r}; valid: {', '.join(VARIANTS)}, shuffled-SEED")
    return VARIANTS[name]


def timed_run(clauses: list[Clause], top: int, limit: float, fresh: bool) -> list[tuple[str, float, list[int]]]:
    """('solution', seconds, model) per solution (at most two) and ('end', seconds, []) if
    the solutions ran out, from a forked process killed at the limit."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        _child(write_end, clauses, top, limit, fresh)
    os.close(write_end)
    events, deadline = [], time.perf_counter() + limit
    with os.fdopen(read_end, "r") as pipe:
        while not events or events[-1][0] != "end":
            left = deadline - time.perf_counter()
            if left <= 0 or not select.select([pipe], [], [], left)[0]:
                break
            line = pipe.readline()
            if not line:
                break
            kind, seconds, *model = line.split()
            events.append((kind, float(seconds), [int(x) for x in model]))
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return events


def _child(fd: int, clauses: list[Clause], top: int, limit: float, fresh: bool) -> None:
    """Write each solution and the end, one line each; exit by alarm past the limit."""
    signal.alarm(int(limit) + 2)
    start = time.perf_counter()
    with os.fdopen(fd, "w") as pipe:
        def say(kind: str, model: list[int]) -> None:
            pipe.write(f"{kind} {time.perf_counter() - start} {' '.join(map(str, model))}\n")
            pipe.flush()
        if fresh:
            first = pycosat.solve(clauses, vars=top)
            if isinstance(first, list):
                say("solution", first)
                second = pycosat.solve([*clauses, [-x for x in first if x > 0]], vars=top)
                if isinstance(second, list):
                    say("solution", second)
            say("end", [])
        else:
            for found, model in enumerate(pycosat.itersolve(clauses, vars=top), 1):
                say("solution", model)
                if found == 2:
                    break
            else:
                say("end", [])
    os._exit(0)


def measure(model: Model, name: str, limit: float) -> tuple[str, str, str]:
    """(first solution seconds, proof seconds, verdict) of one variant on one puzzle."""
    cnf = encode(model, "simplified")
    began = time.perf_counter()
    clauses, top, back = variant(name)(model, cnf)
    build = time.perf_counter() - began
    events = timed_run(clauses, top, limit - build, name == "fresh-proof")
    solutions = [e for e in events if e[0] == "solution"]
    for _, _, found in solutions:
        grid = cnf.decode([x for x in back(found) if 0 < x <= cnf.num_vars])
        if not verify(model.puzzle, grid).ok:
            return "wrong", "", "wrong"
    first = f"{build + solutions[0][1]:.1f}" if solutions else "t"
    if len(solutions) > 1:
        return first, "", "several"
    ended = events and events[-1][0] == "end"
    return first, f"{build + events[-1][1]:.1f}" if ended else "t", "unique" if ended else "timeout"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", default=str(ROOT / "puzzles" / "25x25_gecode_frisch.txt"))
    parser.add_argument("--puzzles", default="0,8,9", help="0-based puzzle numbers (default 0,8,9)")
    parser.add_argument("--variants", default=",".join(VARIANTS),
                        help=f"comma-separated (default all: {', '.join(VARIANTS)}); also shuffled-SEED")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per run (default 60)")
    args = parser.parse_args(argv)
    names = args.variants.split(",")
    for name in names:
        variant(name)
    puzzles = list(read_puzzles(args.set).puzzles)
    chosen = [int(i) for i in args.puzzles.split(",")]
    rows = {name: {} for name in names}
    for i in chosen:
        model = Model.from_puzzle(puzzles[i])
        for name in names:
            first, proof, verdict = measure(model, name, args.time_limit)
            rows[name][i] = (first, proof, verdict)
            print(f"  #{i} {name:12} first {first:>5} s  proved {proof or '-':>5} s  {verdict}",
                  file=sys.stderr, flush=True)
    table = [[name] + [f"{rows[name][i][0]} / {rows[name][i][1] or rows[name][i][2]}" for i in chosen]
             + [f"{sum(r[2] == 'unique' for r in rows[name].values())}/{len(chosen)}"] for name in names]
    print(tabulate(table, headers=["variant"] + [f"#{i}" for i in chosen] + ["proved"],
                   tablefmt="github"))
    print(f"\nseconds to the first solution / to the proof of uniqueness (t = not within "
          f"{args.time_limit:g} s), pycosat {pycosat.__version__}, one run at a time")
    return 1 if any(r[2] == "wrong" for row in rows.values() for r in row.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
