"""The interactive HTML report (issue 35 item 1): ``report RUNS.json... --html OUT.html``, one
self-contained page of every run of every input. Its data through Python; the page itself in
headless Chromium (the DOM after its script ran, the keyboard, a filter typed, a plot point
hovered, a screenshot), as the replay page is tested."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from solvers.harness.cli import main
from solvers.harness.results.html_data import FIRST, report_data
from solvers.harness.results.report import load_document

from .chromium import CHROMIUM, Browser
from .conftest import ROOT, compare, compare_here
from .test_reports import run_record, saved


def runs_of(labels: str, file: str = "puzzles/p.txt", n: int = 4, puzzles: int = 6) -> list[dict[str, Any]]:
    runs = []
    for index in range(puzzles):
        for number, label in enumerate(labels):
            category = "timeout" if (index, number) == (2, 1) else "correct"
            runs.append({**run_record(index, label, 0.001 * (index + 1) * (number + 1), file=file, n=n,
                                      category=category, nodes=index * 3 + number),
                         "peak_memory_mb": 20.0 + index, "reason": f"run {index} of {label}"})
    return runs


@pytest.fixture
def two_files(tmp_path: Path) -> list[str]:
    first = saved(tmp_path / "first.json", runs_of("ab") + runs_of("ab", file="puzzles/q.txt", n=9, puzzles=3))
    second = saved(tmp_path / "second.json", runs_of("ac"))
    return [first, second]


def test_the_data_holds_every_run_with_the_records_columns(two_files: list[str]) -> None:
    runs = [r for path in two_files for r in json.loads(Path(path).read_text())["runs"]]
    data = report_data(runs, limit=1.0)
    assert len(data["runs"]["row"]) == len(runs) == 6 * 2 + 3 * 2 + 6 * 2
    keys = [f["key"] for f in data["fields"]]
    assert keys[:len(FIRST)] == list(FIRST) and keys[-1] == "reason"
    assert "nodes" in keys and "conflicts" not in keys  # a counter no run has is left out
    counts = dict(zip(data["configs"], data["counts"]))
    assert counts["b"][data["categories"].index("timeout")] == 2


def test_a_claim_the_judge_could_not_check_is_counted_unchecked() -> None:
    runs = [run_record(0, "a", 0.1), {**run_record(1, "a", 0.1), "proof": "unchecked"}]
    data = report_data(runs, limit=1.0)
    (counts,) = data["counts"]
    assert counts[data["categories"].index("correct")] == 1 and counts[data["categories"].index("unchecked")] == 1


def test_a_run_links_to_its_replay_page_where_one_exists(tmp_path: Path) -> None:
    replays = tmp_path / "replays"
    replays.mkdir()
    (replays / "p-1-a.html").write_text("<p>a on puzzle 1</p>")
    (replays / "p-2.html").write_text("<p>puzzle 2</p>")
    runs = [run_record(i, label, 0.1, file="puzzles/p.txt") for i in range(3) for label in "ab"]
    data = report_data(runs, limit=1.0, replays=str(replays), page_dir=str(tmp_path))
    links = [data["strings"][k] for k in data["runs"]["replay"]]
    assert links == ["replays/p-1-a.html", "", "replays/p-2.html", "replays/p-2.html", "", ""]


def test_report_html_writes_one_self_contained_page_of_every_file(
        two_files: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "page.html"
    assert main(["report", *two_files, "--html", str(page), "--title", "two runs"]) == 0
    assert "30 runs of 2 files written to" in capsys.readouterr().err
    text = page.read_text()
    assert "<title>two runs</title>" in text
    assert not re.search(r"https?://|<link |\ssrc=", text.replace("http://www.w3.org/2000/svg", ""))


def test_the_benchs_synthetic_runs_are_a_saved_run_the_report_reads(tmp_path: Path) -> None:
    import importlib.util
    import sys
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        spec = importlib.util.spec_from_file_location("bench_html_report", ROOT / "bench" / "bench_html_report.py")
        assert spec is not None and spec.loader is not None
        bench = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(bench)
    finally:
        sys.path.remove(str(ROOT / "bench"))
    path = tmp_path / "runs.json"
    path.write_text(json.dumps(bench.synthetic(200, 4)))
    document = load_document(str(path))
    data = report_data(document["runs"], limit=document["limit_s"])
    assert len(data["runs"]["row"]) == 200 and len(data["rows"]["index"]) == 50 and len(data["configs"]) == 4


def test_report_html_refuses_runs_whose_limits_differ(two_files: list[str], tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    other = json.loads(Path(two_files[1]).read_text())
    other["limit_s"] = 5.0
    Path(two_files[1]).write_text(json.dumps(other))
    assert main(["report", *two_files, "--html", str(tmp_path / "p.html")]) == 2
    assert "limits differ" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed to load the page in")
def test_the_page_of_two_files_works_in_chromium(two_files: list[str], tmp_path: Path) -> None:
    image = pytest.importorskip("PIL.Image", reason="reading the screenshot needs Pillow")
    page = tmp_path / "page.html"
    assert main(["report", *two_files, "--html", str(page)]) == 0
    with Browser(tmp_path / "profile") as browser:
        browser.call("Emulation.setDeviceMetricsOverride", browser.session, width=1300, height=1000,
                     deviceScaleFactor=1, mobile=False)
        browser.open(page.as_uri(), ready="['true', 'error'].includes(document.body.dataset.ready)")
        assert browser.evaluate("document.body.dataset.ready") == "true"
        # every configuration of both files: a column group each, and a row of counts each
        groups = browser.evaluate("[...document.querySelectorAll('#thead tr:first-child th')].map(t => t.textContent)")
        assert groups[1:5] == ["a (first)", "b", "a (second)", "c"]
        assert browser.evaluate("document.querySelectorAll('#counts tbody tr').length") == 4
        rows = browser.evaluate("document.querySelectorAll('#tbody tr[data-row]').length")
        assert rows == 9 and browser.evaluate("document.getElementById('shown').textContent") == "showing 9 of 9 rows"
        # the keyboard: the table moves its current row, a heading's button sorts
        browser.evaluate("document.getElementById('grid').focus()")
        for key in ("ArrowDown", "ArrowDown", "End", "ArrowUp"):
            browser.press(key)
        assert browser.evaluate("report.current") == 7
        assert "Row 8 of 9" in browser.evaluate("document.getElementById('detail').textContent")
        browser.evaluate("document.querySelector('button[data-sort=\"run:1:time_s\"]').focus()")
        browser.press("Enter")
        assert browser.evaluate("document.activeElement.parentElement.getAttribute('aria-sort')") == "ascending"
        # a filter typed as a keyboard types it
        browser.evaluate("document.getElementById('f-text').focus()")
        browser.call("Input.insertText", browser.session, text="q.txt")
        assert browser.evaluate("document.getElementById('shown').textContent") == "showing 3 of 9 rows"
        browser.evaluate("document.getElementById('f-text').value = ''; report.applyFilters()")
        browser.evaluate("document.getElementById('f-category').value = 'differ'; report.applyFilters()")
        assert browser.evaluate("report.visible.length") == 2  # the two puzzles b (and c) timed out on
        # the plots, drawn when scrolled to: hovering a point names its puzzle
        browser.evaluate("document.getElementById('plots').scrollIntoView()")
        browser.wait_for("report.plotsDrawn === true")
        figures = browser.evaluate("document.querySelectorAll('#plot-area figure').length")
        assert figures == 2 + 2 * 2  # a cactus per size, a scatter and a survival per set
        x, y = browser.evaluate("(() => { const f = document.querySelector('#plot-area figure'); "
                                "f.scrollIntoView({block: 'center'}); const r = f.querySelector('canvas')"
                                ".getBoundingClientRect(); const p = f.points[0]; "
                                "return [r.left + p[0], r.top + p[1]]; })()")
        browser.call("Input.dispatchMouseEvent", browser.session, type="mouseMoved", x=x, y=y)
        tip = browser.evaluate("document.getElementById('tip').textContent")
        assert "puzzle" in tip and "correct" in tip
        shot = tmp_path / "page.png"
        shot.write_bytes(browser.screenshot())
    with image.open(shot) as picture:
        colours = picture.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50  # drawn, not blank


@pytest.mark.slow
def test_a_results_database_selection_makes_a_page_too(tmp_path: Path) -> None:
    database = tmp_path / "sweep.sqlite"
    done = compare("run", str(ROOT / "puzzles" / "small_4x4.txt"), "--solvers", "mrv,dlx", "--jobs", "1",
                   "--db", str(database))
    assert done.returncode == 0, done.stderr
    page = tmp_path / "page.html"
    done = compare_here("report", "--db", str(database), "--where", "configuration=dlx", "--html", str(page))
    assert done.returncode == 0, done.stderr
    assert "4 runs of 1 file written to" in done.stderr and page.stat().st_size > 0
