"""The suite's launcher (tests/launcher.py, tests/forkserver.py): a compare.py launch served
from a preloaded interpreter prints and exits as a fresh interpreter does."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from . import launcher
from .conftest import ROOT, compare

LAUNCHES = {
    "list": (["list"], None),
    "a bad command (exit 2)": (["no-such-command"], None),
    "a puzzle typed in": (["solve", "-", "--solver", "mrv"], "12..\n..12\n21..\n..21\n"),
    "a bad puzzle typed in": (["solve", "-", "--solver", "mrv"], "1...\n"),
}


def fresh(args: list[str], stdin: str | None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "compare.py"), *args], cwd=ROOT, capture_output=True,
                          text=True, input=stdin, env=dict(os.environ), timeout=120)


@pytest.mark.parametrize("name", list(LAUNCHES))
def test_a_served_launch_prints_and_exits_as_a_fresh_interpreter(name: str) -> None:
    args, stdin = LAUNCHES[name]
    assert launcher.served(dict(os.environ))
    served = compare(*args, stdin=stdin)
    expected = fresh(args, stdin)
    assert (served.returncode, timeless(served.stdout), timeless(served.stderr)) == (
        expected.returncode, timeless(expected.stdout), timeless(expected.stderr))


def timeless(text: str) -> str:
    """The text with its decimals masked (times differ run to run)."""
    return re.sub(r"\d+\.\d+", "#", text)


def test_a_launch_that_sets_an_interpreter_variable_is_launched_fresh() -> None:
    env = {**os.environ, "PYTHONWARNINGS": "error::DeprecationWarning"}
    assert not launcher.served(env)
    assert compare("list", env=env).returncode == 0


def test_a_served_launch_past_its_timeout_is_killed_and_the_next_is_served() -> None:
    reading, writing = os.pipe()  # an input that never ends: solve waits for it
    try:
        with os.fdopen(reading, "rb") as never_ending, pytest.raises(subprocess.TimeoutExpired):
            compare("solve", "-", "--solver", "mrv", stdin=never_ending, timeout=1)
    finally:
        os.close(writing)
    assert compare("list").returncode == 0


def test_the_server_preloads_no_backend_library_for_its_children_to_inherit(tmp_path: Path) -> None:
    from .forkserver import NOT_PRELOADED
    script = tmp_path / "loaded.py"
    script.write_text("import sys\nprint(' '.join(sorted({m.split('.')[0] for m in sys.modules})))\n")
    done = launcher.launch(script, [], tmp_path, dict(os.environ), None, 60)
    loaded = set(done.stdout.split())
    assert done.returncode == 0 and {"numpy", "solvers"} <= loaded, done.stderr
    assert not loaded & set(NOT_PRELOADED)


def test_the_servers_two_answers_arriving_in_one_read_are_read_as_two() -> None:
    # a launch that ends at once (a usage error) can have its pid and its status arrive
    # together; reading them as one line failed a served launch now and then
    ours, theirs = socket.socketpair()
    with ours, theirs:
        theirs.sendall(b'{"pid": 7}\n{"status": 2, "cpu": 0.01}\n')
        assert launcher._read_line(ours) == {"pid": 7}
        assert launcher._read_line(ours) == {"status": 2, "cpu": 0.01}
        theirs.sendall(b'{"pid": 8}\n')
        assert launcher._read_line(ours) == {"pid": 8}
