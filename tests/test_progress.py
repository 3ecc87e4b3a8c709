"""Progress on stderr (solvers/harness/commands/progress.py): a total and the time left on a
terminal, even one that reports a width of 0; plain periodic lines when stderr is not a
terminal; never anything on stdout."""
from __future__ import annotations

import io
import os
import pty
import sys
from pathlib import Path

import pytest

from models import count_puzzles, iter_puzzles
from solvers.harness.commands.progress import FALLBACK_SIZE, Progress, count_runs, terminal_size

from .conftest import PUZZLES, compare, compare_here

LINES = ["1234" + "." * 12, "12", "." * 12 + "4321", "." * 16]  # 4x4 puzzles; the second is bad


@pytest.fixture
def small(tmp_path: Path) -> Path:
    path = tmp_path / "small.txt"
    path.write_text("# four puzzles, the second bad\n" + "\n".join(LINES) + "\n")
    return path


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


# -- counting up front ---------------------------------------------------------------------

@pytest.mark.parametrize("name", ["top95.txt", "seeds_grid.txt", "malformed.txt", "generated_killer_9x9.json",
                                  "x_sudoku.txt"])
def test_counting_gives_what_reading_gives(name: str) -> None:
    assert count_puzzles(PUZZLES / name) == sum(1 for _ in iter_puzzles(PUZZLES / name))


def test_runs_are_counted_per_puzzle_and_unknown_for_stdin(small: Path) -> None:
    assert count_runs([str(small)], "auto", False, per_puzzle=3) == 4 * 3
    assert count_runs([str(small), "-"], "auto", False, per_puzzle=3) is None


# -- a terminal ----------------------------------------------------------------------------

def test_a_terminal_of_width_0_still_shows_the_bar_with_its_total(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("COLUMNS", "LINES"):
        monkeypatch.delenv(name, raising=False)
    leader, follower = pty.openpty()  # a new pseudo-terminal reports 0 columns and 0 lines
    with os.fdopen(follower, "w") as terminal:
        assert tuple(os.get_terminal_size(follower)) == (0, 0)
        assert terminal_size(terminal) == FALLBACK_SIZE
        monkeypatch.setattr(sys, "stderr", terminal)  # tqdm sizes its own stderr from the terminal
        with Progress(10) as progress:
            progress.advance(3)
            terminal.flush()
            os.set_blocking(leader, False)
            shown = os.read(leader, 65536).decode()
    os.close(leader)
    first = shown.strip("\r").split("\r")[0]  # the bar as first drawn, before any update
    assert first.startswith("solving:") and "0/10" in first
    assert len(first) == FALLBACK_SIZE[0]  # not 0 wide, not a bare counter


# -- plain lines ---------------------------------------------------------------------------

def test_plain_lines_come_every_tenth_with_the_total_and_time_left() -> None:
    clock, out = Clock(), io.StringIO()
    with Progress(400, stream=out, clock=clock) as progress:
        for _ in range(400):
            clock.now += 0.25
            progress.advance()
    lines = out.getvalue().splitlines()
    assert len(lines) == 10
    assert lines[0] == "solving: 40/400 runs, 10%, about 1 min 30 s left"
    assert lines[2] == "solving: 120/400 runs, 30%, about 1 min 10 s left"
    assert lines[-1] == "solving: 400/400 runs, 100%, took 1 min 40 s"


def test_plain_lines_come_every_10_s_when_a_tenth_takes_longer() -> None:
    clock, out = Clock(), io.StringIO()
    with Progress(None, stream=out, clock=clock, what="ladder") as progress:
        for _ in range(25):
            clock.now += 1.0
            progress.advance()
    assert out.getvalue().splitlines() == ["ladder: 10 runs so far, 10 s", "ladder: 20 runs so far, 20 s",
                                           "ladder: 25 runs took 25 s"]


def test_work_taken_off_the_total_shows_in_the_line() -> None:
    clock, out = Clock(), io.StringIO()
    with Progress(10, stream=out, clock=clock) as progress:
        progress.shrink(6)
        for _ in range(4):
            clock.now += 1
            progress.advance()
    assert out.getvalue().splitlines()[-1] == "solving: 4/4 runs, 100%, took 4.0 s"


def test_no_progress_when_disabled() -> None:
    out = io.StringIO()
    with Progress(3, stream=out, enabled=False) as progress:
        progress.advance(3)
    assert out.getvalue() == ""


# -- through the real command line, stderr a pipe -------------------------------------------

def test_run_prints_plain_progress_with_the_total_on_stderr_only(small: Path) -> None:
    done = compare("run", str(small), "--solvers", "mrv,backtrack", "--format", "csv")
    assert done.returncode == 2, done.stderr  # the bad puzzle
    progress = [line for line in done.stderr.splitlines() if line.startswith("solving: ")]
    # 4 puzzles x 2 configurations counted up front, the bad one's 2 runs taken off when read
    assert progress and all(" runs, " in line and line.split("/")[1].startswith(("8 ", "6 "))
                            for line in progress), done.stderr
    assert progress[-1].startswith("solving: 6/6 runs, 100%, took ")
    assert "solving: " not in done.stdout and done.stdout.startswith("file,n,configuration,")


@pytest.mark.slow
def test_ladder_shows_progress_instead_of_silence(tmp_path: Path) -> None:
    path = tmp_path / "two.txt"
    path.write_text(LINES[0] + "\n" + LINES[2] + "\n")
    done = compare("ladder", str(path), "--timeout", "5")
    assert done.returncode == 0, done.stderr
    progress = [line for line in done.stderr.splitlines() if line.startswith("ladder: ")]
    assert progress and progress[-1].startswith("ladder: ") and ", 100%, took " in progress[-1]
    total = int(progress[-1].split("/")[1].split()[0])
    assert total % 2 == 0 and total >= 12  # two puzzles at each of at least six rungs
    assert "ladder:" not in done.stdout


@pytest.mark.slow
def test_generate_and_study_show_their_totals(tmp_path: Path) -> None:
    done = compare_here("generate", "--size", "4", "--count", "2", "--seed", "3")
    assert done.returncode == 0, done.stderr
    assert "generating: 2/2 puzzles, 100%, took " in done.stderr and "generating" not in done.stdout
    puzzles = tmp_path / "made.txt"
    puzzles.write_text(done.stdout)
    studied = compare("study", "consistency", str(puzzles), "--levels", "naked,singles")
    assert studied.returncode == 0, studied.stderr
    assert "study: 4/4 runs, 100%, took " in studied.stderr and "study:" not in studied.stdout
