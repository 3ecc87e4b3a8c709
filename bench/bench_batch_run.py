"""run --batch against run: puzzles a second through the whole harness, on the 17-clue set.

    python bench/bench_batch_run.py [--set puzzles/17_clue.txt] [--rounds 3] [--plain 1000]
                                    [--cli 5] [--against DIR]

Part 1, in this process, best of --rounds: each stage of ``run --batch`` timed apart by the
wall clock and by this process's CPU time (one core: the batch runs in one thread):
reading the file into arrays, fast's batch entry (counting each puzzle to two, the per-run
time limit 10 s), checking every solution (models.verify_many), judging the runs as columns,
and the summary table; puzzles a second from reading to the records (the target: 100,000),
and with the summary.

Part 2, the command line: ``compare.py run FILE --solvers fast --batch --unique`` --cli times
(counting each puzzle to two, as the target asks; the batch leaves the uniqueness claims
unchecked, so it exits 1), each one's wall time end to end (interpreter, numba, loading the
kernels included) and the stage line it prints on stderr; the median pass by CPU time counts
(the best is printed too). With --against DIR (another checkout, e.g. main unpacked by
``git archive main | tar -x -C DIR``), DIR's compare.py runs the same command in turn with
this tree's, pass for pass, so both see the same load: each one's median, best and the
median CPU of each stage.

Part 3, the same puzzles' first --plain through the ordinary path, ``compare.py run --solvers
fast --unique --json`` (a worker per core, every run judged one by one), for the per-run
cost of the harness without --batch: runs a second end to end, and the harness's own cost
per run, (wall x workers - the runs' own seconds) / runs.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from common import ROOT, write_json
from tables import json_path

from models.puzzle_arrays import PuzzleArray, read_arrays
from solvers.harness.engine.batch import load_batch, run_batch, verify
from solvers.harness.engine.runner import default_jobs
from solvers.harness.results.batch_runs import judge_batch, summary_rows
from solvers.harness.results.provenance import load_average
from solvers.harness.tasks import Configuration

FAST = Configuration("fast", backend="fast")


def stages(path: Path, rounds: int) -> dict[str, tuple[float, float]]:
    """Each stage's best wall and CPU seconds over the rounds."""
    best: dict[str, tuple[float, float]] = {}
    load_batch(FAST)
    for _ in range(rounds):
        clock = Clock(best)
        arrays, _ = clock.timed("reading", read_arrays, path)
        answers = clock.timed("solving", lambda: [run_batch(FAST, a, max_solutions=2, time_limit=10.0)
                                                  for a in arrays])  # noqa: B023 - called at once
        clock.timed("checking", lambda: [verify(a) for a in answers])  # noqa: B023 - called at once
        judged = clock.timed("judging", lambda: [j for a in answers  # noqa: B023 - called at once
                                                 for j in judge_batch([a], 2)])
        clock.timed("summary", summary_rows, judged, unique=True, limit=10.0, par=2.0)
        if not all(a.verified.all() and (a.counts == 1).all() for a in answers):
            raise SystemExit(f"{path.name}: not every puzzle proved unique with a verified solution")
    return best


class Clock:
    """Times a call by the wall clock and this process's CPU, keeping each stage's best."""

    def __init__(self, best: dict[str, tuple[float, float]]) -> None:
        self.best = best

    def timed(self, name: str, work: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        wall, cpu = time.perf_counter(), time.process_time()
        result = work(*args, **kwargs)
        spent = (time.perf_counter() - wall, time.process_time() - cpu)
        old = self.best.get(name, (float("inf"), float("inf")))
        self.best[name] = (min(old[0], spent[0]), min(old[1], spent[1]))
        return result


def command_line(path: Path, root: Path = ROOT) -> tuple[float, str]:
    """root's compare.py run --batch --unique end to end: its wall seconds and its stage line."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, str(root / "compare.py"), "run", str(path), "--solvers",
                           "fast", "--batch", "--unique"], capture_output=True, text=True, check=False)
    line = next((line for line in done.stderr.splitlines() if "compare.py: --batch:" in line), "")
    if done.returncode not in (0, 1) or not line:
        raise SystemExit(f"compare.py run --batch failed ({done.returncode}): {done.stderr}")
    return time.perf_counter() - started, line


def cpu_rate(line: str) -> int:
    """The runs a second by CPU time a stage line says."""
    found = re.search(r"([\d,]+) by CPU time", line)
    return int(found.group(1).replace(",", "")) if found else 0


def stage_cpu(line: str) -> dict[str, float]:
    """Each stage's CPU seconds a stage line says."""
    found = re.findall(r"(\w+) [\d.]+ s \(([\d.]+) s CPU\)", line)
    return {name: float(cpu) for name, cpu in found if name != "in"}  # "judged in ...": the total


def side_by_side(path: Path, against: Path, passes: int) -> None:
    """This tree's command line and against's in turn, pass for pass: medians and bests."""
    lines: dict[str, list[str]] = {"this tree": [], str(against): []}
    for _ in range(passes):
        for label, root in (("this tree", ROOT), (str(against), against)):
            lines[label].append(command_line(path, root)[1])
    for label, found in lines.items():
        rates = sorted(cpu_rate(line) for line in found)
        parts = [stage_cpu(line) for line in found]
        stages = ", ".join(f"{name} {1e3 * sorted(p[name] for p in parts)[len(parts) // 2]:.1f} ms"
                           for name in parts[0] if name not in ("loading", "summary"))
        print(f"{label}: by CPU time from reading to the records, median {rates[len(rates) // 2]:,}/s, "
              f"best {rates[-1]:,}/s of {len(rates)} passes ({', '.join(f'{r:,}' for r in rates)}); "
              f"median CPU of each stage: {stages}")


def plain(path: Path, count: int) -> tuple[int, float, float, int]:
    """compare.py run on the first count puzzles without --batch: runs, wall seconds, the
    runs' own seconds, workers."""
    lines = [line for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]
    with tempfile.TemporaryDirectory() as folder:
        puzzles, saved = Path(folder) / "first.txt", Path(folder) / "runs.json"
        puzzles.write_text("\n".join(lines[:count]) + "\n")
        started = time.perf_counter()
        done = subprocess.run([sys.executable, str(ROOT / "compare.py"), "run", str(puzzles),
                               "--solvers", "fast", "--unique", "--json", str(saved)],
                              capture_output=True, text=True, check=False)
        wall = time.perf_counter() - started
        if done.returncode != 0:
            raise SystemExit(f"compare.py run failed ({done.returncode}): {done.stderr[-2000:]}")
        runs = json.loads(saved.read_text())["runs"]
    return len(runs), wall, sum(r["time_s"] for r in runs), default_jobs()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", type=Path, default=ROOT / "puzzles" / "17_clue.txt")
    parser.add_argument("--rounds", type=int, default=3, help="in-process rounds; the best counts")
    parser.add_argument("--cli", type=int, default=5, help="command-line passes; the median by CPU counts")
    parser.add_argument("--against", type=Path, default=None,
                        help="another checkout whose compare.py runs in turn with this one (part 2)")
    parser.add_argument("--plain", type=int, default=1000,
                        help="puzzles through the ordinary path (0: skip part 3)")
    parser.add_argument("--json", type=json_path, metavar="PATH",
                        help="also write the figures, with provenance (not with --against)")
    args = parser.parse_args(argv)
    if args.json is not None and args.against is not None:
        parser.error("--json: the side-by-side run (--against) is not kept; run without it")
    started = load_average()
    if args.against is not None and not (args.against / "compare.py").is_file():
        parser.error(f"--against {args.against}: no compare.py there")
    print(f"load average {started} at the start")
    best = stages(args.set, args.rounds)
    kept: dict[str, object] = {"set": args.set.name, "stages_best_s": best}
    count = sum(len(a) for a in read_arrays(args.set)[0] if isinstance(a, PuzzleArray))
    work = [name for name in best if name != "summary"]
    for label, index in (("wall", 0), ("CPU", 1)):
        through = sum(best[name][index] for name in work)
        total = through + best["summary"][index]
        parts = ", ".join(f"{name} {best[name][index] * 1e3:.1f} ms" for name in best)
        print(f"{args.set.name}: {count:,} puzzles, by {label} time: {count / through:,.0f} puzzles/s "
              f"from reading to the records, {count / total:,.0f} with the summary ({parts})")
    if args.against is not None:
        side_by_side(args.set, args.against, max(1, args.cli))
    else:
        passes = [command_line(args.set) for _ in range(max(1, args.cli))]
        for wall, line in passes:
            print(f"compare.py run {args.set.name} --solvers fast --batch --unique: {wall:.2f} s end to end")
            print(f"  {re.sub(r'^compare.py: ', '', line)}")
        rates = sorted(cpu_rate(line) for _, line in passes)
        print(f"command line, by CPU time from reading to the records: best {rates[-1]:,}/s, "
              f"median {rates[len(rates) // 2]:,}/s of {len(rates)} passes")
        kept.update(puzzles=count, cli_rates=rates, cli_median=rates[len(rates) // 2])
    if args.plain:
        runs, wall, own, jobs = plain(args.set, args.plain)
        print(f"compare.py run (first {runs} puzzles) --solvers fast --unique, no --batch: {wall:.1f} s, "
              f"{runs / wall:,.1f} runs/s end to end; harness cost {1e3 * (wall * jobs - own) / runs:.2f} "
              f"ms a run ({jobs} workers; the runs' own {1e3 * own / runs:.3f} ms)")
    print(f"load average {load_average()} at the end")
    if args.json is not None:
        write_json(args.json, kept, started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
