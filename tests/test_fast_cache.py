"""fast's compiled kernels are cached outside the source tree and sealed (issue 39, item 6): a
cache file that is not sealed, or whose bytes changed since it was sealed, is removed before
numba can load it, and stderr says so."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from solvers.backends import _fast_cache

from .conftest import ROOT


def kernels(root: Path, *names: str) -> Path:
    """A cache folder of fast's kernels under ``root`` holding files of these names."""
    folder = _fast_cache.kernel_folder(root)
    folder.mkdir(parents=True)
    for name in names:
        (folder / name).write_bytes(name.encode() * 100)
    return folder


def test_sealed_files_pass_and_a_changed_or_unsealed_one_is_removed_saying_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = kernels(tmp_path, "_fast._kernel-1.py311.nbi", "_fast._kernel-1.py311.1.nbc")
    _fast_cache.seal(tmp_path)
    assert _fast_cache.verify(tmp_path) == []
    (folder / "_fast._kernel-1.py311.1.nbc").write_bytes(b"poisoned native code")
    (folder / "_fast_kernels.luby-9.py311.nbi").write_bytes(b"an index nobody sealed")
    removed = _fast_cache.verify(tmp_path)
    assert sorted(removed) == ["_fast._kernel-1.py311.1.nbc", "_fast_kernels.luby-9.py311.nbi"]
    assert [p.name for p in folder.iterdir() if p.suffix in (".nbi", ".nbc")] == ["_fast._kernel-1.py311.nbi"]
    err = capsys.readouterr().err
    assert "changed since fast wrote it: removed" in err and "is not one fast wrote: removed" in err


def test_a_damaged_seal_vouches_for_nothing(tmp_path: Path) -> None:
    folder = kernels(tmp_path, "_fast._kernel-1.py311.nbi")
    (folder / _fast_cache.SEAL).write_text("[not, json")
    assert _fast_cache.verify(tmp_path) == ["_fast._kernel-1.py311.nbi"]


def test_another_checkouts_kernels_and_other_files_are_left_alone(tmp_path: Path) -> None:
    kernels(tmp_path, "_fast._kernel-1.py311.nbi")
    _fast_cache.seal(tmp_path)
    other = tmp_path / "backends_0123456789abcdef"
    other.mkdir()
    (other / "_fast._kernel-1.py311.nbi").write_bytes(b"another checkout's own")
    (tmp_path / "notes.txt").write_text("not a cache file")
    assert _fast_cache.verify(tmp_path) == []
    assert (other / "_fast._kernel-1.py311.nbi").exists() and (tmp_path / "notes.txt").exists()


def test_the_cache_is_private_and_outside_the_source_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    from numba.core import config
    monkeypatch.setattr(config, "CACHE_DIR", config.CACHE_DIR)
    root = _fast_cache.use_private_cache()
    assert root == tmp_path / "xdg" / "sudoku-methods" / "numba"
    assert root.stat().st_mode & 0o777 == 0o700 and not root.is_relative_to(ROOT)
    assert os.environ["NUMBA_CACHE_DIR"] == str(root) == config.CACHE_DIR
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert _fast_cache.use_private_cache() == tmp_path / "mine"  # the user's choice is kept


@pytest.mark.slow
def test_a_poisoned_kernel_file_is_removed_and_fast_still_solves(tmp_path: Path) -> None:
    from models import Model, parse_puzzle
    from solvers import registry
    registry.get("fast").solve(Model.from_puzzle(parse_puzzle("12..34....43..21")))  # compiled, sealed
    real = _fast_cache.kernel_folder(_fast_cache.cache_root())
    copy = _fast_cache.kernel_folder(tmp_path)
    shutil.copytree(real, copy)
    luby = next(copy.glob("_fast_kernels.luby-*.nbi"))  # a one-line kernel: cheap to compile again
    luby.write_bytes(luby.read_bytes() + b"poison")
    code = ("from solvers import registry; from models import Model, parse_puzzle\n"
            "print(registry.get('fast').solve(Model.from_puzzle(parse_puzzle('12..34....43..21'))).status)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert "solved" in done.stdout
    assert f"fast: cache file {luby} changed since fast wrote it: removed" in done.stderr
    assert _fast_cache.verify(tmp_path) == []  # sealed again after the compile


def test_a_compile_under_way_elsewhere_keeps_its_new_files_and_a_stale_marker_is_cleared(tmp_path: Path) -> None:
    folder = kernels(tmp_path, "_fast._kernel-1.py311.nbi")
    _fast_cache.seal(tmp_path)
    (folder / f"{_fast_cache.MARKER}{os.getppid()}").touch()  # a live process compiling other kernels
    (folder / "_fast_bands._kernel-5.py311.nbi").write_bytes(b"its compile, not sealed yet")
    assert _fast_cache.verify(tmp_path) == []
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True)
    (folder / f"{_fast_cache.MARKER}{os.getppid()}").unlink()
    stale = folder / f"{_fast_cache.MARKER}{done.stdout.strip()}"  # its process has ended
    stale.touch()
    assert _fast_cache.verify(tmp_path) == ["_fast_bands._kernel-5.py311.nbi"]
    assert not stale.exists()


def test_compiling_verifies_before_and_seals_after_leaving_no_marker(tmp_path: Path) -> None:
    folder = kernels(tmp_path, "_fast._kernel-1.py311.nbi")
    with _fast_cache.compiling(tmp_path):
        assert not (folder / "_fast._kernel-1.py311.nbi").exists()  # unsealed: removed before loading
        (folder / "_fast._kernel-2.py311.nbi").write_bytes(b"compiled now")
    assert _fast_cache.verify(tmp_path) == [] and (folder / "_fast._kernel-2.py311.nbi").exists()
    assert not list(folder.glob(f"{_fast_cache.MARKER}*"))
