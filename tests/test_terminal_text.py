"""What reaches the terminal (issue 28): a plugin's words with escape sequences are printed
escaped, what it writes raw to stdout and stderr reaches compare.py's stderr escaped,
labelled and bounded, and a closed stderr or stdout (``2>&-``, ``>&-``) is no error of its own."""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from solvers.harness import cli
from solvers.harness.engine.output import RUN_BYTES, OutputForwarder
from solvers.harness.engine.terminal import printable

from .conftest import PUZZLES, ROOT, compare

SMALL = str(PUZZLES / "small_4x4.txt")
ESCAPES = ROOT / "tests" / "plugins" / "terminal_escapes.py"
SHOWN = r"\x1b[2J\x1b[31mRED\x1b]0;pwned\x07\r\x08\u202eevil\x9b1m"
FLOOD_BYTES = 5 * 1024 * 1024  # as in terminal_escapes.floods


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
    # what compare.py prints, as a served launch prints it (no interpreter's own doing here)
    done = compare("run", SMALL, "--plugin", f"{ESCAPES}:raises", "--plugin", f"{ESCAPES}:says",
                   "--solvers", "raises,says", "--timeout", "5")
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


def test_a_closed_forwarder_stops_reading_though_a_stray_still_holds_the_pipe() -> None:
    reader, writer = os.pipe()  # the write end left open, as by a process that escaped the worker
    try:
        forwarder = OutputForwarder(reader, lambda text: None)
        forwarder.close(timeout=30)  # returns as soon as the thread has ended
        assert not forwarder.reading
        with pytest.raises(BrokenPipeError):  # the read end is closed: nothing is left behind
            os.write(writer, b"more")
    finally:
        os.close(writer)


@pytest.fixture(scope="module")
def raw_output(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    """One compare.py run of the plugins that write raw to fd 1 and 2 (prints, floods), with
    --format json on stdout; its process and each configuration's category."""
    folder = tmp_path_factory.mktemp("raw")
    (folder / "one.txt").write_text(".3.....4.1.....1\n", encoding="utf-8")
    done = compare("run", str(folder / "one.txt"), "--plugin", f"{ESCAPES}:prints", "--plugin", f"{ESCAPES}:floods",
                   "--solvers", "prints,floods", "--timeout", "10", "--format", "json",
                   "--json", str(folder / "runs.json"))
    runs = json.loads((folder / "runs.json").read_text())["runs"] if done.returncode == 0 else []
    return done, {run["solver"]: run["category"] for run in runs}


@pytest.mark.slow
def test_a_plugins_raw_output_reaches_stderr_escaped_and_labelled_and_never_stdout(raw_output) -> None:  # type: ignore[no-untyped-def]  # a fixture
    done, categories = raw_output
    assert done.returncode == 0, done.stderr[-2000:]
    assert categories["prints"] == "correct"
    summary = json.loads(done.stdout)  # nothing the backends wrote went into stdout
    assert {row["configuration"] for row in summary["summary"]} == {"prints", "floods"}
    assert "child" not in done.stdout and "FLOOD" not in done.stdout
    raw = sorted({hex(ord(ch)) for ch in done.stderr if ch not in "\n\t" and not ch.isprintable()})
    assert raw == [], raw  # no ESC, no other C0 or C1 control, no bidirectional override
    for way in ("print-stdout", "sys-stderr", "os-write-2", "os-write-1", "child"):
        assert f"[prints] {way} {SHOWN}\n" in done.stderr, way
    for way in ("junk", "child-err"):  # every byte, those that are not UTF-8 too, shown visibly
        assert f"[prints] {way} " + r"\x00\x01\x02\x03\x04\x05\x06\x07\x08" + "\t\n" in done.stderr, way
    assert done.stderr.count(" !\"#$%&'()*+,-./0123456789:;<=>?@") == 2
    assert done.stderr.count(r"~\x7f\x80\x81") == 2 and done.stderr.count(r"\xfe\xff") == 2


@pytest.mark.slow
def test_a_flood_of_output_is_cut_to_the_bound_without_slowing_its_run(raw_output) -> None:  # type: ignore[no-untyped-def]  # a fixture
    done, categories = raw_output
    assert done.returncode == 0, done.stderr[-2000:]
    assert categories["floods"] == "correct"  # never blocked into its 10 s limit
    flood = [line for line in done.stderr.splitlines() if line.startswith("[floods] ")]
    assert flood[-1] == (f"[floods] ... {FLOOD_BYTES - RUN_BYTES} more bytes of this run's output dropped "
                         f"(at most {RUN_BYTES} bytes of a run's are shown)")
    shown = "\n".join(line.removeprefix("[floods] ") for line in flood[:-1])
    assert shown.startswith(r"FLOOD \x1b[2JFLOOD") and len(shown.encode()) < 2 * RUN_BYTES
