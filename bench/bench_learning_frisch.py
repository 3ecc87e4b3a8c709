"""fast's clause learning on random isomorphs of the Frisch 25x25, side by side with another tree.

    python bench/bench_learning_frisch.py [--baseline DIR] [--puzzles 0,8,9] [--seeds 0,1,2]
                                          [--cpu-limit 60] [--jobs 1] [--tuning JSON ...]
                                          [--cadical]
    python bench/bench_learning_frisch.py --compile [--baseline DIR]

Each run is ``fast:learning=conflicts`` counting to two on the isomorph ``seed`` of one
puzzle (solvers/encodings/isomorph.py: values relabelled, bands, rows, stacks and columns
shuffled), in a fresh process whose clock is its own CPU time: the search stops at the
first look at the clock past ``--cpu-limit`` seconds of CPU (the kernel is compiled, or
read from numba's cache, on a small 25x25 before the clock starts). A run is *proved*
when the search ended complete within the limit with exactly one solution, checked with
models.verify. Per run: CPU seconds, conflicts, decisions, propagations; per tree: runs
proved, and on the runs both trees proved the sums of conflicts and CPU and the
microseconds of CPU per conflict, and over all its runs (proved or not) the CPU per conflict and
per propagation. Trees alternate run by run (``--baseline DIR``: a copy of
another commit, e.g. ``git archive main | tar -x -C DIR``), so both meet the same load.

``--tuning JSON`` (repeatable) runs this tree once per JSON object of _fast_learning.Tuning
fields, e.g. ``--tuning '{}' --tuning '{"decay": 0.9}'``: a lever compared in one run.

``--cadical`` adds the ``cadical`` program's runs on the same isomorphs (the ``extended``
CNF, as ``python compare.py export --encoding extended`` writes it): one run finds a
solution, a second proves that CNF with that solution blocked unsatisfiable, the same
question as the learning search's proof of uniqueness; its row gives the proof's
conflicts, decisions, propagations and CPU seconds (CaDiCaL's own count, ``-t`` the
limit) and, as ``find``, the first run's conflicts and CPU.

``--compile`` measures the CPU seconds of the first learning solve with an empty numba
cache (import and compile of the learning kernels) for each tree.

Exit status: 1 if any answer was wrong (a second solution or an unverified one), 2 for a
bad option (a --tuning that is not a JSON object of Tuning's fields in range), 3 if a run
failed, else 0.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from common import write_json
from tables import json_path

ROOT = Path(__file__).resolve().parent.parent
Row = dict[str, Any]
"""One run's answer: cpu, solutions, complete, verified, counts, proved, wrong (or error)."""
FRISCH = "puzzles/25x25_gecode_frisch.txt"
WARM = "puzzles/generated_25x25.txt"
CADICAL = "cadical"
"""The tuning slot of the CaDiCaL runs (their tree is this one, for its encoder)."""


def child(tree: str, puzzle: int, seed: int, limit: float, tuning: str) -> None:
    """One run in this process (the tree's own code first on the path); a JSON line out."""
    sys.path.insert(0, tree)
    from models import Model, read_puzzles, verify  # noqa: PLC0415 - the tree's own, after the path
    from solvers.backends import _fast_learning  # noqa: PLC0415 - as above
    from solvers.encodings.isomorph import random_isomorph  # noqa: PLC0415 - as above
    options = {"tuning": _fast_learning.Tuning(**json.loads(tuning))} if tuning else {}
    warm = Model.from_puzzle(read_puzzles(Path(tree, WARM)).puzzles[0])
    _fast_learning.solve(warm, max_solutions=2, **options)  # compile or load, off the clock
    model = Model.from_puzzle(read_puzzles(Path(tree, FRISCH)).puzzles[puzzle])
    isomorph = random_isomorph(model, seed)
    time.perf_counter = time.process_time  # the driver's deadline in CPU seconds
    start = time.process_time()
    result = _fast_learning.solve(isomorph.model, max_solutions=2, time_limit=limit, **options)
    cpu = time.process_time() - start
    good = all(verify(isomorph.model.puzzle, s).ok for s in result.solutions)
    stats = result.stats
    print(json.dumps({"cpu": round(cpu, 2), "solutions": len(result.solutions),
                      "complete": bool(result.complete), "verified": good,
                      "conflicts": stats.conflicts, "decisions": stats.nodes,
                      "propagations": stats.propagations, "restarts": stats.restarts}))


def cadical_child(tree: str, puzzle: int, seed: int, limit: float) -> None:
    """CaDiCaL finds a solution of the isomorph, then proves there is no other; a JSON line out."""
    sys.path.insert(0, tree)
    from models import Model, read_puzzles, verify  # noqa: PLC0415 - the tree's own, after the path
    from solvers.encodings.cnf import encode  # noqa: PLC0415 - as above
    from solvers.encodings.dimacs import cnf_text  # noqa: PLC0415 - as above
    from solvers.encodings.isomorph import random_isomorph  # noqa: PLC0415 - as above
    model = random_isomorph(Model.from_puzzle(read_puzzles(Path(tree, FRISCH)).puzzles[puzzle]),
                            seed).model
    cnf = encode(model, "extended")
    find = _cadical(cnf_text(model, cnf), limit)
    row: Row = {"cpu": find["cpu"], "solutions": 0, "complete": False, "verified": True,
                "conflicts": find["conflicts"], "decisions": find["decisions"],
                "propagations": find["propagations"], "restarts": None}
    if find["literals"]:
        solution = cnf.decode(find["literals"])
        row["verified"] = verify(model.puzzle, solution).ok
        block = [-cnf.numbering.var(c, v) for c, v in enumerate(solution) if not model.givens[c]]
        proof = _cadical(cnf_text(model, cnf, [block]), limit)
        row |= {k: proof[k] for k in ("cpu", "conflicts", "decisions", "propagations")}
        row |= {"solutions": 1, "complete": proof["status"] == "UNSATISFIABLE",
                "find": f"{find['conflicts']} conflicts, {find['cpu']} s"}
    print(json.dumps(row))


def _cadical(text: str, limit: float) -> dict[str, Any]:
    """One run of the cadical program on DIMACS text: status, the model's literals, counts."""
    done = subprocess.run(["cadical", "-t", str(int(limit))], input=text, capture_output=True,
                          text=True, check=False)
    out: dict[str, Any] = {"status": "UNKNOWN", "literals": [], "cpu": 0.0, "conflicts": 0,
                           "decisions": 0, "propagations": 0}
    for line in done.stdout.splitlines():
        words = line.split()
        if line.startswith("s "):
            out["status"] = words[1]
        elif line.startswith("v "):
            out["literals"] += [int(w) for w in words[1:] if w != "0"]
        elif line.startswith("c total process time"):
            out["cpu"] = float(words[-2])
        elif len(words) > 2 and words[1][:-1] in ("conflicts", "decisions", "propagations"):
            out[words[1][:-1]] = int(words[2])
    return out


def run_one(tree: str, puzzle: int, seed: int, limit: float, tuning: str) -> Row:
    """One run in a fresh interpreter, its CPU capped a little above the limit."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (int(limit) + 120, int(limit) + 125))
    kind = "--cadical-child" if tuning == CADICAL else "--child"
    args = [sys.executable, __file__, kind, tree, str(puzzle), str(seed), str(limit), tuning]
    done = subprocess.run(args, capture_output=True, text=True, preexec_fn=cap, check=False,
                          cwd=tree)
    if done.returncode:
        return {"error": (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1][:200]}
    row: Row = json.loads(done.stdout.strip().splitlines()[-1])
    proved = row["complete"] and row["solutions"] == 1 and float(row["cpu"]) <= limit
    row["proved"] = bool(proved)
    row["wrong"] = not row["verified"] or int(row["solutions"]) > 1
    return row


def compile_cpu(tree: str) -> float:
    """CPU seconds of importing and a first learning solve with an empty numba cache."""
    code = ("import sys, time; sys.path.insert(0, sys.argv[1]); t = time.process_time()\n"
            "from models import Model, read_puzzles\n"
            "from solvers.backends import _fast_learning\n"
            f"m = Model.from_puzzle(read_puzzles('{WARM}').puzzles[0])\n"
            "_fast_learning.solve(m, max_solutions=2); print(time.process_time() - t)")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        done = subprocess.run([sys.executable, "-c", code, tree], capture_output=True,
                              text=True, env=env, cwd=tree, check=True)
    return float(done.stdout.split()[-1])


def summary(labels: list[str], rows: dict[tuple[str, int, int], Row],
            runs: list[tuple[int, int]]) -> None:
    """Proved per tree; conflicts, CPU and CPU per conflict over the runs every tree proved;
    CPU per conflict and per propagation over all the tree's runs."""
    both = [r for r in runs if all(rows[(label, *r)].get("proved") for label in labels)]
    print(f"\nproved by every tree: {len(both)} of {len(runs)} runs")
    for label in labels:
        mine = [rows[(label, *r)] for r in runs]
        proved = sum(bool(m.get("proved")) for m in mine)
        conflicts = sum(int(rows[(label, *r)]["conflicts"]) for r in both)
        cpu = sum(float(rows[(label, *r)]["cpu"]) for r in both)
        per = 1e6 * cpu / conflicts if conflicts else 0.0
        print(f"{label}: proved {proved} of {len(runs)}; on the common runs {conflicts:,} "
              f"conflicts, {cpu:.1f} s of CPU, {per:.0f} us a conflict; {rates(mine)}")


def rates(mine: list[Row]) -> str:
    """CPU per conflict and per propagation over all of a tree's runs, proved or not (the
    cost of the search's steps, whatever the search's path)."""
    done = [m for m in mine if m.get("propagations")]
    cpu = sum(float(m["cpu"]) for m in done)
    conflicts = sum(int(m["conflicts"]) for m in done)
    props = sum(int(m["propagations"]) for m in done)
    if not conflicts or not props:
        return "no counts"
    return (f"over all its runs {1e6 * cpu / conflicts:.0f} us a conflict, "
            f"{1e9 * cpu / props:.0f} ns a propagation")


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        tree, puzzle, seed, limit, tuning = sys.argv[2:7]
        child(tree, int(puzzle), int(seed), float(limit), tuning)
        return 0
    if len(sys.argv) > 1 and sys.argv[1] == "--cadical-child":
        tree, puzzle, seed, limit = sys.argv[2:6]
        cadical_child(tree, int(puzzle), int(seed), float(limit))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", help="another tree to run side by side")
    parser.add_argument("--puzzles", default=",".join(map(str, range(18))))
    parser.add_argument("--seeds", default="0,1")
    parser.add_argument("--cpu-limit", type=float, default=60.0)
    parser.add_argument("--tuning", action="append", default=[])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--compile", action="store_true")
    parser.add_argument("--cadical", action="store_true", help="CaDiCaL on the same isomorphs")
    parser.add_argument("--json", type=json_path, metavar="PATH",
                        help="also write every run's row, with provenance")
    args = parser.parse_args()
    for tuning in args.tuning:
        problem = _tuning_problem(tuning)
        if problem:
            parser.error(f"--tuning {tuning}: {problem}")
    trees = [("this", str(ROOT), t) for t in (args.tuning or [""])]
    if args.tuning:
        trees = [(f"this {t}", str(ROOT), t) for t in args.tuning]
    if args.baseline:
        trees.insert(0, ("baseline", str(Path(args.baseline).resolve()), ""))
    if args.cadical:
        if shutil.which("cadical") is None:
            parser.error("--cadical: no cadical program on PATH")
        trees.append(("cadical", str(ROOT), CADICAL))
    started = [round(value, 2) for value in os.getloadavg()]
    print(f"load average before: {started[0]:.1f}")
    if args.compile:
        for label, tree, _ in trees[:len(trees) - args.cadical]:
            print(f"{label}: first learning solve with an empty numba cache {compile_cpu(tree):.1f} s of CPU")
        return 0
    runs = [(int(p), int(s)) for p in args.puzzles.split(",") for s in args.seeds.split(",")]
    tasks = [(label, tree, tuning, p, s) for p, s in runs for label, tree, tuning in trees]
    rows = _run_all(tasks, args.cpu_limit, args.jobs)
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    summary([t[0] for t in trees], rows, runs)
    if args.json:
        write_json(args.json, {"cpu_limit": args.cpu_limit, "trees": [t[0] for t in trees],
                               "runs": [{"tree": label, "puzzle": p, "seed": s, **row}
                                        for (label, p, s), row in rows.items()]}, started)
    if any(r.get("wrong") for r in rows.values()):
        return 1
    return 3 if any("error" in r for r in rows.values()) else 0


def _tuning_problem(text: str) -> str | None:
    """Why a --tuning value cannot be run (not a JSON object of Tuning's fields, or a value
    out of range), or None."""
    sys.path.insert(0, str(ROOT))
    from solvers.backends import _fast_learning  # noqa: PLC0415 - this tree's, after the path
    try:
        fields = json.loads(text)
        if not isinstance(fields, dict) or not set(fields) <= set(_fast_learning.Tuning._fields):
            return f"not a JSON object of the fields {', '.join(_fast_learning.Tuning._fields)}"
        _fast_learning._states(_fast_learning.Tuning(**fields), 9, 729)
    except (ValueError, TypeError) as error:
        return str(error)
    return None


def _run_all(tasks: list[tuple[str, str, str, int, int]], limit: float, jobs: int
             ) -> dict[tuple[str, int, int], Row]:
    rows: dict[tuple[str, int, int], Row] = {}
    with ThreadPoolExecutor(jobs) as pool:
        futures = [pool.submit(run_one, tree, p, s, limit, tuning) for _, tree, tuning, p, s in tasks]
        for (label, _, _, p, s), future in zip(tasks, futures, strict=True):
            row = rows[(label, p, s)] = future.result()
            print(f"#{p} seed {s} {label}: " + ", ".join(f"{k} {v}" for k, v in row.items()),
                  flush=True)
    return rows


if __name__ == "__main__":
    sys.exit(main())
