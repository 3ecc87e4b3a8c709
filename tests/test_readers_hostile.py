"""The readers against hostile input: random bytes, mutated real files, bad bytes, endless
lines, grids with a row missing, FIFOs and process substitution. Every outcome is puzzles
plus located errors, never an exception, and one bad line costs only its own puzzle."""
from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models import (
    EncodingError,
    LayoutError,
    LineLengthError,
    PuzzleError,
    check_duplicates,
    read_puzzles,
    read_text,
    to_grid,
)
from models.lines import MAX_LINE_BYTES, MAX_SKIP_BYTES

from .conftest import ROOT, compare, compare_here

PUZZLES = ROOT / "puzzles"
SAMPLES = ["small_4x4.txt", "seeds_grid.txt", "jigsaw.txt", "malformed.txt", "malformed_grid.txt",
           "x_sudoku.txt", "special_9x9_valid_edge_cases.txt", "16x16_gecode_janko.txt"]
SAMPLE_BYTES = {name: (PUZZLES / name).read_bytes() for name in SAMPLES}


def read_bytes(data: bytes, **options: object):
    return read_puzzles(io.BufferedReader(io.BytesIO(data)), **options)  # type: ignore[arg-type]  # a raw byte stream, as from a pipe


def assert_sound(batch, data: bytes) -> None:
    """Puzzles that hold no duplicate, errors that say where, nothing else."""
    lines = data.count(b"\n") + data.count(b"\r") + 1
    for puzzle in batch.puzzles:
        check_duplicates(puzzle)
        assert 1 <= puzzle.source.line <= lines
    for error in batch.errors:
        assert isinstance(error, PuzzleError)
        assert 1 <= error.line <= lines, error
        assert str(error).startswith(f"{batch.name}, line {error.line}: "), error


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=600), st.sampled_from(["auto", "line", "grid"]))
def test_random_bytes_give_puzzles_and_located_errors(data: bytes, fmt: str) -> None:
    assert_sound(read_bytes(data, fmt=fmt), data)


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """A real puzzle file with a few bytes replaced, inserted or deleted, or lines dropped."""
    data = bytearray(SAMPLE_BYTES[draw(st.sampled_from(SAMPLES))])
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["replace", "insert", "delete", "drop line", "repeat line"]))
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if kind == "replace" and data:
            data[at] = draw(st.integers(0, 255))
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=4))
        elif kind == "delete" and data:
            del data[at:at + draw(st.integers(1, 4))]
        else:
            lines = bytes(data).split(b"\n")
            row = at % len(lines)
            lines[row:row + 1] = [] if kind == "drop line" else [lines[row]] * 2
            data = bytearray(b"\n".join(lines))
    return bytes(data)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(), st.sampled_from(["auto", "line", "grid"]), st.booleans())
def test_mutated_real_files_give_puzzles_and_located_errors(data: bytes, fmt: str, hex16: bool) -> None:
    assert_sound(read_bytes(data, fmt=fmt, hex16=hex16), data)


# ---------------------------------------------------------------- one bad line, one error

def test_a_bad_byte_is_an_error_for_its_line_only() -> None:
    data = b".3.....4.1.....1\n.....1.2..3..\xff.1\n.1.....4...3.4..\n"
    batch = read_bytes(data)
    assert len(batch.puzzles) == 2 and [p.source.line for p in batch.puzzles] == [1, 3]
    (error,) = batch.errors
    assert isinstance(error, EncodingError)
    assert (error.line, error.column) == (2, 14)
    assert "invalid UTF-8 byte 0xff at column 14" in str(error)


def test_a_bad_byte_inside_a_grid_costs_that_grid_only() -> None:
    grid = "1 2 . .\n. . 1 2\n2 1 . .\n. . 2 1\n"
    data = grid.encode() + b"\n" + grid.replace("2 1 . .", "2 \xc3 . .").encode("latin-1") + b"\n" + grid.encode()
    batch = read_bytes(data)
    assert [p.source.line for p in batch.puzzles] == [1, 11]
    (error,) = batch.errors
    assert isinstance(error, EncodingError) and error.line == 8


def test_an_endless_line_is_refused_without_reading_it_all() -> None:
    class Endless(io.RawIOBase):
        read_so_far = 0

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: bytearray) -> int:
            buffer[:] = b"\0" * len(buffer)
            self.read_so_far += len(buffer)
            return len(buffer)

    stream = Endless()
    batch = read_puzzles(io.BufferedReader(stream))  # type: ignore[arg-type]  # a raw byte stream, as from a pipe
    (error,) = batch.errors
    assert isinstance(error, LineLengthError) and error.line == 1
    assert stream.read_so_far < MAX_SKIP_BYTES + 4 * MAX_LINE_BYTES + 200_000


def test_a_long_line_is_an_error_and_the_next_line_is_read() -> None:
    data = b"#" + b"x" * (MAX_LINE_BYTES + 10) + b"\n.3.....4.1.....1\n"
    batch = read_bytes(data)
    assert [p.source.line for p in batch.puzzles] == [2]
    assert [type(e) for e in batch.errors] == [LineLengthError]


def test_consecutive_grids_with_a_row_missing_are_never_stitched() -> None:
    grids = [to_grid(p).splitlines() for p in read_puzzles(PUZZLES / "top95.txt").puzzles[:3]]
    text = "\n".join(grids[0] + grids[1][:4] + grids[1][5:] + grids[2]) + "\n\n" + "\n".join(grids[0]) + "\n"
    batch = read_text(text)
    (error,) = batch.errors
    assert isinstance(error, LayoutError) and "where whole grids of 9 rows were expected" in str(error)
    whole = {tuple(to_grid(p).splitlines()) for p in batch.puzzles}
    assert tuple(grids[2]) in whole and tuple(grids[0]) in whole  # the last grid and the next puzzle
    assert all(tuple(to_grid(p).splitlines()) in {tuple(g) for g in grids} for p in batch.puzzles)


def test_consecutive_whole_grids_are_read_one_by_one() -> None:
    grids = [to_grid(p) for p in read_puzzles(PUZZLES / "top95.txt").puzzles[:3]]
    batch = read_text("\n".join(grids) + "\n")
    assert not batch.errors and [to_grid(p) for p in batch.puzzles] == grids


# ---------------------------------------------------------------- paths, through compare.py


@pytest.mark.slow
def test_a_bad_byte_in_one_file_leaves_the_other_files_whole(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b".3.....4.1.....1\n.....1.2..3..\xff.1\n")
    done = compare("run", str(bad), str(PUZZLES / "small_4x4.txt"), "--solvers", "mrv", "--format", "csv")
    assert done.returncode == 2, done.stderr
    assert f"{bad}, line 2: invalid UTF-8 byte 0xff at column 14" in done.stderr
    rows = {line.split(",")[0]: line.split(",")[4] for line in done.stdout.splitlines()[1:]}
    assert rows == {str(bad): "1", str(PUZZLES / "small_4x4.txt"): "4"}


@pytest.mark.slow
def test_stdin_of_zeros_is_bad_input_not_a_crash() -> None:
    with open("/dev/zero", "rb") as zeros:
        done = compare("run", "-", "--solvers", "mrv", stdin=zeros)
    assert done.returncode == 2
    assert "<stdin>, line 1: more than" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["directory", "missing"])
def test_paths_that_are_no_file_say_what_they_are(tmp_path: Path, kind: str) -> None:
    path = tmp_path if kind == "directory" else tmp_path / "nothing.txt"
    done = compare_here("run", str(path), "--solvers", "mrv")
    assert done.returncode == 2
    assert ("is a directory" if kind == "directory" else "no such file") in done.stderr


def test_an_unreadable_path_says_permission_denied(tmp_path: Path, monkeypatch) -> None:
    from solvers.harness.commands import common
    path = tmp_path / "locked.txt"
    path.write_text(".3.....4.1.....1\n")
    monkeypatch.setattr(common.os, "access", lambda *_args: False)
    with pytest.raises(common.UsageError, match="permission denied"):
        common.read_inputs([str(path)], "auto", False)


@pytest.mark.slow
def test_process_substitution_and_a_fifo_are_read(tmp_path: Path) -> None:
    command = (f"{sys.executable} compare.py run <(cat {PUZZLES / 'small_4x4.txt'}) "
               "--solvers mrv --format csv")
    done = subprocess.run(["bash", "-c", command], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1].split(",")[4] == "4"
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    process = subprocess.Popen([sys.executable, str(ROOT / "compare.py"), "run", str(fifo),
                                "--solvers", "mrv", "--format", "csv"], cwd=ROOT, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    with open(fifo, "wb") as writer:  # opens once compare.py is reading
        writer.write((PUZZLES / "small_4x4.txt").read_bytes())
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert out.splitlines()[1].split(",")[4] == "4"


@pytest.mark.slow
def test_the_layout_caches_stay_bounded_over_many_jigsaws() -> None:
    import random

    from models import Model, Puzzle
    from models.geometry import Geometry
    from models.model import CACHED_LAYOUTS, _groups_for, _tables
    from solvers.generate.generator import random_regions

    rng = random.Random(3)
    geometry = Geometry.for_size(6)
    for _ in range(CACHED_LAYOUTS + 40):
        assert Model.from_puzzle(Puzzle(geometry, (0,) * 36, regions=random_regions(6, rng))).peers  # built
    assert _groups_for.cache_info().currsize == CACHED_LAYOUTS  # full, and no fuller
    assert _tables.cache_info().currsize == CACHED_LAYOUTS
