"""The interactive HTML report at scale (issue 35, item 1): how long a page of many runs takes
to write, to open and to answer a filter, measured in headless Chromium.

    python bench/bench_html_report.py [--runs 100000] [--configs 10] [--repeats 5]

Makes a saved-run document of --runs synthetic runs (--configs configurations on runs/configs
puzzles, a 9x9 and a 16x16 set, categories, times and counters drawn from a fixed seed), writes
its page with ``compare.py report RUNS.json --html PAGE.html`` (timed, and the page's size),
then opens it in headless Chromium (tests/chromium.py) --repeats times, each in a fresh
document: the open time is the page's own clock from navigation to its first screen drawn
(``report.timings.ready``: unpacking, the tables, the first rows); then each filter (a text
typed into the search box as a keyboard does, a category, a set, the "configurations differ"
filter) and a sort are applied and timed in the page (``report.timings``). Prints the median
and the largest of the repeats. Times depend on the machine; the counts (runs, rows, bytes)
do not.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import tables
from common import ROOT, write_json

sys.path.insert(0, str(ROOT))
from tests.chromium import CHROMIUM, Browser

CATEGORIES = (("correct", 0.86), ("timeout", 0.08), ("unknown", 0.02), ("error", 0.02),
              ("memory-out", 0.01), ("wrong", 0.01))
LIMIT = 10.0


def synthetic(runs: int, configs: int, seed: int = 0) -> dict:
    """A saved-run document of ``runs`` runs: configs configurations on runs // configs puzzles."""
    rng = random.Random(seed)
    puzzles = runs // configs
    names, weights = zip(*CATEGORIES)
    out = []
    for index in range(puzzles):
        n = 9 if index % 4 else 16
        file = "puzzles/big_9x9.txt" if n == 9 else "puzzles/big_16x16.txt"
        grid = "".join(rng.choice("123456789......") for _ in range(n * n))
        for c in range(configs):
            category = rng.choices(names, weights)[0]
            time_s = LIMIT if category == "timeout" else min(LIMIT, rng.lognormvariate(-5 + c * 0.3, 1.5))
            out.append({"file": file, "index": index, "line": index + 1, "n": n, "size": f"{n}x{n}",
                        "configuration": f"config{c}", "solver": f"config{c}", "backend": "mrv",
                        "repeat": 0, "status": "timeout" if category == "timeout" else "solved",
                        "category": category, "time_s": time_s, "cpu_s": time_s * 0.98,
                        "peak_memory_mb": round(20 + rng.random() * 10, 1), "puzzle": grid,
                        "solutions": [], "complete": category == "correct", "stats": {},
                        "nodes": int(rng.lognormvariate(3, 2)), "proof": "",
                        "reason": "verified" if category == "correct" else f"{category}: no answer"})
    return {"kind": "sudoku-methods-run", "version": 2, "limit_s": LIMIT, "options": {},
            "partial": False, "runs": out, "disagreements": []}


MEASURES = {
    "text filter (typed)": None,
    "category filter": "document.getElementById('f-category').value = "
                       "String(report.strings.indexOf('timeout')); report.applyFilters()",
    "set filter": "document.getElementById('f-category').value = ''; document.getElementById('f-set').value"
                  " = document.getElementById('f-set').options[1].value; report.applyFilters()",
    "configurations differ": "document.getElementById('f-set').value = ''; "
                             "document.getElementById('f-category').value = 'differ'; report.applyFilters()",
}


def measure(page: Path, profile: Path) -> dict[str, float]:
    """One opening of the page: its open time and each filter's and a sort's time, in ms."""
    figures: dict[str, float] = {}
    with Browser(profile) as browser:
        browser.open(page.as_uri(), patience=300)
        figures["open (to the first screen)"] = browser.evaluate("report.timings.ready")
        figures["of which unpacking"] = browser.evaluate("report.timings.unpack")
        figures["of which inflating"] = browser.evaluate("report.timings.inflate")
        figures["of which JSON parsing"] = browser.evaluate("report.timings.parse")
        browser.evaluate("document.getElementById('f-text').focus()")
        browser.call("Input.insertText", browser.session, text="7.")
        figures["text filter (typed)"] = browser.evaluate("report.timings.filter")
        browser.evaluate("document.getElementById('f-text').value = ''")
        for name, script in MEASURES.items():
            if script:
                browser.evaluate(script)
                figures[name] = browser.evaluate("report.timings.filter")
                figures[name + ": choosing rows"] = browser.evaluate("report.timings.select")
        browser.evaluate("report.sortBy('run:1:time_s')")
        figures["sort by a time column"] = browser.evaluate("report.timings.sort")
        browser.evaluate("report.drawPlots()")
        figures["draw every plot"] = browser.evaluate("report.timings.plots")
        figures["rows drawn in the DOM"] = browser.evaluate("document.querySelectorAll('#tbody tr[data-row]').length")
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=100_000)
    parser.add_argument("--configs", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", type=tables.json_path, metavar="PATH", help="also write the figures, with provenance")
    args = parser.parse_args()
    started = os.getloadavg()
    if CHROMIUM is None:
        print("bench_html_report: needs chromium (apt-get install chromium)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder)
        runs = where / "runs.json"
        runs.write_text(json.dumps(synthetic(args.runs, args.configs)))
        page = where / "page.html"
        began = time.perf_counter()
        done = subprocess.run([sys.executable, str(ROOT / "compare.py"), "report", str(runs), "--html", str(page)],
                              capture_output=True, text=True, check=False)
        took = time.perf_counter() - began
        if done.returncode not in (0, 1):  # 1: the synthetic runs hold wrong answers
            print(done.stderr, file=sys.stderr)
            return done.returncode
        print(f"{args.runs:,} runs, {args.configs} configurations, {args.runs // args.configs:,} puzzle rows; "
              f"compare.py report --html took {took:.1f} s; the page is {page.stat().st_size / 1e6:.1f} MB")
        results = [measure(page, where / f"profile{k}") for k in range(args.repeats)]
        size = page.stat().st_size
    print(f"{'measure':32} {'median':>10} {'largest':>10}   (ms, {args.repeats} openings)")
    for name in results[0]:
        values = [r[name] for r in results]
        print(f"{name:32} {statistics.median(values):10.1f} {max(values):10.1f}")
    if args.json:
        write_json(args.json, {"runs": args.runs, "configs": args.configs, "report_s": took, "page_bytes": size,
                               "openings": {name: [r[name] for r in results] for name in results[0]}},
                   [round(value, 2) for value in started])
    return 0


if __name__ == "__main__":
    sys.exit(main())
