"""Memory of a streamed sweep: peak RSS of ``compare.py run --db`` as the input grows.

    python bench/bench_streaming.py [--lines 20000,200000] [--solvers fast] [--jobs N]
                                    [--executor local] [--keep-in-memory]

For each size, bench/make_puzzles.py writes that many lines (easy50 under random
symmetries) to a temporary file, and ``compare.py run FILE --db TMP.sqlite`` runs them;
the script samples the run's resident memory (/proc, Linux) twice a second and prints
its peak (VmHWM), its resident memory at a quarter, half and three quarters of the
way, the largest worker's peak, the wall time and runs/s. Flat memory means the peak
does not grow with the number of lines. ``--keep-in-memory`` runs without --db, the
runs then kept for the table (for contrast).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import tables
from common import ROOT, write_json
from make_puzzles import generate

from models import read_puzzles
from solvers.harness.results.provenance import load_average


def status_kb(pid: int, key: str) -> int | None:
    """A VmRSS/VmHWM line of /proc/PID/status, in kB (None once the process is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def measure(lines: int, args: argparse.Namespace, folder: Path) -> dict[str, float]:
    """One sweep over ``lines`` generated lines; memory samples and timing."""
    path = folder / f"lines_{lines}.txt"
    sources = read_puzzles(ROOT / "puzzles" / "easy50.txt").puzzles
    with open(path, "w", encoding="utf-8") as handle:
        for line in generate(sources, lines, seed=1):
            handle.write(line + "\n")
    command = [sys.executable, str(ROOT / "compare.py"), "run", str(path), "--solvers", args.solvers,
               "--timeout", "10", "--executor", args.executor]
    if args.jobs:
        command += ["--jobs", str(args.jobs)]
    if not args.keep_in_memory:
        command += ["--db", str(folder / f"runs_{lines}.sqlite")]
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    samples: list[tuple[float, int]] = []
    peak = workers = 0
    while process.poll() is None:
        rss, hwm = status_kb(process.pid, "VmRSS"), status_kb(process.pid, "VmHWM")
        if rss is not None and hwm is not None:
            samples.append((time.monotonic() - start, rss))
            peak = max(peak, hwm)
        workers = max([workers] + [status_kb(c, "VmHWM") or 0 for c in children(process.pid)])
        time.sleep(0.5)
    wall = time.monotonic() - start
    stderr = process.stderr.read() if process.stderr else ""
    if process.returncode != 0:
        raise SystemExit(f"compare.py exited {process.returncode}: {stderr[-2000:]}")
    path.unlink()
    at = {q: next((rss for t, rss in samples if t >= q * wall), samples[-1][1]) for q in (0.25, 0.5, 0.75)}
    return {"lines": lines, "peak_mb": peak / 1024, "q1_mb": at[0.25] / 1024, "q2_mb": at[0.5] / 1024,
            "q3_mb": at[0.75] / 1024, "worker_mb": workers / 1024, "wall_s": wall, "runs_per_s": lines / wall}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", default="20000,200000", help="sizes, comma-separated")
    parser.add_argument("--solvers", default="fast")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--executor", default="local")
    parser.add_argument("--keep-in-memory", action="store_true", help="run without --db")
    parser.add_argument("--folder", default=None, help="where the temporary files go (default: /tmp)")
    parser.add_argument("--json", type=tables.json_path, metavar="PATH",
                        help="also write every size's figures, with provenance")
    args = parser.parse_args()
    started, measured = load_average(), []
    print(f"compare.py run LINES --solvers {args.solvers} --executor {args.executor}"
          + (" (no --db: runs kept in memory)" if args.keep_in_memory else " --db TMP.sqlite"))
    print(f"{'lines':>9} {'peak RSS MB':>12} {'RSS 1/4':>8} {'1/2':>7} {'3/4':>7} "
          f"{'worker peak':>12} {'wall s':>8} {'runs/s':>7}")
    with tempfile.TemporaryDirectory(dir=args.folder) as folder:
        for lines in (int(x) for x in args.lines.split(",")):
            r = measure(lines, args, Path(folder))
            measured.append(r)
            print(f"{r['lines']:>9} {r['peak_mb']:>12.1f} {r['q1_mb']:>8.1f} {r['q2_mb']:>7.1f} "
                  f"{r['q3_mb']:>7.1f} {r['worker_mb']:>12.1f} {r['wall_s']:>8.0f} {r['runs_per_s']:>7.0f}",
                  flush=True)
    if args.json:
        write_json(args.json, {"solvers": args.solvers, "db": not args.keep_in_memory, "sizes": measured}, started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
