"""What reaches the terminal (issue 28): a plugin's words with escape sequences are printed
escaped, and a closed stderr or stdout (``2>&-``, ``>&-``) is no error of its own."""
from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from solvers.harness import cli
from solvers.harness.engine.terminal import printable

from .conftest import PUZZLES, ROOT

SMALL = str(PUZZLES / "small_4x4.txt")
ESCAPES = ROOT / "tests" / "plugins" / "terminal_escapes.py"
SHOWN = r"\x1b[2J\x1b[31mRED\x1b]0;pwned\x07\r\x08\u202eevil\x9b1m"


@pytest.mark.parametrize("code", [*range(0x20), 0x7F, *range(0x80, 0xA0), 0x202E, 0x2066])
def test_every_control_character_is_escaped(code: int) -> None:
    text = printable(f"a{chr(code)}b")
    assert text.isprintable() and text.startswith("a\\") and text.endswith("b")


def test_newlines_are_kept_only_when_asked() -> None:
    assert printable("one\ntwo") == "one\\ntwo"
    assert printable("one\ntwo\x1b", lines=True) == "one\ntwo\\x1b"


def _closing(*fds: int):  # type: ignore[no-untyped-def]  # a preexec_fn
    return lambda: [os.close(fd) for fd in fds]


@pytest.mark.slow
def test_a_plugins_escape_sequences_are_printed_escaped() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "compare.py"), "run", SMALL, "--plugin", f"{ESCAPES}:raises",
                           "--plugin", f"{ESCAPES}:says", "--solvers", "raises,says", "--timeout", "5"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"RuntimeError: raised {SHOWN}" in done.stdout and f"said {SHOWN}" in done.stdout
    for stream in (done.stdout, done.stderr):
        assert not any(ch in stream for ch in "\x1b\x07\x08\r\u202e\x9b")


@pytest.mark.slow
def test_a_plugin_that_fails_to_load_is_named_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plugin = tmp_path / "loud.py"
    plugin.write_text('raise ImportError("cannot load \\x1b[2J\\x1b]0;pwned\\x07")\n')
    assert cli.main(["run", SMALL, "--plugin", f"{plugin}:solve"]) == 2
    err = capsys.readouterr().err
    assert r"cannot load \x1b[2J\x1b]0;pwned\x07" in err and "\x1b" not in err


@pytest.mark.slow
def test_a_run_with_stderr_closed_writes_its_table_and_database(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "compare.py"), "run", SMALL, "--solvers", "mrv",
                           "--timeout", "5", "--format", "csv", "--db", "runs.sqlite"],
                          cwd=tmp_path, stdout=subprocess.PIPE, text=True, timeout=300, preexec_fn=_closing(2))
    assert done.returncode == 0
    assert done.stdout.startswith("file,n,configuration") and ",mrv,mrv,4,4,4," in done.stdout
    with closing(sqlite3.connect(tmp_path / "runs.sqlite")) as connection:
        assert connection.execute("SELECT COUNT(*) FROM runs").fetchone() == (4,)


@pytest.mark.slow
def test_bad_usage_with_stdout_and_stderr_closed_is_exit_2_not_3(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "compare.py"), "run", "no-such-file.txt"],
                          cwd=tmp_path, timeout=300, preexec_fn=_closing(1, 2))
    assert done.returncode == 2
