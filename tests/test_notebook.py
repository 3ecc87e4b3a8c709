"""Notebook display: puzzles, results and traces draw themselves as grids, and docs/tour.ipynb runs
from top to bottom in a real Jupyter kernel, so it never goes stale."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from models import Model, parse_puzzle
from models.symbols import symbol
from solvers import registry
from solvers.backends.readable import backtrack
from solvers.trace import Trace, final_cells

from .conftest import ROOT, load

SVG = "{http://www.w3.org/2000/svg}"
LINE_4X4 = "1.3...2..1...3.2"


def drawn_values(svg: str) -> list[str]:
    """The symbols written in a drawn grid, in order (the caption left out)."""
    root = ET.fromstring(svg)  # well-formed, or this raises
    return [t.text or "" for t in root.iter(f"{SVG}text") if t.get("text-anchor") == "middle"]


@pytest.mark.parametrize("name", ["teaching.txt", "small_6x6.txt", "jigsaw.txt", "x_sudoku.txt",
                                  "killer_teaching.txt", "generated_16x16.txt"])
def test_a_puzzle_shows_as_its_grid_with_every_given(name: str) -> None:
    puzzle = load(name)[0]
    svg = puzzle._repr_svg_()
    assert drawn_values(svg) == [symbol(v) for v in puzzle.givens if v]
    assert f"{puzzle.num_givens} givens" in svg and svg.count('font-weight="bold"') == puzzle.num_givens
    assert svg.count("stroke-dasharray") == len(puzzle.cages)


def test_a_result_shows_its_status_and_the_solved_grid() -> None:
    puzzle = parse_puzzle(LINE_4X4)
    result = registry.solve("mrv", puzzle, max_solutions=2)
    html = result._repr_html_()
    assert "solved (unique)" in html and result.puzzle is puzzle
    svg = html[html.index("<svg"):]
    assert drawn_values(svg) == [str(v) for v in result.solutions[0]]
    assert svg.count('font-weight="bold"') == puzzle.num_givens  # the givens apart from the rest


def test_a_result_without_its_puzzle_shows_its_status_only() -> None:
    from solvers.result import Result, Status
    assert Result(Status.UNSAT, complete=True)._repr_html_().startswith("<p><b>unsat")


def test_a_trace_shows_the_grid_it_ends_on_coloured_by_how() -> None:
    puzzle = parse_puzzle(LINE_4X4)
    trace = Trace()
    result = backtrack.solve(Model.from_puzzle(puzzle), trace=trace)
    values, how = final_cells(trace.events)
    assert tuple(values) == result.solutions[0] and "decision" in how
    html = trace._repr_html_()
    decisions = sum(1 for e in trace.events if e["kind"] == "decide")
    assert f"{decisions} decisions" in html and "solved" in html
    assert html.count("#ffd9a8") == how.count("decision") + 1  # each decision cell, and the key


@pytest.mark.slow
def test_the_tour_notebook_runs_and_draws() -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel", reason="the notebook runs in an IPython kernel")
    notebook = nbformat.read(ROOT / "docs" / "tour.ipynb", as_version=4)
    nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(ROOT / "docs")}}).execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    shown = [next(iter(set(o.get("data", {})) - {"text/plain"}), "") for o in outputs
             if o.output_type == "execute_result"]
    # the puzzle, two results, the trace and the tree: each drawn, not a repr
    assert shown == ["image/svg+xml", "text/html", "text/html", "text/html", "image/svg+xml"]
    tree = outputs[-1]["data"]["image/svg+xml"]
    assert ET.fromstring(tree).iter(f"{SVG}path") and 'class="node decision' in tree
