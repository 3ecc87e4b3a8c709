"""Every size the model allows, in every command (issue 39, item 5): grids of side 36 to 64
have no single-character symbols, so their values are named by their numbers in words and
pictures (values 1-35 keep 1-9, A-Z at every size), a format that cannot hold them is refused
before any work (exit 2), and nothing ends in an IndexError."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from models import Model, parse_puzzle, read_puzzles, read_text, to_record
from models.geometry import MAX_SIZE
from models.symbols import MAX_SYMBOL_SIZE, SYMBOLS, symbol
from solvers.encodings.cnf import ENCODINGS, clause_count, encode
from solvers.harness import cli
from solvers.harness.commands import export
from solvers.harness.pictures.replay_page import page_data
from solvers.trace import read_trace

from .conftest import PUZZLES, ROOT, compare, compare_here

HOLES = {(0, 0), (1, 1), (2, 2), (3, 5), (17, 30)}


def latin_text(n: int) -> str:
    """A cyclic n x n Latin square with five holes, as a grid of integers under variant=latin."""
    rows = [[(r + c) % n + 1 for c in range(n)] for r in range(n)]
    return "variant=latin\n" + "\n".join(
        " ".join("0" if (r, c) in HOLES else str(v) for c, v in enumerate(row))
        for r, row in enumerate(rows)) + "\n"


@pytest.fixture(scope="module")
def latin36(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("large") / "latin36.txt"
    path.write_text(latin_text(36))
    return path


def test_every_value_up_to_64_has_one_name() -> None:
    names = [symbol(v) for v in range(1, MAX_SIZE + 1)]
    assert names[:MAX_SYMBOL_SIZE] == list(SYMBOLS)
    assert names[MAX_SYMBOL_SIZE:] == [str(v) for v in range(MAX_SYMBOL_SIZE + 1, MAX_SIZE + 1)]
    assert len(set(names)) == MAX_SIZE and symbol(0) == "."


@pytest.mark.parametrize("n", [36, 64])
def test_a_grid_past_the_symbols_is_recorded_in_integers(n: int) -> None:
    puzzle = parse_puzzle(latin_text(n))
    text = to_record(puzzle)
    assert text.split()[:3] == ["0", "2", "3"] and text.endswith("variant=latin")
    assert len(text.split()) == n * n + 1


@pytest.mark.parametrize("command", ["explain", "rate", "tree"])
def test_a_teaching_command_handles_a_36x36_grid(latin36: Path, tmp_path: Path, command: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = ["-o", str(tmp_path / "tree.svg")] if command == "tree" else []
    assert cli.main([command, str(latin36), *out]) == 0
    assert "Error" not in capsys.readouterr().err


def test_rate_saves_a_36x36_puzzle_in_integers(latin36: Path, tmp_path: Path) -> None:
    saved = tmp_path / "rate.json"
    assert cli.main(["rate", str(latin36), "--json", str(saved)]) == 0
    (record,) = json.loads(saved.read_text())["puzzles"]
    assert record["puzzle"].split()[:2] == ["0", "2"]


def test_an_explained_36x36_trace_replays(latin36: Path, tmp_path: Path) -> None:
    trace, page = tmp_path / "t.jsonl", tmp_path / "t.html"
    assert cli.main(["explain", str(latin36), "--trace", str(trace)]) == 0
    assert cli.main(["replay", str(trace), "-o", str(page)]) == 0
    symbols = page_data(read_trace(trace)[0])["symbols"]
    assert symbols[9] == "A" and symbols[35] == "36"  # the page names 36 by its number


@pytest.mark.slow  # drawing 1,296 cells is 2.5 s of CPU a picture; the svg writer is tested on 9x9-16x16
def test_render_draws_a_36x36_grid(latin36: Path, tmp_path: Path) -> None:
    picture = tmp_path / "grid.png"
    assert cli.main(["render", str(latin36), "-o", str(picture)]) == 0
    assert picture.stat().st_size > 0


@pytest.mark.slow  # two launches and a 36x36 solved in a worker: about 5 s
def test_solve_refuses_line_format_for_a_36x36_before_solving_and_takes_grid(latin36: Path) -> None:
    refused = compare_here("solve", str(latin36), "--format", "line")
    assert refused.returncode == 2
    assert "36x36 solution has no line format" in refused.stderr and "--format grid" in refused.stderr
    assert refused.stdout == ""  # nothing was solved
    done = compare("solve", str(latin36), "--format", "grid")
    assert done.returncode == 0, done.stderr
    assert "36  1  2" in done.stdout


def test_the_reader_takes_a_64x64_latin_square_and_refuses_65() -> None:
    good = read_text(latin_text(64))
    assert not good.errors and good.puzzles[0].n == 64
    assert read_text(latin_text(65)).errors[0].kind == "invalid size"


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("name", ["small_4x4.txt", "jigsaw.txt", "x_sudoku.txt", "generated_qwh_15x15.txt",
                                  "special_9x9_multiple_solutions.txt"])
def test_the_clause_count_is_the_number_of_clauses_the_encoding_makes(name: str, encoding: str) -> None:
    model = Model.from_puzzle(read_puzzles(PUZZLES / name).puzzles[0])
    assert clause_count(model, encoding) == len(encode(model, encoding, cages=False).clauses)


def test_export_refuses_a_cnf_larger_than_the_memory_left_before_building_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "empty36.txt"
    path.write_text("variant=latin\n" + "\n".join(" ".join(["0"] * 36) for _ in range(36)) + "\n")
    monkeypatch.setattr(export, "memory_left", lambda: 100 * 2 ** 20)
    monkeypatch.setattr(export, "export_dimacs", lambda *args: pytest.fail("the CNF was built"))
    assert cli.main(["export", str(path), "-o", str(tmp_path / "p.cnf")]) == 2
    err = capsys.readouterr().err
    assert f"its simplified CNF has {36 * 36 * (1 + 630) + 72 * 36 * (1 + 630):,} clauses" in err
    assert "--format minizinc" in err and not (tmp_path / "p.cnf").exists()


@pytest.mark.slow
def test_a_64x64_latin_cnf_under_a_2_gib_cap_is_exit_2_naming_its_size(tmp_path: Path) -> None:
    path = tmp_path / "empty64.txt"
    path.write_text("variant=latin\n" + "\n".join(" ".join(["0"] * 64) for _ in range(64)) + "\n")
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30)); "
            "from solvers.harness import cli; sys.exit(cli.main(sys.argv[1:]))")
    done = subprocess.run([sys.executable, "-c", code, "export", str(path), "-o", str(tmp_path / "p.cnf")],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 2, done.stderr
    assert "its simplified CNF has 24,784,896 clauses" in done.stderr
