"""How the harness starts its processes (engine/zygote.py): on Linux, forked from a server
that imported only the worker's modules.

A forked worker starts as a spawned one would: no backend library loaded, the environment
of its start (not the server's), the resident memory of a fresh interpreter; it dies with
the process that runs the sweep, and so does the server, even when that process is killed.
Its isolation from its neighbours is tested with the hostile plugins (test_forged.py: a
plugin that writes into every pipe it holds spoils only its own runs) and its peaks
against a fresh interpreter's (test_memory.py).
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid

import pytest

from models import Geometry, Puzzle
from solvers.harness.engine import runner, sandbox, zygote
from solvers.harness.tasks import Configuration, Task

from .conftest import ROOT
from .test_hostile import settle, start, survivors

PLUGIN = ROOT / "tests" / "plugins" / "timed.py"
EMPTY = Puzzle(Geometry.for_size(4), (0,) * 16)

pytestmark = pytest.mark.skipif(not zygote.forking(), reason="workers are spawned here, not forked")


def test_the_server_preloads_no_backend_library() -> None:
    from .forkserver import NOT_PRELOADED

    code = f"import sys\nfor name in {zygote.PRELOADED!r}: __import__(name)\nprint(*sys.modules, sep='\\n')"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    loaded = {name.split(".")[0] for name in done.stdout.split()}
    assert not loaded & set(NOT_PRELOADED), loaded & set(NOT_PRELOADED)


def test_a_worker_takes_the_environment_of_its_start_not_the_servers(monkeypatch: pytest.MonkeyPatch) -> None:
    tells = Configuration("tells", plugin=f"tells={PLUGIN}:tells_environment", backend="tells")
    monkeypatch.setenv("ZYGOTE_PROBE", "first")
    (first,) = runner.run_tasks([Task(tells, EMPTY)], jobs=1)  # the server, if new, starts with "first"
    monkeypatch.setenv("ZYGOTE_PROBE", "second")
    (second,) = runner.run_tasks([Task(tells, EMPTY)], jobs=1)
    assert "ZYGOTE_PROBE=first" in first.message, first.message
    assert "ZYGOTE_PROBE=second" in second.message, second.message


@pytest.mark.slow
def test_a_killed_sweep_leaves_neither_its_workers_nor_their_server(tmp_path) -> None:
    puzzles = tmp_path / "four.txt"
    puzzles.write_text(".1.2...3.....4..\n..42......3..4..\n")
    run_id = uuid.uuid4().hex
    process = start(["run", str(puzzles), "--plugin", f"nap={PLUGIN}:slow", "--solvers",
                     "nap:seconds=60,mrv", "-j", "2", "--timeout", "120"], run_id,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(_forked_from_servers_of(process.pid)) < 2:
        time.sleep(0.1)  # until both workers (mrv's, and nap's in its long sleep) are forked
    assert len(_forked_from_servers_of(process.pid)) >= 2, survivors(run_id)
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    assert settle(run_id) == []


def _children(pid: int) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit() and sandbox.parent_of(int(name)) == pid:
            found.append(int(name))
    return found


def _forked_from_servers_of(pid: int) -> list[int]:
    """The processes forked from the fork servers that ``pid`` started."""
    return [child for server in _children(pid) for child in _children(server)]
