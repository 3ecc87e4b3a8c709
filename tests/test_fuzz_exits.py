"""No input ends in exit 3, and nothing is lost (issue 39, item 7): hypothesis draws damaged
and hostile saved runs for report and plot, mutated and hostile puzzle inputs for every
command that reads puzzles, and hostile option values; every outcome is exit 0, 1 or 2,
and what is read is accounted for (every saved run in the report's table, every good
puzzle's run in run's JSON). A dozen examples in the quick tier; the full tier draws more, to
40 saved runs in all (15 for plot) and 25 inputs of each command with the quick tier's dozen
(8 for the commands that start workers, which have no quick test). A longer hunt:
``FUZZ_EXAMPLES=2000 python -m pytest tests/test_fuzz_exits.py -m slow`` draws that many for each."""
from __future__ import annotations

import copy
import io
import json
import os
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models import read_puzzles
from solvers.harness import cli

from .conftest import PUZZLES

QUICK = settings(max_examples=12, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
MANY = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def many(examples: int) -> settings:
    """The slow tier's settings: ``examples``, or FUZZ_EXAMPLES from the environment."""
    return settings(MANY, max_examples=int(os.environ.get("FUZZ_EXAMPLES") or examples))
SAMPLES = [(PUZZLES / name).read_bytes() for name in ("small_4x4.txt", "seeds_grid.txt", "jigsaw.txt",
                                                      "malformed.txt", "x_sudoku.txt", "killer_teaching.txt")]
HOSTILE_TOKENS = [b"variant=latin", b"variant=jigsaw", b"regions=1122", b"cage=", b"cage=3:R1C1,R1C1",
                  b"9" * 60, b"\x1b[2J", b"\xff\xfe", b"{", b'{"size": 4, "grid": []}', b"|", b"+---+",
                  b"\t", b"\r", b"0 " * 65, b"#", b"?load=", b"variant=latin\n" + b"0 " * 65 + b"\n"]


def main(args: list[str]) -> tuple[int, str, str]:
    """The command line in this process: its exit status (argparse's too), stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            status = cli.main(args)
        except SystemExit as stopped:
            status = int(stopped.code or 0)
    return status, out.getvalue(), err.getvalue()


# ---------------------------------------------------------------- saved runs

@pytest.fixture(scope="module")
def saved_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("fuzz") / "run.json"
    status, _, err = main(["run", str(PUZZLES / "small_4x4.txt"), "--solvers", "mrv,dlx", "--json", str(path)])
    assert status == 0, err
    return json.loads(path.read_text())


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path] if path else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += _leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _leaves(item, (*path, index))
    return found


HOSTILE_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(min_value=-(10 ** 30), max_value=10 ** 30),
              st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20),
              st.sampled_from(["9x9", "axb", "wrong", "correct", "solved", "\x1b]0;x\x07", "=1+1", ""])),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6)


@st.composite
def damaged_document(draw: st.DrawFn, document: dict[str, Any]) -> str:
    """A saved run with some values replaced or removed, or its text cut or spliced."""
    doc = copy.deepcopy(document)
    for _ in range(draw(st.integers(1, 4))):
        path = draw(st.sampled_from(_leaves(doc)))
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        if draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(HOSTILE_VALUES)
        if not _leaves(doc):
            break
    text = json.dumps(doc)  # NaN and infinity written as JSON's words: a reader must refuse them
    cut = draw(st.sampled_from(["whole", "whole", "whole", "truncated", "spliced"]))
    if cut == "truncated":
        text = text[:draw(st.integers(0, len(text)))]
    elif cut == "spliced":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(["[" * 5000, "9" * 5000, "1e400", "NaN", "\x00", "}"])) + text[at:]
    return text


REPORTS = [["report"], ["report", "--scores"], ["report", "--per-puzzle"], ["report", "--pair", "mrv,dlx"],
           ["report", "--format", "csv"], ["report", "--format", "latex"], ["plot", "cactus"]]


def check_report(saved_run: dict[str, Any], tmp_path: Path, text: str, command: list[str]) -> None:
    path = tmp_path / "damaged.json"
    path.write_text(text)
    out = ["-o", str(tmp_path / "p.png")] if command[0] == "plot" else []
    status, _, stderr = main([*command, str(path), *out])
    assert status in (0, 1, 2), stderr
    if status != 2 and command == ["report"]:  # read: every run is in the table
        status, shown, _ = main(["report", str(path), "--format", "json"])
        runs = json.loads(path.read_text())["runs"]
        assert sum(row["runs"] for row in json.loads(shown)["summary"]) == len(runs)


@pytest.mark.parametrize("command", REPORTS, ids=lambda c: "-".join(c))
def test_a_damaged_saved_run_is_read_or_refused_never_exit_3(saved_run: dict[str, Any], tmp_path: Path,
                                                            command: list[str]) -> None:
    @QUICK
    @given(damaged_document(saved_run))
    def check(text: str) -> None:
        check_report(saved_run, tmp_path, text, command)
    check()


@pytest.mark.slow
@pytest.mark.parametrize("command", REPORTS, ids=lambda c: "-".join(c))
def test_many_damaged_saved_runs_are_read_or_refused(saved_run: dict[str, Any], tmp_path: Path,
                                                     command: list[str]) -> None:
    @many((15 if command[0] == "plot" else 40) - QUICK.max_examples)  # with the quick test's
    @given(damaged_document(saved_run))
    def check(text: str) -> None:
        check_report(saved_run, tmp_path, text, command)
    check()


# ---------------------------------------------------------------- puzzle inputs

@st.composite
def puzzle_input(draw: st.DrawFn) -> bytes:
    """A real puzzle file with bytes, lines or hostile tokens changed."""
    data = bytearray(draw(st.sampled_from(SAMPLES)))
    for _ in range(draw(st.integers(1, 5))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["token", "byte", "delete", "line"]))
        if kind == "token":
            data[at:at] = draw(st.sampled_from(HOSTILE_TOKENS))
        elif kind == "byte":
            data[at:at + 1] = bytes([draw(st.integers(0, 255))])
        elif kind == "delete":
            del data[at:at + draw(st.integers(1, 40))]
        else:
            lines = bytes(data).split(b"\n")
            lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(lines)))
            data = bytearray(b"\n".join(lines))
    return bytes(data)


def _good(path: Path) -> int:
    return len(read_puzzles(path).puzzles)


COMMANDS: dict[str, Callable[[Path, Path], list[str]]] = {
    "export-line": lambda f, t: ["export", str(f), "--format", "line"],
    "export-grid": lambda f, t: ["export", str(f), "--format", "grid"],
    "export-dimacs": lambda f, t: ["export", str(f), "--puzzle", "1", "-o", str(t / "p.cnf")],
    # a tenth of a second a puzzle: a mutated jigsaw or X often runs to it (0.3 s took 3-5 s of
    # an example campaign's CPU), and a limit reached is one of the outcomes this checks
    "rate": lambda f, t: ["rate", str(f), "--timeout", "0.1", "--json", str(t / "rate.json")],
    "explain": lambda f, t: ["explain", str(f), "--timeout", "0.3", "--max-steps", "3"],
    "tree": lambda f, t: ["tree", str(f), "--timeout", "0.3", "-o", str(t / "tree.svg")],
}
WORKERS: dict[str, Callable[[Path, Path], list[str]]] = {
    "run": lambda f, t: ["run", str(f), "--solvers", "mrv,dlx", "--timeout", "3", "--json", str(t / "r.json")],
    "solve": lambda f, t: ["solve", str(f), "--timeout", "3"],
    "render": lambda f, t: ["render", str(f), "--timeout", "0.3", "-o", str(t / "r.svg")],
    # every level but sac (gac and shaving: gac's own code, run once per candidate), whose
    # shaving of a mutated jigsaw took seconds of an example's CPU: 2.7-7.4 s a campaign, drawn
    "study": lambda f, t: ["study", "consistency", str(f), "--first", "3", "--levels",
                           "naked,singles,locked,bounds,gac"],
}


def check_command(tmp_path: Path, data: bytes, name: str, make: Callable[[Path, Path], list[str]]) -> None:
    path = tmp_path / "input.txt"
    path.write_bytes(data)
    (tmp_path / "r.json").unlink(missing_ok=True)
    status, _, stderr = main(make(path, tmp_path))
    assert status in (0, 1, 2), stderr
    if name == "run" and (tmp_path / "r.json").exists():  # every good puzzle's two runs are saved
        assert len(json.loads((tmp_path / "r.json").read_text())["runs"]) == 2 * _good(path)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_mutated_puzzle_input_is_read_or_refused_never_exit_3(tmp_path: Path, name: str) -> None:
    @QUICK
    @given(puzzle_input())
    def check(data: bytes) -> None:
        check_command(tmp_path, data, name, COMMANDS[name])
    check()


@pytest.mark.slow
@pytest.mark.parametrize("name", [*COMMANDS, *WORKERS])
def test_many_mutated_puzzle_inputs_for_every_command(tmp_path: Path, name: str) -> None:
    @many(25 - QUICK.max_examples if name in COMMANDS else 8)  # with the quick test's, if it has one
    @given(puzzle_input())
    def check(data: bytes) -> None:
        check_command(tmp_path, data, name, {**COMMANDS, **WORKERS}[name])
    check()


# ---------------------------------------------------------------- option values

OPTIONS = [("explain", "--max-steps"), ("explain", "--puzzle"), ("explain", "--timeout"),
           ("export", "--puzzle"), ("rate", "--seed"), ("rate", "--max-guesses"), ("rate", "--sample"),
           ("tree", "--max-nodes"), ("generate", "--size"), ("generate", "--grid-timeout"),
           ("report", "--par"), ("run", "--max-solutions"), ("run", "--jobs"), ("run", "--memory-limit")]
VALUES = st.one_of(st.sampled_from(["0", "-1", "1e400", "nan", "inf", "99999999999999999999999", "1_0",
                                    "\x1b", "", " 3", "0x10", "1e-300", "9" * 5000]),
                   st.integers(min_value=-(10 ** 25), max_value=10 ** 25).map(str),
                   st.text(max_size=8))


@QUICK
@given(st.sampled_from(OPTIONS), VALUES)
def test_a_hostile_option_value_is_exit_2_or_taken_never_exit_3(option: tuple[str, str], value: str) -> None:
    command, flag = option
    small = str(PUZZLES / "small_4x4.txt")
    args = {"generate": ["generate", "--size", "4", "--variant", "jigsaw"], "report": ["report", "missing.json"],
            "run": ["run", small, "--solvers", "mrv", "--first", "1"]}.get(command, [command, small])
    if command == "tree":
        args += ["-o", "/dev/null"]
    status, _, stderr = main([*args, f"{flag}={value}"])
    assert status in (0, 1, 2), stderr
