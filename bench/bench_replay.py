"""The replay page of a long trace: its size, the time to build it, and the time a browser
takes to open it and jump to its last step.

    python bench/bench_replay.py [--nodes 90000] [--puzzle 1] [--opens 3]

Traces plain backtracking on a top95 puzzle (puzzle K, 1-based) up to --nodes decisions
(about 2.3 events each), writes the trace as JSON lines and its replay page, and prints the
event count, the trace's and the page's bytes (counts that do not depend on the machine),
and the seconds to build the page. With Chromium installed it then opens the page
--opens times in headless Chromium (through tests/chromium.py) and prints the time from
navigation to the first drawn grid as the page measures it (median), the time to jump to
the last step (End), and the page's JavaScript heap.
"""
from __future__ import annotations

import argparse
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from models import Model, read_puzzles
from solvers.backends.readable import backtrack
from solvers.harness.pictures.replay_page import render_page
from solvers.harness.results.provenance import load_average
from solvers.trace import Trace, write_jsonl


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=90_000, help="backtracking's node limit")
    parser.add_argument("--puzzle", type=int, default=1, help="which top95 puzzle, 1-based")
    parser.add_argument("--opens", type=int, default=3, help="times to open the page in Chromium")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the figures, with provenance")
    args = parser.parse_args()
    started = load_average()
    puzzles = list(read_puzzles(ROOT / "puzzles" / "top95.txt"))
    if not 1 <= args.puzzle <= len(puzzles) or args.nodes < 1 or args.opens < 0:
        parser.error(f"--puzzle 1..{len(puzzles)}, --nodes >= 1, --opens >= 0")
    trace = Trace()
    backtrack.solve(Model.from_puzzle(puzzles[args.puzzle - 1]), node_limit=args.nodes, trace=trace)
    events = trace.events
    lines = io.StringIO()
    write_jsonl(events, lines)
    begin = time.perf_counter()
    page = render_page(events, "bench")
    built = time.perf_counter() - begin
    size = len(page.encode())
    print(f"events {len(events) - 1:,}; trace {len(lines.getvalue().encode()):,} bytes; "
          f"page {size:,} bytes ({size / (len(events) - 1):.2f} a step); built in {built:.1f} s")
    try:
        sys.path.insert(0, str(ROOT / "tests"))
        from chromium import CHROMIUM, Browser  # noqa: PLC0415 - the tests' browser driver, only here
    except ImportError:
        return 0
    if CHROMIUM is None or not args.opens:
        print("no chromium: page not opened")
        return 0
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "page.html"
        path.write_text(page)
        with Browser(Path(folder) / "profile") as browser:
            opened = []
            for _ in range(args.opens):
                browser.open(path.as_uri())
                opened.append(int(browser.evaluate("document.body.dataset.openedMs")))
            begin = time.perf_counter()
            browser.press("End")
            jump = time.perf_counter() - begin
            heap = browser.evaluate("performance.memory ? performance.memory.usedJSHeapSize : 0")
            last = browser.evaluate("document.getElementById('status').dataset.step")
    print(f"chromium: opened in {statistics.median(opened):,} ms (median of {opens(opened)}); "
          f"End reaches step {int(last):,} in {jump * 1000:.0f} ms; JS heap {heap / 1e6:.0f} MB")
    if args.json:
        sys.path.insert(0, str(ROOT / "bench"))
        from common import write_json  # noqa: PLC0415 - bench/'s helper, only when asked
        write_json(args.json, {"events": len(events) - 1, "trace_bytes": len(lines.getvalue().encode()),
                               "page_bytes": size, "built_s": built, "opened_ms": opened, "end_ms": jump * 1000,
                               "end_step": int(last), "heap_bytes": heap}, started)
    return 0


def opens(times: list[int]) -> str:
    return ", ".join(f"{t:,}" for t in times)


if __name__ == "__main__":
    sys.exit(main())
