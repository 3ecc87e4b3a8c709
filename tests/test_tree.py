"""``compare.py tree``: the search tree of a traced solve, drawn as SVG, checked through the real
command line against the trace of the same solve, and loaded in a real browser."""
from __future__ import annotations

import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from models import Model, Puzzle, parse_puzzle
from solvers.backends.readable import backtrack, dlx, mrv
from solvers.harness.commands.tracing import TRACED
from solvers.harness.pictures.search_tree import build, summarise
from solvers.harness.pictures.tree_svg import search_tree
from solvers.human import traced as human
from solvers.trace import Trace, write_jsonl

from .conftest import ROOT, cli, compare_here, load

SVG = "{http://www.w3.org/2000/svg}"
LINE_4X4 = "1.3...2..1...3.2"  # backtrack tries and fails a few values before the answer


MODULES = {"mrv": mrv, "backtrack": backtrack, "dlx": dlx, "human": human}


def decisions(solver: str, puzzle: Puzzle, **options: object) -> list[dict]:
    """The decide events of the same solve the command runs."""
    trace = Trace()
    MODULES[solver].solve(Model.from_puzzle(puzzle), trace=trace, **{"node_limit": 100_000, **options})
    return [event for event in trace.events if event["kind"] == "decide"]


def nodes(svg: ET.Element, kind: str) -> list[ET.Element]:
    return [g for g in svg.iter(f"{SVG}g") if kind in (g.get("class") or "").split()]


def edges(svg: ET.Element, kind: str | None = None) -> list[ET.Element]:
    found = [p for p in svg.iter(f"{SVG}path") if "edge" in (p.get("class") or "").split()]
    return [p for p in found if kind is None or kind in p.get("class", "").split()]


@pytest.mark.parametrize("solver, source, index", [
    ("mrv", "teaching.txt", 0), ("backtrack", "small_4x4.txt", 0), ("dlx", "top95.txt", 0),
    ("human", "special_9x9_multiple_solutions.txt", 7)])  # it needs no guess on a puzzle with one solution
def test_the_tree_has_one_node_and_one_edge_per_decision_and_marks_the_solution_path(
        tmp_path: Path, solver: str, source: str, index: int) -> None:
    puzzle = load(source)[index]
    out = tmp_path / "tree.svg"
    done = compare_here("tree", f"puzzles/{source}", "--puzzle", str(index + 1), "--solver", solver,
                        "-o", str(out))
    assert done.returncode == 0, done.stderr
    svg = ET.parse(out).getroot()  # well-formed XML, or this raises
    tried = decisions(solver, puzzle)
    assert tried, "the puzzle needs search, or the test shows nothing"
    assert len(nodes(svg, "decision")) == len(tried) and len(nodes(svg, "root")) == 1
    assert len(edges(svg)) == len(tried) and not nodes(svg, "collapsed")
    assert len(nodes(svg, "solution")) == 1
    solution = nodes(svg, "solution")[0]
    # the path from the root to the solution: one thick edge per decision on it
    assert len(edges(svg, "path")) == int(solution.get("data-depth", "-1"))
    assert all("path" in g.get("class", "").split() for g in nodes(svg, "solution"))
    contradictions = sum(1 for g in nodes(svg, "contradiction"))
    text = out.read_text()
    forced = sum(1 for event in tried if event["forced"])
    moves = f" and {forced:,} forced move{'s' if forced != 1 else ''}" if forced else ""
    assert f"{len(tried) - forced:,} decisions in all{moves}, depth" in text
    assert f"contradiction ({contradictions:,} drawn)" in text or contradictions == 0
    assert f"wrote {out}: {len(tried) - forced:,} decisions{moves} (all drawn)" in done.stdout
    assert len(edges(svg, "forced")) == len(nodes(svg, "forced")) == forced == only_choices(tried)


def only_choices(tried: list[dict]) -> int:
    """Decisions that were the one choice at their node: the first tried there, none left after."""
    first, count = set(), 0
    for event in tried:
        first.discard(event["depth"] + 1)  # a new node: its children are yet to come
        if event["depth"] not in first and not event["alternatives"]:
            count += 1
        first.add(event["depth"])
    return count


FORCING = {"mrv": {"inference": "forward"}}  # mrv's default rungs place a one-option cell
# themselves; forward checking leaves it to the search, as a forced move


@pytest.mark.parametrize("solver", TRACED)
def test_the_tree_draws_as_forced_exactly_the_decisions_the_trace_says_were_forced(solver: str) -> None:
    trace = Trace()
    puzzle = load("special_9x9_multiple_solutions.txt")[7] if solver == "human" else load("teaching.txt")[0]
    MODULES[solver].solve(Model.from_puzzle(puzzle), trace=trace, node_limit=200, **FORCING.get(solver, {}))
    tried = [event for event in trace.events if event["kind"] == "decide"]
    assert tried and all("forced" in event for event in tried)
    forced = sum(1 for event in tried if event["forced"])
    assert forced or solver == "human"  # the human-style solver guesses only where no single applies
    picture = search_tree(trace.events)
    svg = ET.fromstring(picture.svg)
    assert not picture.summary.collapsed and len(nodes(svg, "decision")) == len(tried)
    assert len(nodes(svg, "forced")) == len(edges(svg, "forced")) == forced
    assert (f"a forced move, the one option left ({forced:,} drawn)" in picture.svg) == bool(forced)
    assert f"{len(tried) - forced:,} decision" in picture.svg  # the heading counts them apart
    # the tree's shape (one child, nothing left to try) says the same wherever the field exists
    tree = picture.summary.tree
    assert all(child.forced is (child in node.forced_by_shape())
               for node in tree.root.walk() for child in node.children)
    # a trace written before the field: read by its shape, drawn the same
    old = build({key: value for key, value in event.items() if key != "forced"}
                for event in trace.events)
    assert [node.forced for node in old.root.walk()] == [node.forced for node in tree.root.walk()]


def test_a_big_search_is_collapsed_and_says_its_total(tmp_path: Path) -> None:
    out = tmp_path / "tree.svg"
    done = compare_here("tree", "puzzles/top95.txt", "--solver", "backtrack:node_limit=3000",
                        "--max-nodes", "150", "-o", str(out))
    assert done.returncode == 0, done.stderr
    svg = ET.parse(out).getroot()
    tried_events = decisions("backtrack", load("top95.txt")[0], node_limit=3000)
    tried, forced = len(tried_events), sum(1 for event in tried_events if event["forced"])
    collapsed = nodes(svg, "collapsed")
    hidden = sum(int(g.get("data-nodes", "0")) for g in collapsed)
    assert collapsed and hidden > len(nodes(svg, "decision"))
    assert hidden + len(nodes(svg, "decision")) == tried  # every decision drawn or counted
    assert len(nodes(svg, "decision")) + len(collapsed) + 1 <= 150
    text = out.read_text()
    assert f"{tried - forced:,} decisions in all and {forced:,} forced moves" in text
    assert f"of the {tried:,} nodes" in text and f"other {hidden:,} in {len(collapsed)} " \
                                                 "collapsed subtrees" in text
    assert nodes(svg, "stopped")  # the node budget stopped the search: where is drawn


def test_a_puzzle_line_gives_a_page_holding_the_tree(tmp_path: Path) -> None:
    out = tmp_path / "tree.html"
    done = compare_here("tree", LINE_4X4, "--solver", "backtrack", "-o", str(out))
    assert done.returncode == 0, done.stderr
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") == 1
    svg = ET.fromstring(page[page.index("<svg"):page.index("</svg>") + 6])
    assert len(nodes(svg, "decision")) == len(decisions("backtrack", parse_puzzle(LINE_4X4)))


def test_a_saved_trace_is_drawn_as_it_is(tmp_path: Path) -> None:
    trace = Trace()
    dlx.solve(Model.from_puzzle(load("top95.txt")[0]), trace=trace)
    saved = tmp_path / "solve.jsonl"
    with saved.open("w") as out:
        write_jsonl(trace.events, out)
    done = compare_here("tree", str(saved), "-o", str(tmp_path / "tree.svg"))
    assert done.returncode == 0, done.stderr
    svg = ET.parse(tmp_path / "tree.svg").getroot()
    tried = [e for e in trace.events if e["kind"] == "decide"]
    assert len(nodes(svg, "decision")) == len(tried)
    assert "solve.jsonl: dlx:impl=readable" in (tmp_path / "tree.svg").read_text()  # its title


def test_a_file_that_is_not_a_trace_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"kind": "decide", "depth": 1}\n')
    done = compare_here("tree", str(bad), "-o", str(tmp_path / "tree.svg"))
    assert done.returncode == 2 and "decide event lacks cell, value, alternatives, rule" in done.stderr


@pytest.mark.parametrize("args, words", [
    (["puzzles/teaching.txt", "--solver", "nosuch"], "'nosuch' is no backend"),
    (["puzzles/teaching.txt", "--solver", "fast"], "'fast' records no trace; explain, render, "
                                                   f"replay and tree follow {', '.join(TRACED)}"),
    (["1.3..", "--solver", "mrv"], "1.3..: no such file, nor a puzzle in line format"),
    (["puzzles/teaching.txt", "--puzzle", "99"], "no puzzle 99"),
    (["puzzles/teaching.txt", "-o", "tree.png"], "write a .svg picture or an .html page")])
def test_tree_refuses_bad_usage_with_exit_2(tmp_path: Path, args: list[str], words: str,
                                            capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # an argument check: the real parser in this process (a compare.py launch adds nothing here)
    output = [] if "-o" in args else ["-o", str(tmp_path / "tree.svg")]
    monkeypatch.chdir(ROOT)
    args = [str(ROOT / arg) if arg.startswith("puzzles/") else arg for arg in args]
    if "tree.png" in args:
        monkeypatch.chdir(tmp_path)
    status, _, err = cli(capsys, "tree", *args, *output)
    assert status == 2 and words in err, err
    assert not (tmp_path / "tree.svg").exists()


def test_the_summary_keeps_the_solution_path_whatever_the_budget() -> None:
    trace = Trace()
    backtrack.solve(Model.from_puzzle(load("easy50.txt")[0]), trace=trace)
    tree = build(trace.events)
    summary = summarise(tree, 20)
    solution = next(node for node in tree.root.walk() if node.outcome == "solution")
    assert solution.number in summary.shown and summary.collapsed
    assert len(summary.shown) - 1 + sum(c.size for c in summary.collapsed) == tree.nodes


@pytest.mark.parametrize("source, words", [("small_unsat.txt", "inference alone found there is no solution"),
                                           ("generated_4x4.txt", "inference alone solved it")])
def test_a_solve_without_search_is_one_root_node_that_says_so(source: str, words: str) -> None:
    trace = Trace()
    mrv.solve(Model.from_puzzle(load(source)[0]), trace=trace)
    svg = search_tree(trace.events, "t").svg
    root = ET.fromstring(svg)
    assert len(nodes(root, "node")) == 1 and not edges(root) and words in svg


CHROMIUM = next((p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if Path(p).exists()), None)


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed to load the picture in")
def test_a_browser_draws_the_tree(tmp_path: Path) -> None:
    image = pytest.importorskip("PIL.Image", reason="reading the screenshot needs Pillow")
    out = tmp_path / "tree.svg"
    assert compare_here("tree", "puzzles/teaching.txt", "-o", str(out)).returncode == 0
    width, height = (int(v) for v in re.search(r'width="(\d+)" height="(\d+)"', out.read_text()).groups())
    shot = tmp_path / "shot.png"
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
         f"--user-data-dir={tmp_path / 'profile'}", f"--window-size={width},{height}",
         f"--screenshot={shot}", out.as_uri()], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and shot.exists(), done.stderr
    with image.open(shot) as picture:
        assert picture.size == (width, height)
        colours = picture.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 20  # drawn, not blank
    palette = {colour for _, colour in colours}
    assert (0, 158, 115) in palette and (213, 94, 0) in palette  # the path green, the failure red
