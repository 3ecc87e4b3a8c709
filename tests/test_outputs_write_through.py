"""Outputs are written through to what the path names (issue 28): a regular file or a link to
one is replaced atomically in the target's own folder (the link stays a link, also onto another
filesystem), a character device or a FIFO is written directly and never replaced, a full
device is exit 2. The devices are ``mknod`` copies of /dev/null and /dev/full in a temporary
folder (root only), never the real ones."""
from __future__ import annotations

import os
import re
import socket
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from solvers.harness import cli
from solvers.harness.results.outputs import (
    OutputError,
    OutputWriteError,
    atomic_path,
    check_output_paths,
    write_atomic,
)
from tests.conftest import PUZZLES, ROOT, compare

SMALL = str(PUZZLES / "small_4x4.txt")
root_only = pytest.mark.skipif(os.geteuid() != 0, reason="mknod of a character device needs root")


def device(folder: Path, name: str, minor: int) -> Path:
    """A copy of /dev/null (minor 3) or /dev/full (minor 7) in ``folder``."""
    path = folder / name
    os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
    return path


def is_device(path: Path) -> bool:
    return stat.S_ISCHR(os.lstat(path).st_mode)


@pytest.fixture
def other_filesystem(tmp_path: Path) -> Iterator[Path]:
    """A folder on a filesystem other than tmp_path's (/dev/shm, a tmpfs), removed after."""
    shm = Path("/dev/shm")
    if not shm.is_dir() or os.stat(shm).st_dev == os.stat(tmp_path).st_dev:
        pytest.skip("no /dev/shm on another filesystem here")
    folder = shm / f"outputs-test-{os.getpid()}-{tmp_path.name}"
    folder.mkdir()
    yield folder
    for item in folder.iterdir():
        item.unlink()
    folder.rmdir()


# ------------------------------------------------------------------ the function itself

def test_a_link_to_a_regular_file_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    target = tmp_path / "real.json"
    target.write_text("old")
    target.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(target.name)
    write_atomic(str(link), "new")
    assert link.is_symlink() and os.readlink(link) == "real.json"
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the replaced file's permissions kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real.json"]  # no temporary left


def test_a_link_onto_another_filesystem_is_written_there(tmp_path: Path, other_filesystem: Path) -> None:
    target = other_filesystem / "far.csv"
    target.write_text("old")
    link = tmp_path / "near.csv"
    link.symlink_to(target)
    write_atomic(str(link), "new")
    assert link.is_symlink() and target.read_text() == "new"
    assert [p.name for p in other_filesystem.iterdir()] == ["far.csv"]


def test_a_failed_write_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "keep.txt"
    target.write_text("old")
    with pytest.raises(RuntimeError), atomic_path(str(target)) as temporary:
        Path(temporary).write_text("half")
        raise RuntimeError("stopped midway")
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_a_fifo_is_written_directly_to_its_reader(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    write_atomic(str(fifo), "through the pipe\n")
    reader.join(timeout=30)
    assert received == [b"through the pipe\n"]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@root_only
def test_a_null_device_is_written_and_stays_a_device(tmp_path: Path) -> None:
    null = device(tmp_path, "null", 3)
    write_atomic(str(null), "gone")
    assert is_device(null) and [p.name for p in tmp_path.iterdir()] == ["null"]


@root_only
def test_a_full_device_is_a_write_error_saying_no_space(tmp_path: Path) -> None:
    full = device(tmp_path, "full", 7)
    with pytest.raises(OutputWriteError, match="No space left on device") as raised:
        write_atomic(str(full), "x" * 100_000)
    assert str(full) in str(raised.value) and is_device(full)


def test_a_socket_or_a_folder_is_refused_before_anything_runs(tmp_path: Path) -> None:
    os.chdir(tmp_path)  # a short socket path (AF_UNIX paths are limited to ~100 bytes)
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind("sock")
        with pytest.raises(OutputError, match="is a socket"):
            check_output_paths(["sock"], [])
    with pytest.raises(OutputError, match="is a directory"):
        check_output_paths([str(tmp_path)], [])


# ------------------------------------------------------------------ through the command line

@pytest.mark.slow
@root_only
def test_run_writes_json_to_a_null_device_and_csv_through_a_far_link(tmp_path: Path,
                                                                     other_filesystem: Path) -> None:
    null = device(tmp_path, "null", 3)
    far = other_filesystem / "runs.csv"
    (tmp_path / "runs.csv").symlink_to(far)
    done = compare("run", SMALL, "--solvers", "mrv", "--timeout", "5", "--json", "null",
                   "--csv", "runs.csv", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert is_device(null)
    assert (tmp_path / "runs.csv").is_symlink() and far.read_text().startswith("file,index")


@pytest.mark.slow
@root_only
def test_export_to_a_full_device_is_exit_2_saying_no_space(tmp_path: Path) -> None:
    full = device(tmp_path, "full", 7)
    done = compare("export", SMALL, "-o", "full", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "cannot write full: No space left on device" in done.stderr
    assert "internal error" not in done.stderr and is_device(full)


WRITERS = {  # command line (FAR is the output path, TRACE a trace of SMALL) -> how the file starts
    "export -o": (["export", SMALL, "-o", "FAR"], "c "),
    "generate -o": (["generate", "--size", "4", "--count", "1", "--seed", "1", "-o", "FAR"], ""),
    "explain --trace": (["explain", SMALL, "--solver", "mrv", "--trace", "FAR"], "{"),
    "replay -o": (["replay", "TRACE", "-o", "FAR"], "<!DOCTYPE html>"),
    "render -o (svg)": (["render", SMALL, "--solver", "mrv", "-o", "FAR"], "<?xml"),
}


@pytest.mark.parametrize("writer", [pytest.param(w, marks=pytest.mark.slow) if w.startswith("render") else w
                                    for w in sorted(WRITERS)])
def test_every_output_option_writes_through_a_link_onto_another_filesystem(
        writer: str, tmp_path: Path, other_filesystem: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if writer.startswith("render"):
        pytest.importorskip("matplotlib")
    args, start = WRITERS[writer]
    far = other_filesystem / "out.svg"
    far.write_text("old")
    link = tmp_path / "out.svg"
    link.symlink_to(far)
    trace = tmp_path / "trace.jsonl"
    if "TRACE" in args:
        assert cli.main(["explain", SMALL, "--solver", "mrv", "--trace", str(trace)]) == 0
    named = {"FAR": str(link), "TRACE": str(trace)}
    assert cli.main([named.get(a, a) for a in args]) == 0, capsys.readouterr().err
    assert link.is_symlink() and far.read_text() != "old" and far.read_text().startswith(start)


WRITE_CALL = re.compile(r"""open\([^)]*["'][wax]b?["']|\.write_(text|bytes)\(|savefig\(|os\.replace\(""")


def test_every_writer_of_the_harness_goes_through_atomic_path() -> None:
    """Every write to a file in the harness sits in a ``with atomic_path(...)`` (or is
    write_atomic): a new writer that opens its output itself fails here."""
    harness = ROOT / "solvers" / "harness"
    stray = []
    for module in harness.rglob("*.py"):
        if module.name == "outputs.py":
            continue
        lines = module.read_text().splitlines()
        for number, line in enumerate(lines):
            if WRITE_CALL.search(line) and not any("atomic_path(" in above
                                                   for above in lines[max(0, number - 2):number + 1]):
                stray.append(f"{module.relative_to(ROOT)}:{number + 1}: {line.strip()}")
    # not outputs: the kernel's /proc files, and a standard stream's own descriptor reopened
    assert not [s for s in stray if "/proc/" not in s and "closefd=False" not in s], stray


# ------------------------------------------------------------------ an open descriptor as the path

def test_json_to_dev_stdout_reaches_a_pipe_and_follows_the_table_in_a_file(tmp_path: Path) -> None:
    # /dev/stdout names the process's own stdout: a pipe has no name a real path could reach,
    # and a file the shell opened (> out.txt) gets the JSON after the table, not over it
    piped = compare("run", SMALL, "--solvers", "mrv", "--json", "/dev/stdout")
    assert piped.returncode == 0, piped.stderr
    table, _, document = piped.stdout.partition("\n{")
    assert "configuration" in table and '"kind": "sudoku-methods-run"' in document
    out = tmp_path / "out.txt"
    with open(out, "w") as stdout:
        to_file = subprocess.run([sys.executable, str(ROOT / "compare.py"), "run", SMALL, "--solvers", "mrv",
                                  "--json", "/dev/stdout"], stdout=stdout, stderr=subprocess.PIPE,
                                 text=True, timeout=300, check=False)
    assert to_file.returncode == 0, to_file.stderr
    table, _, document = out.read_text().partition("\n{")
    assert "configuration" in table and '"kind": "sudoku-methods-run"' in document
    assert not out.is_symlink() and len(list(tmp_path.iterdir())) == 1  # no temporary left beside it
