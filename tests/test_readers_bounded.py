"""Readers bounded everywhere (issue 28): the puzzle reader on the inputs that crashed it or
stopped it early ('|' before a grid, a '²1' token, random bytes, a line of megabytes, endless
input), ``decode``'s answers and CNFs (size caps, contradictory status lines) and replay's
traces (wrong field types, size). Each is a located error with exit 2, never exit 3, and the
good puzzles around a bad line are kept."""
from __future__ import annotations

import io
import json
import os
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models import CellCountError, LineLengthError, PuzzleError, read_puzzles, read_text
from models.formats import MAX_BAD_IN_A_ROW
from models.lines import MAX_SKIP_BYTES
from solvers.harness import cli
from solvers.harness.commands.decode import MAX_ANSWER_BYTES, MAX_CNF_BYTES
from solvers.harness.pictures.replay_page import page_data
from solvers.trace import TraceError, read_trace

from .conftest import PUZZLES, compare

GOOD_4X4 = (PUZZLES / "small_4x4.txt").read_text().splitlines()[-1]
GRID_4X4 = "1 . . .\n. . . 1\n. 1 . .\n. . 1 .\n"


def test_a_bar_line_before_a_grid_is_its_own_error_and_the_grid_is_read() -> None:
    batch = read_text("|\n" + GRID_4X4)
    (error,) = batch.errors
    assert isinstance(error, CellCountError) and error.line == 1 and "'|'" in str(error)
    assert [p.source.line for p in batch.puzzles] == [2]


@pytest.mark.parametrize("text", ["²1 . . .\n. . . .\n. . . .\n. . . .\n", "١٢ . . .\n. . . .\n. . . .\n. . . .\n"],
                         ids=["superscript-two", "arabic-indic-digits"])
def test_a_token_of_unicode_digits_is_a_located_bad_cell(text: str) -> None:
    batch = read_text(text + "\n" + GRID_4X4)
    (error,) = batch.errors
    assert error.line == 1 and (error.row, error.column) == (1, 1) and "bad cell" in str(error)
    assert [p.source.line for p in batch.puzzles] == [6]


@pytest.mark.parametrize("seed", range(4))
def test_random_bytes_between_good_puzzles_keep_every_good_puzzle(seed: int) -> None:
    noise = random.Random(seed).randbytes(20_000)
    for end in (b"\n", b"\r", b"#"):  # no line end in the noise, and no comment
        noise = noise.replace(end, b"x")
    lines = [noise[i:i + 300] for i in range(0, len(noise), 300)]
    data = b"".join(line + b"\n" + GOOD_4X4.encode() + b"\n" for line in lines)
    batch = read_puzzles(io.BytesIO(data))
    assert len(batch.puzzles) == len(lines)  # the good one after each line of noise
    assert [p.source.line for p in batch.puzzles] == list(range(2, 2 * len(lines) + 1, 2))
    assert len(batch.errors) == len(lines)
    assert all(isinstance(e, PuzzleError) and e.line % 2 == 1 for e in batch.errors)


def test_a_3_mib_line_is_one_error_and_the_lines_after_it_are_read(tmp_path: Path) -> None:
    path = tmp_path / "long.txt"
    path.write_bytes(b"1" * (3 << 20) + b"\n" + GOOD_4X4.encode() + b"\n")
    batch = read_puzzles(path)
    (error,) = batch.errors
    assert isinstance(error, LineLengthError) and error.line == 1 and "3,145,728 bytes" in str(error)
    assert [p.source.line for p in batch.puzzles] == [2]


class Endless(io.RawIOBase):
    """A stream that never ends (as /dev/zero or /dev/urandom), counting what it gave."""

    def __init__(self, make: object) -> None:
        self.make, self.given = make, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]  # RawIOBase's buffer
        data = self.make(len(buffer))  # type: ignore[operator]  # a function of the size
        buffer[:len(data)] = data
        self.given += len(data)
        return len(data)


def test_endless_input_without_line_ends_is_given_up_after_the_cap() -> None:
    stream = Endless(bytes)
    batch = read_puzzles(io.BufferedReader(stream, 1 << 20))  # type: ignore[arg-type]  # a raw stream
    (error,) = batch.errors
    assert isinstance(error, LineLengthError) and "the rest is not read" in str(error)
    assert MAX_SKIP_BYTES < stream.given < MAX_SKIP_BYTES + (4 << 20)


@pytest.mark.slow
def test_endless_random_lines_are_given_up_after_a_run_of_bad_puzzles() -> None:
    noise = random.Random(7)
    stream = Endless(noise.randbytes)
    batch = read_puzzles(io.BufferedReader(stream))  # type: ignore[arg-type]  # a raw stream
    assert not batch.puzzles and len(batch.errors) == MAX_BAD_IN_A_ROW + 1
    assert "bad puzzles in a row: the rest is not read" in str(batch.errors[-1])
    assert stream.given < 50 << 20


@pytest.mark.slow
def test_run_on_random_bytes_keeps_the_good_puzzles_and_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "noise.txt"
    path.write_bytes(random.Random(3).randbytes(3000) + b"\n|\n" + GRID_4X4.encode()
                     + "\n²1..............\n".encode() + GOOD_4X4.encode() + b"\n")
    done = compare("run", str(path), "--solvers", "mrv", "--format", "csv", "--timeout", "5")
    assert done.returncode == 2, done.stderr
    assert "internal error" not in done.stderr and f"{path}, line " in done.stderr
    assert done.stdout.splitlines()[1].split(",")[4] == "2"  # the grid and the line puzzle


# ---------------------------------------------------------------- decode: answers and CNFs

@pytest.fixture
def exported_cnf(tmp_path: Path) -> Path:
    path = tmp_path / "p.cnf"
    assert cli.main(["export", str(PUZZLES / "small_4x4.txt"), "-o", str(path)]) == 0
    return path


@pytest.mark.parametrize("which", ["answer", "cnf"])
def test_decode_of_an_endless_file_stops_at_its_cap_with_exit_2(which: str, exported_cnf: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    answer, cnf = ("/dev/zero", str(exported_cnf)) if which == "answer" else (os.devnull, "/dev/zero")
    cap = MAX_ANSWER_BYTES if which == "answer" else MAX_CNF_BYTES
    assert cli.main(["decode", answer, "--cnf", cnf]) == 2
    assert f"/dev/zero: more than {cap:,} bytes: too large for" in capsys.readouterr().err


@pytest.mark.parametrize("answer, said", [
    ("s SATISFIABLE\nv 1 0\ns UNSATISFIABLE\n", "line 3: the solver's status UNSATISFIABLE contradicts "
                                                 "its status SATISFIABLE on line 1"),
    ("s UNSATISFIABLE\nv 1 2 3 0\n", "line 2: the solver says UNSATISFIABLE (line 1) but gives a model"),
    ("SAT\nUNSAT\n", "line 2: the solver's status UNSAT contradicts its status SATISFIABLE"),
], ids=["sat-then-unsat", "unsat-with-a-model", "minisat-sat-then-unsat"])
def test_decode_of_contradictory_status_lines_is_exit_2(answer: str, said: str, exported_cnf: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = exported_cnf.with_name("answer.txt")
    path.write_text(answer)
    assert cli.main(["decode", str(path), "--cnf", str(exported_cnf)]) == 2
    assert f"answer.txt: {said}" in capsys.readouterr().err


@pytest.mark.slow
def test_decode_through_the_command_line_refuses_an_endless_cnf(exported_cnf: Path) -> None:
    done = compare("decode", str(exported_cnf), "--cnf", "/dev/zero")
    assert done.returncode == 2 and "too large for a CNF" in done.stderr, done.stderr


# ---------------------------------------------------------------- replay: traces

@pytest.fixture(scope="module")
def trace_lines(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """A real trace (explain --trace, mrv on a 9x9 puzzle with decisions), one JSON event a line."""
    path = tmp_path_factory.mktemp("trace") / "t.jsonl"
    puzzle = PUZZLES / "special_9x9_multiple_solutions.txt"
    assert cli.main(["explain", str(puzzle), "--solver", "mrv", "--trace", str(path)]) == 0
    return path.read_text().splitlines()


def _edited(lines: list[str], kind: str, key: str, value: object) -> tuple[list[str], int]:
    """The trace with ``key`` of its first ``kind`` event set to ``value``, and that line's number."""
    number = next(i for i, line in enumerate(lines) if json.loads(line)["kind"] == kind)
    event = json.loads(lines[number])
    event[key] = value
    return [*lines[:number], json.dumps(event), *lines[number + 1:]], number + 1


@pytest.mark.parametrize("kind, key, value, said", [
    ("place", "cell", "3", "place event's cell must be an integer, not \"3\""),
    ("place", "value", [1], "place event's value must be an integer, not [1]"),
    ("start", "givens", {"a": 1}, "start event's givens must be a list of integers"),
    ("start", "diagonals", 1, "start event's diagonals must be true or false, not 1"),
    ("decide", "alternatives", [[0]], "decide event's alternatives must be a list of [cell, value] pairs"),
    ("place", "rule", None, "place event's rule must be a string, not null"),
    ("place", "cell", 81, "place event names a cell outside the 9x9 grid"),
    ("decide", "value", 10, "decide event names a value outside 1..9"),
    ("start", "n", 10, "the start event's n 10 is not box_rows x box_cols"),
    ("place", "kind", ["place"], "not a trace event"),
], ids=lambda x: x if isinstance(x, str) and " " not in x else None)
def test_replay_of_a_trace_with_a_wrong_field_is_exit_2_naming_the_line(
        kind: str, key: str, value: object, said: str, trace_lines: list[str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    lines, number = _edited(trace_lines, kind, key, value)
    trace = tmp_path / "bad.jsonl"
    trace.write_text("\n".join(lines) + "\n")
    assert cli.main(["replay", str(trace), "-o", str(tmp_path / "page.html")]) == 2
    err = capsys.readouterr().err
    assert f"bad.jsonl, line {number}: " in err and said in err, err
    assert not (tmp_path / "page.html").exists()


def test_replay_of_a_trace_without_line_ends_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = tmp_path / "endless.jsonl"
    trace.write_bytes(b'{"kind": "start", "x": "' + b"x" * (2 << 20))
    assert cli.main(["replay", str(trace), "-o", str(tmp_path / "page.html")]) == 2
    assert "endless.jsonl, line 1: line of 2,097,1" in capsys.readouterr().err


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_any_edited_trace_is_read_whole_or_refused_with_a_trace_error(trace_lines: list[str],
                                                                       data: st.DataObject) -> None:
    lines = list(trace_lines)
    json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                               lambda inner: st.lists(inner, max_size=3)
                               | st.dictionaries(st.text(max_size=3), inner, max_size=2),
                               max_leaves=6)
    for _ in range(data.draw(st.integers(1, 3))):
        number = data.draw(st.integers(0, len(lines) - 1))
        event = json.loads(lines[number])
        event[data.draw(st.sampled_from([*event, "extra"]))] = data.draw(json_values)
        lines[number] = json.dumps(event)
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
        handle.write("\n".join(lines) + "\n")
    try:
        events, total = read_trace(handle.name, keep=50)
    except TraceError:
        return
    finally:
        os.unlink(handle.name)
    assert total == len(lines) and len(events) == min(50, total)
    page_data(events, 40)  # the page is made from any trace that was read
