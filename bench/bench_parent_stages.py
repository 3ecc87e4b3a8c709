"""The parent's work per run of ``compare.py run`` (no --batch), stage by stage, this checkout
side by side with another (issue 36 item 5: the parent is the limit of the ordinary path).

    python bench/bench_parent_stages.py --baseline /tmp/base [--puzzles 5000] [--rounds 5] [--json PATH]

bench_run_rate.py measures the whole command, whose CPU a run moves with the machine's load;
this one replays the parent's stages in one process on the first N puzzles of the 17-clue set,
each stage's best CPU time over the rounds (time.process_time), so a stage's figure moves
little with the load and two checkouts compare stage by stage. The answers are ``fast``'s,
solved once here and sent to both checkouts as the frames a worker writes:

    read      models.iter_puzzles: the file read, each puzzle parsed and checked for repeats
    tasks     one Task a puzzle (results.experiment.build_tasks)
    hand-over the tasks pickled in chunks of 64, as the pool sends them
    answers   each run's three frames decoded (engine.channel), the answer checked field by
              field (engine.answers.check_answer) and its times judged (engine.timing)
    judge     each puzzle's answers weighed and judged (results.judge: every solution verified
              by models.verify) into its run record
    summary   the summary rows over all the runs (results.report.summarize)

Each checkout runs in a fresh interpreter with its own folder first on sys.path. Printed: the
microseconds a run each stage takes in each checkout, and this / baseline.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tables
from common import ROOT, first_puzzles, write_json

STAGES = ("read", "tasks", "hand-over", "answers", "judge", "summary")


def replay(puzzles: Path, answers: list[dict[str, Any]], rounds: int) -> dict[str, float]:
    """The best CPU seconds a run of each stage over the rounds, in this interpreter's checkout."""
    from multiprocessing.reduction import ForkingPickler  # noqa: PLC0415 - the checkout's own imports follow

    from models.formats import iter_puzzles  # noqa: PLC0415 - from the tree under test
    from solvers.harness.engine.answers import check_answer  # noqa: PLC0415 - from the tree under test
    from solvers.harness.engine.channel import FrameReader, encode_frame  # noqa: PLC0415 - from the tree under test
    from solvers.harness.engine.configs import resolve  # noqa: PLC0415 - from the tree under test
    from solvers.harness.engine.timing import Seen, judged_times  # noqa: PLC0415 - from the tree under test
    from solvers.harness.results.experiment import build_tasks  # noqa: PLC0415 - from the tree under test
    from solvers.harness.results.judge import assess  # noqa: PLC0415 - from the tree under test
    from solvers.harness.results.report import summarize  # noqa: PLC0415 - from the tree under test

    if not Path(sys.modules["models"].__file__ or "").is_relative_to(Path(sys.path[0]).resolve()):
        raise SystemExit(f"models came from {sys.modules['models'].__file__}, not {sys.path[0]}")
    configurations = resolve("fast", [])
    frames = b"".join(encode_frame(message) for number, answer in enumerate(answers) for message in (
        {"kind": "started", "task": number, "peak_reset": True},
        {"kind": "finished", "task": number, "span": [10.0, 10.0 + answer["time_s"]]},
        {"kind": "done", "task": number, "outcome": answer}))
    held: dict[str, Any] = {}

    def read() -> None:
        held["puzzles"] = list(iter_puzzles(str(puzzles)))

    def tasks() -> None:
        held["tasks"] = [build_tasks(p, configurations, max_solutions=1, time_limit=10.0, repeat=0)[0]
                         for p in held["puzzles"]]

    def hand_over() -> None:
        chunks = [held["tasks"][start:start + 64] for start in range(0, len(held["tasks"]), 64)]
        for chunk in chunks:
            ForkingPickler.dumps(("runs", list(enumerate(chunk)), False))

    def check() -> None:
        outcomes = []
        messages = FrameReader().feed(frames)
        for done in messages[2::3]:
            answer = done["outcome"]
            outcome = check_answer(answer, 1, 81, counting=False)
            end = 10.0 + answer["time_s"]  # the parent's looks as a quick run's fit: its clocks stand
            seen = Seen(9.9, (end, end), (9.9, 10.0), (end, end), (10.0, end), sum(map(len, outcome.solutions)))
            outcomes.append(judged_times(outcome, seen, (answer["cpu_s"], 0.0), 0.0, True))
        held["outcomes"] = outcomes

    def judge() -> None:
        runs = []
        for task, outcome in zip(held["tasks"], held["outcomes"]):
            assessment = assess(task.puzzle, [(task.solver.name, outcome)], max_solutions=1,
                                families={task.solver.name: "fast"})
            judged, _ = assessment.verdicts({})
            runs += judged
        held["runs"] = runs

    def summary() -> None:
        summarize(held["runs"], limit=10.0)

    steps: dict[str, Callable[[], None]] = {"read": read, "tasks": tasks, "hand-over": hand_over,
                                            "answers": check, "judge": judge, "summary": summary}
    best = dict.fromkeys(STAGES, float("inf"))
    for _ in range(rounds):
        for stage in STAGES:
            started = time.process_time()
            steps[stage]()
            best[stage] = min(best[stage], time.process_time() - started)
    return {stage: seconds / len(answers) for stage, seconds in best.items()}


def solved(lines: list[str]) -> list[dict[str, Any]]:
    """fast's answer to each puzzle as a worker sends it (solutions, stats, times)."""
    from models import as_model, parse_puzzle  # noqa: PLC0415 - from the tree under test
    from solvers.backends import fast  # noqa: PLC0415 - from the tree under test
    from solvers.harness.engine.worker import plain_outcome  # noqa: PLC0415 - from the tree under test

    answers = []
    for line in lines:
        started = time.perf_counter()
        result = fast.solve(as_model(parse_puzzle(line)), max_solutions=1)
        elapsed = time.perf_counter() - started
        answer = plain_outcome(result, elapsed, 1)
        answer.update(cpu_s=elapsed, peak_memory_mb=40.0, cpu_children_s=0.0, children=False)
        answers.append(answer)
    return answers


def in_checkout(tree: Path, puzzles: Path, answers: Path, rounds: int) -> dict[str, float]:
    """replay() in a fresh interpreter with ``tree`` first on sys.path."""
    code = (f"import sys; sys.path.insert(0, {str(ROOT / 'bench')!r}); "
            "import json, bench_parent_stages as b; "
            f"sys.path.insert(0, {str(tree)!r}); "  # after bench/common.py put this checkout first
            f"print(json.dumps(b.replay(__import__('pathlib').Path({str(puzzles)!r}), "
            f"json.load(open({str(answers)!r})), {rounds})))")
    done = subprocess.run([sys.executable, "-c", code], cwd=tree, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"{tree}: the replay failed: {done.stderr[-2000:]}")
    figures: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, required=True, help="another checkout of the toolkit")
    parser.add_argument("--puzzles", type=int, default=5000, help="puzzles replayed (default 5000)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds, the best of each stage kept (default 5)")
    parser.add_argument("--json", type=tables.json_path, metavar="PATH", help="also write the figures, with provenance")
    args = parser.parse_args()
    load = os.getloadavg()
    lines = first_puzzles((ROOT / "puzzles" / "17_clue.txt").read_text().splitlines(), args.puzzles)
    trees = {"this": ROOT, "baseline": args.baseline.resolve()}
    with tempfile.TemporaryDirectory() as folder:
        puzzles, answers = Path(folder) / "puzzles.txt", Path(folder) / "answers.json"
        puzzles.write_text("\n".join(lines) + "\n")
        answers.write_text(json.dumps(solved(lines)))
        figures = {name: in_checkout(tree, puzzles, answers, args.rounds) for name, tree in trees.items()}
        again = in_checkout(trees["this"], puzzles, answers, args.rounds)  # this, before and after the baseline
    this = {stage: min(figures["this"][stage], again[stage]) for stage in STAGES}
    print(f"the parent's stages, {len(lines)} runs of fast on 17_clue.txt, best of {args.rounds} rounds "
          "(CPU microseconds a run)")
    print(f"{'stage':<10} {'this':>8} {'baseline':>9} {'this/baseline':>14}")
    for stage in (*STAGES, "total"):
        mine = sum(this.values()) if stage == "total" else this[stage]
        base = sum(figures["baseline"].values()) if stage == "total" else figures["baseline"][stage]
        print(f"{stage:<10} {mine * 1e6:>8.1f} {base * 1e6:>9.1f} {mine / base:>14.2f}")
    print(f"load average {load[0]:.1f} before, {os.getloadavg()[0]:.1f} after")
    if args.json:
        write_json(args.json, {"puzzles": len(lines), "rounds": args.rounds, "baseline": str(args.baseline),
                               "seconds_a_run": {"this": this, "baseline": figures["baseline"]}},
                   [round(value, 2) for value in load])
    return 0


if __name__ == "__main__":
    sys.exit(main())
