"""Hostile backends and hostile input, end to end through compare.py: each attack ends as an
error, timeout or memory-out for its own runs, the rest of the batch is intact, the exit
status is right, and no process of the run outlives it.

Every compare.py here runs with a fresh ``HOSTILE_RUN=<id>`` in its environment; every
process it starts inherits it (workers, a plugin's children, one that left the session),
so ``survivors(id)`` finds whatever was left behind.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from .conftest import ROOT, puzzle_file

HOSTILE = ROOT / "tests" / "plugins" / "hostile.py"
REFERENCE = ROOT / "tests" / "plugins" / "reference.py"
PUZZLES = [".3.....4.1.....1", ".....1.2..3....1"]

# hostile plugin -> the category each of its runs must get
EXPECTED = {
    "pipe_stall": "timeout", "pipe_garbage": "error", "forks_children": "timeout",
    "leaves_child": "correct", "ignores_sigterm": "timeout", "patches_mrv": "correct",
    "huge_answer": "error", "stdout_flood": "correct", "nan_stats": "error",
    "unconvertible": "error", "forges_answer": "error",
}

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def survivors(run_id: str) -> list[str]:
    """Command lines of the processes still carrying HOSTILE_RUN=run_id."""
    wanted = f"HOSTILE_RUN={run_id}".encode()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            environ = Path(f"/proc/{name}/environ").read_bytes()
            if wanted in environ.split(b"\0"):
                state = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[0]
                if state != "Z":
                    found.append(Path(f"/proc/{name}/cmdline").read_bytes().replace(b"\0", b" ").decode())
        except OSError:
            continue
    return found


def start(args: list[str], run_id: str, **options: object) -> subprocess.Popen[str]:
    env = {**os.environ, "HOSTILE_RUN": run_id}
    return subprocess.Popen([sys.executable, str(ROOT / "compare.py"), *args], cwd=ROOT, env=env,
                            text=True, **options)  # type: ignore[call-overload]  # options pass through to subprocess.run


def settle(run_id: str) -> list[str]:
    """Survivors after a moment (a killed process takes a few milliseconds to go)."""
    for _ in range(20):
        left = survivors(run_id)
        if not left:
            return []
        time.sleep(0.1)
    return left


@pytest.fixture
def puzzles(tmp_path: Path) -> str:
    return puzzle_file(tmp_path, *PUZZLES, name="four.txt")


@pytest.mark.slow
def test_hostile_plugins_spoil_only_their_own_runs(tmp_path: Path) -> None:
    # one puzzle: a run of each of the twelve configurations, two at a time, each hostile one in
    # its own worker beside mrv's (a configuration's next run on a worker started again after
    # one was killed is tests/test_runner_chaos.py's); two puzzles before: twice the runs, and a
    # worker started again after every run that had its worker killed
    puzzles = puzzle_file(tmp_path, PUZZLES[0], name="one.txt")
    run_id = uuid.uuid4().hex
    plugins = [a for name in EXPECTED for a in ("--plugin", f"{HOSTILE}:{name}")]
    solvers = ",".join(["mrv", *EXPECTED])
    process = start(["run", puzzles, "--solvers", solvers, *plugins, "--timeout", "1", "-j", "2",
                     "--format", "json", "--json", str(tmp_path / "runs.json")], run_id,
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = process.communicate(timeout=240)
    assert process.returncode == 0, err[-2000:]
    summary = json.loads(out)  # the floods went to stderr: stdout is still one JSON document
    assert "PLUGIN-NOISE" in err and "PLUGIN-NOISE" not in out
    runs = json.loads((tmp_path / "runs.json").read_text())["runs"]
    got = {(r["solver"], r["index"]): r["category"] for r in runs}
    assert len(runs) == 1 + len(EXPECTED)
    for name, category in [("mrv", "correct"), *EXPECTED.items()]:
        assert got[(name, 0)] == category, (name, [r["reason"] for r in runs if r["solver"] == name])
    assert {row["configuration"] for row in summary["summary"]} == {"mrv", *EXPECTED}
    assert settle(run_id) == []


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_stop_signal_ends_the_run_keeps_what_finished_and_leaves_nothing(
        puzzles: str, tmp_path: Path, stop: signal.Signals) -> None:
    run_id = uuid.uuid4().hex
    saved = tmp_path / "partial.json"
    process = start(["run", puzzles, "--solvers", "mrv,ignores_sigterm,forks_children",
                     "--plugin", f"{HOSTILE}:ignores_sigterm", "--plugin", f"{HOSTILE}:forks_children",
                     "--timeout", "120", "-j", "2", "--json", str(saved)], run_id,
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any("HOSTILE_CHILD" in c for c in survivors(run_id)):
        time.sleep(0.2)  # until the forking plugin has started its children
    process.send_signal(stop)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 128 + stop, err[-2000:]
    document = json.loads(saved.read_text())
    assert document["partial"] is True
    assert settle(run_id) == []


@pytest.mark.slow
def test_a_plugin_child_never_holds_a_pipeline_open(puzzles: str) -> None:
    run_id = uuid.uuid4().hex
    command = (f"{sys.executable} compare.py run {puzzles} --solvers mrv,leaves_child "
               f"--plugin {HOSTILE}:leaves_child --timeout 5 | cat")
    done = subprocess.run(["bash", "-c", command], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, env={**os.environ, "HOSTILE_RUN": run_id})
    assert "leaves_child" in done.stdout
    assert settle(run_id) == []


@pytest.mark.slow
def test_memory_limit_makes_a_hog_memory_out_and_spares_the_others(puzzles: str,
                                                                   tmp_path: Path) -> None:
    run_id = uuid.uuid4().hex
    saved = tmp_path / "runs.json"
    process = start(["run", puzzles, "--solvers", "mrv,hogs_memory", "--plugin", f"{HOSTILE}:hogs_memory",
                     "--memory-limit", "300", "--timeout", "20", "--json", str(saved)], run_id,
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err[-2000:]
    runs = json.loads(saved.read_text())["runs"]
    assert {(r["solver"], r["category"]) for r in runs} == {("mrv", "correct"),
                                                            ("hogs_memory", "memory-out")}
    assert "memory-outs" in out
    assert settle(run_id) == []


@pytest.mark.slow
def test_a_plugin_folder_never_shadows_installed_modules(puzzles: str, tmp_path: Path) -> None:
    pytest.importorskip("pycosat")
    folder = tmp_path / "plugin"
    folder.mkdir()
    marker = tmp_path / "stray-imported"
    (folder / "pycosat.py").write_text(f"open({str(marker)!r}, 'w').close()\n", encoding="utf-8")
    (folder / "mine.py").write_text(
        "import pycosat  # must be the installed one\n"
        f"import sys; sys.path.append({str(REFERENCE.parent)!r})\n"
        "from reference import solve\n", encoding="utf-8")
    run_id = uuid.uuid4().hex
    process = start(["run", puzzles, "--solvers", "sat,mine", "--plugin", f"{folder / 'mine.py'}",
                     "--format", "json"], run_id, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err[-2000:]
    assert {r["configuration"]: r["solved"] for r in json.loads(out)["summary"]} == {"sat": 2, "mine": 2}
    assert not marker.exists()


@pytest.mark.slow
def test_workers_die_with_a_killed_compare(puzzles: str) -> None:
    run_id = uuid.uuid4().hex
    process = start(["run", puzzles, "--solvers", "mrv,sleeper", "--plugin",
                     f"{ROOT / 'tests' / 'plugins' / 'planted.py'}:sleeper", "--timeout", "120",
                     "-j", "2"], run_id, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(survivors(run_id)) < 2:
        time.sleep(0.2)  # compare.py and its sleeping worker
    assert len(survivors(run_id)) >= 2
    process.kill()  # no chance to clean up: the workers must go by themselves
    process.wait(timeout=30)
    assert settle(run_id) == []
