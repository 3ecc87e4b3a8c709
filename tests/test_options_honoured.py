"""Every option of every command is honoured or refused (issue 35, item 3): the test walks the
real parser's options, command by command, and for each one runs a case twice through the
command line's entry (``cli.main``, in this process, its real parser): without the option and
with it. The option must change what the command prints or writes (exit status, stdout,
stderr, or an output file; decimals masked, since times differ run to run), or be refused with
exit 2 naming it. An option with no case here fails the test, so a new option must come with one."""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pycosat
import pytest

from models import Model, read_puzzles
from solvers import registry
from solvers.harness.cli import COMMANDS, build_parser, main
from solvers.harness.engine import stopping

from .conftest import ROOT

P4 = str(ROOT / "puzzles" / "small_4x4.txt")
GRID = str(ROOT / "puzzles" / "seeds_grid.txt")
P6 = str(ROOT / "puzzles" / "small_6x6.txt")
HARD = str(ROOT / "puzzles" / "hardest.txt")
KILLER = str(ROOT / "puzzles" / "killer_teaching.txt")
TIMED = str(ROOT / "tests" / "plugins" / "timed.py")
RAISES = str(ROOT / "tests" / "plugins" / "fuzzbugs.py") + ":raises"
"""A planted bug: raises on a 4x4 whose first cell is given (the small 4x4 file's fourth puzzle)."""
RUN = ["run", P4, "--solvers", "mrv", "--jobs", "1"]


@dataclass(frozen=True)
class Case:
    """Run ``base`` and ``base + given`` (placeholders: {OUT} a fresh folder, {RUN} and {RUN2}
    saved runs, {TRACE} a trace, {CNF} and {ANSWER} a CNF and a SAT solver's answer to it)."""

    base: tuple[str, ...]
    given: tuple[str, ...]
    refused: bool = False


def case(base: list[str], given: list[str], refused: bool = False) -> Case:
    return Case(tuple(base), tuple(given), refused)


SOLVE = ["solve", P4, "--solvers", "mrv"]
EXPORT = ["export", P4, "--solvers", "sat"]
HEX = "{HEX}"
"""A 16x16 puzzle written in 0-based hex: --hex reads it as it is meant, without it 0 is an empty cell.
The pictures (render, tree) read {NEAR16}, nearly solved: tree draws no decision on it (0.6 s of
search on {HEX}); render's 256 cells cost the same either way."""
REPORT = ["report", "{RUN}"]
FUZZ = ["fuzz", "--plugin", f"r={RAISES}", "--sizes", "4", "--seed", "1", "--jobs", "1", "--against", "none",
        "--budget", "1", "--shrink-budget", "20"]  # found in about 0.1 s: --keep-going's second second bought nothing
TREE = ["tree", HARD, "--puzzle", "6", "--solver", "mrv", "-o", "{OUT}/t.svg"]  # 56 decisions
CASES: dict[tuple[str, str], Case] = {
    # run: what it runs, its limits and its outputs
    ("run", "--solvers"): case(RUN, ["--solvers", "sat"]),
    ("run", "--timeout"): case(RUN, ["--timeout", "3"]),
    ("run", "--cpu-limit"): case(["run", "{HARD1}", "--solvers", "backtrack", "--jobs", "1", "--timeout", "60"],
                                 ["--cpu-limit", "0.05"]),
    ("run", "--unique"): case(RUN, ["--unique"]),
    ("run", "--max-solutions"): case(RUN, ["--max-solutions", "3"]),
    ("run", "--memory-limit"): case([*RUN, "--json", "{OUT}/r.json"], ["--memory-limit", "3000"]),
    ("run", "--plugin"): case(RUN, ["--plugin", f"slow={TIMED}:slow", "--solvers", "mrv,slow"]),
    ("run", "--jobs"): case(RUN, ["--jobs", "2"]),
    ("run", "--executor"): case(RUN, ["--executor", "nowhere"], refused=True),
    ("run", "--chunk-size"): case(RUN, ["--chunk-size", "5"], refused=True),
    ("run", "--db"): case(RUN, ["--db", "{OUT}/r.sqlite"]),
    ("run", "--resume"): case(RUN, ["--resume"], refused=True),
    ("run", "--repeat"): case(RUN, ["--repeat", "2"]),
    ("run", "--seeds"): case(RUN, ["--seeds", "2"]),
    ("run", "--seed"): case([*RUN, "--json", "{OUT}/r.json"], ["--seed", "3"]),
    ("run", "--par"): case(RUN, ["--par", "3"]),
    ("run", "--exclude-warmup"): case(RUN, ["--exclude-warmup"]),
    ("run", "--first"): case(RUN, ["--first", "2"]),
    ("run", "--batch"): case(["run", P4, "--solvers", "fast"], ["--batch"]),
    ("run", "--sample"): case(RUN, ["--sample", "2"]),
    ("run", "--sample-seed"): case([*RUN, "--sample", "2", "--json", "{OUT}/r.json"], ["--sample-seed", "5"]),
    ("run", "--format"): case(RUN, ["--format", "latex"]),
    ("run", "--columns"): case(RUN, ["--columns", "set,solved"]),
    ("run", "--explain-columns"): case(RUN, ["--explain-columns"]),
    ("run", "--json"): case(RUN, ["--json", "{OUT}/r.json"]),
    ("run", "--csv"): case(RUN, ["--csv", "{OUT}/r.csv"]),
    ("run", "--plot"): case(RUN, ["--plot", "{OUT}/r.png"]),
    ("run", "--title"): case(RUN, ["--title", "T"], refused=True),
    ("run", "--input-format"): case(["run", GRID, "--solvers", "mrv", "--jobs", "1"],
                                    ["--input-format", "line"]),
    ("run", "--hex"): case(["run", HEX, "--solvers", "mrv", "--jobs", "1"], ["--hex"]),
    ("run", "--count"): case(RUN, ["--count"]),
    ("run", "--judge-budget"): case([*RUN, "--unique"], ["--judge-budget", "0.000001"]),
    ("run", "--judge-memory"): case([*RUN, "--unique"], ["--judge-memory", "0"], refused=True),
    ("run", "--fail-on"): case(["run", P4, "--plugin", f"r={RAISES}", "--solvers", "r", "--jobs", "1"],
                               ["--fail-on", "error"]),
    # solve
    ("solve", "--solvers"): case(SOLVE, ["--solvers", "dlx"]),
    ("solve", "--timeout"): case(["solve", "{HARD1}", "--solvers", "backtrack"], ["--timeout", "0.05"]),
    ("solve", "--cpu-limit"): case(["solve", "{HARD1}", "--solvers", "backtrack"], ["--cpu-limit", "0.05"]),
    ("solve", "--unique"): case(SOLVE, ["--unique"]),
    ("solve", "--count"): case(SOLVE, ["--count"]),
    ("solve", "--judge-budget"): case([*SOLVE, "--unique"], ["--judge-budget", "0.000001"]),
    ("solve", "--judge-memory"): case([*SOLVE, "--unique"], ["--judge-memory", "0"], refused=True),
    ("solve", "--batch"): case(["solve", P4, "--solvers", "fast", "--unique"], ["--batch"]),
    ("solve", "--max-solutions"): case(SOLVE, ["--max-solutions", "2"]),
    ("solve", "--memory-limit"): case(["solve", "{P16}", "--solvers", "sat"], ["--memory-limit", "1"]),
    ("solve", "--plugin"): case(SOLVE, ["--plugin", f"slow={TIMED}:slow", "--solvers", "slow"]),
    ("solve", "--format"): case(SOLVE, ["--format", "line"]),
    ("solve", "--input-format"): case(["solve", GRID, "--solvers", "mrv"],
                                      ["--input-format", "line"]),
    ("solve", "--hex"): case(["solve", HEX, "--solvers", "mrv"], ["--hex"]),
    # export and decode
    ("export", "--encoding"): case(EXPORT, ["--encoding", "minimal"]),
    ("export", "--solvers"): case(EXPORT, ["--solvers", "sat:encoding=extended"]),
    ("export", "--puzzle"): case(EXPORT, ["--puzzle", "2"]),
    ("export", "--index"): case(EXPORT, ["--index", "1"], refused=True),
    ("export", "--format"): case(["export", P4], ["--format", "line"]),
    ("export", "--output"): case(EXPORT, ["--output", "{OUT}/p.cnf"]),
    ("export", "--input-format"): case(["export", GRID], ["--input-format", "line"]),
    ("export", "--hex"): case(["export", HEX], ["--hex"]),
    ("decode", "--cnf"): case(["decode", "{ANSWER}", "--cnf", "{CNF}"], ["--cnf", "{OUT}/missing.cnf"], refused=True),
    ("decode", "--format"): case(["decode", "{ANSWER}", "--cnf", "{CNF}"], ["--format", "line"]),
    # list
    ("list", "--plugin"): case(["list"], ["--plugin", f"slow={TIMED}:slow"]),
    ("list", "--format"): case(["list"], ["--format", "latex"]),
    # report
    ("report", "--db"): case(REPORT, ["--db", "{OUT}/none.sqlite"], refused=True),
    ("report", "--where"): case(REPORT, ["--where", "configuration=a"], refused=True),
    ("report", "--json"): case(REPORT, ["--json", "{OUT}/x.json"], refused=True),
    ("report", "--format"): case(REPORT, ["--format", "latex"]),
    ("report", "--columns"): case(REPORT, ["--columns", "all"]),
    ("report", "--explain-columns"): case(REPORT, ["--explain-columns"]),
    ("report", "--par"): case(REPORT, ["--par", "5"]),
    ("report", "--scores"): case(REPORT, ["--scores"]),
    ("report", "--per-puzzle"): case(REPORT, ["--per-puzzle"]),
    ("report", "--pivot"): case([*REPORT, "--per-puzzle"], ["--pivot", "repeat"]),
    ("report", "--field"): case([*REPORT, "--per-puzzle"], ["--field", "nodes"]),
    ("report", "--pair"): case(REPORT, ["--pair", "a,b"]),
    ("report", "--merge"): case([*REPORT, "{RUN2}"], ["--merge"]),
    ("report", "--basis"): case([*REPORT, "--pair", "a,b"], ["--basis", "cpu"]),
    ("report", "--fail-if-slower"): case([*REPORT, "--pair", "a,b"], ["--fail-if-slower", "10"]),
    ("report", "--exclude-warmup"): case(REPORT, ["--exclude-warmup"]),
    ("report", "--html"): case(REPORT, ["--html", "{OUT}/r.html"]),
    ("report", "--replays"): case(REPORT, ["--replays", "{OUT}"], refused=True),
    ("report", "--csv"): case(REPORT, ["--csv", "{OUT}/r.csv"]),
    ("report", "--plot"): case(REPORT, ["--plot", "{OUT}/r.png"]),
    ("report", "--title"): case([*REPORT, "--plot", "{OUT}/r.png"], ["--title", "T"]),
    # plot
    ("plot", "--output"): case(["plot", "cactus", "{RUN}", "-o", "{OUT}/a.png"], ["--output", "{OUT}/b.png"]),
    ("plot", "--x"): case(["plot", "scatter", "{RUN}", "-o", "{OUT}/s.png", "--y", "a"], ["--x", "c"]),
    ("plot", "--y"): case(["plot", "scatter", "{RUN}", "-o", "{OUT}/s.png", "--x", "a"], ["--y", "c"]),
    ("plot", "--field"): case(["plot", "cactus", "{RUN}", "-o", "{OUT}/c.png"], ["--field", "nodes"]),
    ("plot", "--title"): case(["plot", "cactus", "{RUN}", "-o", "{OUT}/c.png"], ["--title", "T"]),
    # generate
    ("generate", "--size"): case(["generate", "--size", "4"], ["--size", "6"]),
    ("generate", "--count"): case(["generate", "--size", "4"], ["--count", "2"]),
    ("generate", "--seed"): case(["generate", "--size", "4"], ["--seed", "9"]),
    ("generate", "--givens"): case(["generate", "--size", "4"], ["--givens", "10"]),
    ("generate", "--symmetric"): case(["generate", "--size", "4"], ["--symmetric"]),
    ("generate", "--variant"): case(["generate", "--size", "4"], ["--variant", "latin", "--holes", "0.4"]),
    ("generate", "--holes"): case(["generate", "--size", "5", "--variant", "latin"], ["--holes", "0.3"]),
    ("generate", "--killer-givens"): case(["generate", "--size", "4", "--variant", "killer"], ["--killer-givens"]),
    ("generate", "--max-cage"): case(["generate", "--size", "4", "--variant", "killer"], ["--max-cage", "2"]),
    ("generate", "--format"): case(["generate", "--size", "4"], ["--format", "grid"]),
    ("generate", "--tries"): case(["generate", "--size", "6", "--seed", "1"], ["--tries", "16"]),
    ("generate", "--measure-limit"): case(["generate", "--size", "6"], ["--measure-limit", "1"]),
    ("generate", "--max-mrv-nodes"): case(["generate", "--size", "6"], ["--max-mrv-nodes", "1"]),
    ("generate", "--output"): case(["generate", "--size", "4"], ["--output", "{OUT}/g.txt"]),
    # seed 2's first 6x6 region map gives no grid: a tiny bound gives up there, exit 1
    ("generate", "--grid-timeout"): case(["generate", "--size", "6", "--variant", "jigsaw", "--seed", "2"],
                                         ["--grid-timeout", "0.001"]),
    # study, ladder
    ("study", "--levels"): case(["study", "consistency", P4], ["--levels", "naked"]),
    ("study", "--first"): case(["study", "consistency", P4, "--levels", "naked"], ["--first", "1"]),
    ("study", "--format"): case(["study", "consistency", P4, "--levels", "naked"], ["--format", "latex"]),
    ("study", "--json"): case(["study", "consistency", P4, "--levels", "naked"], ["--json", "{OUT}/s.json"]),
    ("study", "--input-format"): case(["study", "consistency", P4, "--levels", "naked"], ["--input-format", "grid"]),
    ("study", "--hex"): case(["study", "consistency", HEX, "--levels", "naked", "--json", "{OUT}/s.json"], ["--hex"]),
    ("ladder", "--timeout"): case(["ladder", P6], ["--timeout", "0.00001"]),
    ("ladder", "--format"): case(["ladder", P4], ["--format", "latex"]),
    ("ladder", "--input-format"): case(["ladder", P4], ["--input-format", "grid"]),
    ("ladder", "--hex"): case(["ladder", HEX, "--timeout", "0.05"], ["--hex"]),
    # fuzz: a planted exception on 4x4, found on the first instances and shrunk at once
    ("fuzz", "--solvers"): case(FUZZ, ["--solvers", "r,mrv"]),
    ("fuzz", "--plugin"): case(FUZZ, ["--plugin", f"q={RAISES}", "--solvers", "q"]),
    ("fuzz", "--against"): case(FUZZ, ["--against", "mrv"]),
    ("fuzz", "--budget"): case(FUZZ, ["--budget", "0.001"]),
    ("fuzz", "--seed"): case(FUZZ, ["--seed", "2"]),
    ("fuzz", "--sizes"): case(FUZZ, ["--sizes", "4,6"]),
    ("fuzz", "--variants"): case(FUZZ, ["--variants", "latin"]),
    ("fuzz", "--modes"): case(FUZZ, ["--modes", "plain"]),
    ("fuzz", "--timeout"): case(FUZZ, ["--timeout", "3"]),
    ("fuzz", "--jobs"): case(FUZZ, ["--jobs", "0"], refused=True),
    ("fuzz", "--out"): case(FUZZ, ["--out", "{OUT}"]),
    ("fuzz", "--keep-going"): case(FUZZ, ["--keep-going"]),
    ("fuzz", "--shrink-budget"): case(FUZZ, ["--shrink-budget", "0.001"]),
    # explain, rate, render, replay, tree (backtrack reads the clock every 4,096 nodes: a budget of
    # 5,000 stops at its node limit without --timeout, and at the clock's first look with 0.01 s)
    ("explain", "--puzzle"): case(["explain", P4], ["--puzzle", "2"]),
    ("explain", "--solver"): case(["explain", P4], ["--solver", "mrv"]),
    ("explain", "--timeout"): case(["explain", HARD, "--solver", "backtrack:node_limit=5000"], ["--timeout", "0.01"]),
    ("explain", "--input-format"): case(["explain", P4], ["--input-format", "grid"]),
    ("explain", "--hex"): case(["explain", "{NEAR16}"], ["--hex"]),
    ("explain", "--max-steps"): case(["explain", P4], ["--max-steps", "1"]),
    ("explain", "--trace"): case(["explain", P4], ["--trace", "{OUT}/t.jsonl"]),
    ("explain", "--uniqueness"): case(["explain", P4], ["--uniqueness", "off"]),
    ("rate", "--json"): case(["rate", P4], ["--json", "{OUT}/r.json"]),
    ("rate", "--each"): case(["rate", P4], ["--each"]),
    ("rate", "--sample"): case(["rate", P4], ["--sample", "1"]),
    ("rate", "--seed"): case(["rate", P6, "--sample", "1", "--each"], ["--seed", "4"]),
    ("rate", "--max-guesses"): case(["rate", "{EMPTY4}"], ["--max-guesses", "1"]),
    ("rate", "--timeout"): case(["rate", "{HARD1}"], ["--timeout", "0.001"]),
    ("rate", "--format"): case(["rate", P4], ["--format", "latex"]),
    ("rate", "--input-format"): case(["rate", P4], ["--input-format", "grid"]),
    ("rate", "--uniqueness"): case(["rate", P4, "--json", "{OUT}/r.json"], ["--uniqueness", "assume"]),
    ("rate", "--hex"): case(["rate", "{NEAR16}", "--json", "{OUT}/r.json"], ["--hex"]),
    ("render", "--puzzle"): case(["render", P4, "-o", "{OUT}/r.svg"], ["--puzzle", "2"]),
    ("render", "--solver"): case(["render", P4, "-o", "{OUT}/r.svg"], ["--solver", "dlx"]),
    ("render", "--timeout"): case(["render", HARD, "--solver", "backtrack:node_limit=5000", "-o", "{OUT}/r.svg"],
                                  ["--timeout", "0.01"]),
    ("render", "--input-format"): case(["render", P4, "-o", "{OUT}/r.svg"], ["--input-format", "grid"]),
    ("render", "--hex"): case(["render", "{NEAR16}", "--solver", "mrv:node_limit=20", "-o", "{OUT}/r.svg"], ["--hex"]),
    ("render", "--step"): case(["render", P4, "-o", "{OUT}/r.svg"], ["--step", "1"]),
    ("render", "--uniqueness"): case(["render", P4, "--solver", "human", "-o", "{OUT}/r.svg"], ["--uniqueness", "off"]),
    ("render", "--output"): case(["render", P4, "-o", "{OUT}/r.svg"], ["--output", "{OUT}/r2.svg"]),
    ("replay", "--output"): case(["replay", "{TRACE}", "-o", "{OUT}/a.html"], ["--output", "{OUT}/b.html"]),
    ("replay", "--max-steps"): case(["replay", "{TRACE}", "-o", "{OUT}/a.html"], ["--max-steps", "1"]),
    ("tree", "--puzzle"): case(TREE, ["--puzzle", "2"]),
    ("tree", "--solver"): case(TREE, ["--solver", "backtrack:node_limit=2000"]),  # 4,882 decisions unbounded
    ("tree", "--timeout"): case(["tree", HARD, "--solver", "backtrack:node_limit=5000", "-o", "{OUT}/t.svg"],
                                ["--timeout", "0.01"]),
    ("tree", "--input-format"): case(TREE, ["--input-format", "grid"]),
    ("tree", "--hex"): case(["tree", "{NEAR16}", "--solver", "mrv:node_limit=20", "-o", "{OUT}/t.svg"], ["--hex"]),
    ("tree", "--output"): case(TREE, ["--output", "{OUT}/t2.svg"]),
    ("tree", "--uniqueness"): case(["tree", P4, "--solver", "human", "-o", "{OUT}/t.svg"], ["--uniqueness", "off"]),
    ("tree", "--max-nodes"): case(TREE, ["--max-nodes", "3"]),
}
QUICK = {"report", "generate", "export", "decode", "study"}
"""Commands whose cases take well under a second each; the others start workers, search, or
draw with matplotlib (the slow tier)."""
SLOW = {("report", "--plot"), ("report", "--title"), ("export", "--hex")}


def every_option() -> list[tuple[str, str]]:
    """(command, its longest flag) for every option of every command the parser has."""
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return [(name, max(action.option_strings, key=len)) for name in COMMANDS
            for action in sub.choices[name]._actions if action.option_strings and action.dest != "help"]


def test_every_option_of_every_command_has_a_case() -> None:
    options = every_option()
    missing = [f"{command} {flag}" for command, flag in options if (command, flag) not in CASES]
    stale = [f"{command} {flag}" for command, flag in CASES if (command, flag) not in options]
    assert not missing and not stale, f"options without a case: {missing}; cases of no option: {stale}"


def saved_run(path: Path, slower: float = 1.0) -> str:
    """A saved run of configurations a, b and c on 6 puzzles, 2 repetitions each."""
    runs = []
    for index in range(6):
        for repeat in range(2):
            for number, label in enumerate("abc"):
                time_s = 0.01 * (index + 1) * (1 + number) * slower
                runs.append({"file": "p.txt", "index": index, "line": index + 1, "size": "4x4", "n": 4,
                             "puzzle": "." * 16, "solver": label, "configuration": label, "backend": "mrv",
                             "repeat": repeat, "status": "solved", "category": "correct",
                             "time_s": time_s, "cpu_s": time_s / 2, "warmup": index == 0 and repeat == 0,
                             "solutions": ["1" * 16], "complete": True, "reason": "verified",
                             "stats": {"nodes": index * (number + 1)}, "nodes": index * (number + 1)})
    probe = {"wall_s": 0.01, "cpu_s": 0.01}
    path.write_text(json.dumps({"kind": "sudoku-methods-run", "version": 2, "limit_s": 1.0, "options": {},
                                "calibration": {"start": probe, "end": probe, "moved": 0.0}, "runs": runs}))
    return str(path)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The saved runs, a trace, a CNF and a SAT solver's answer the cases read."""
    folder = tmp_path_factory.mktemp("inputs")
    trace = folder / "t.jsonl"
    assert main(["explain", P4, "--trace", str(trace)]) == 0
    cnf = folder / "p.cnf"
    assert main(["export", P4, "-o", str(cnf)]) == 0
    clauses = [[int(x) for x in line.split()[:-1]] for line in cnf.read_text().splitlines()
               if line and line[0] not in "cp"]
    answer = folder / "p.out"
    model = pycosat.solve(clauses)
    answer.write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    hexed, near = folder / "hex16.txt", folder / "near16.txt"  # a 16x16 in 0-F, and one nearly solved
    first = read_puzzles(ROOT / "puzzles" / "generated_16x16.txt").puzzles[0]
    hexed.write_text("".join("0123456789ABCDEF"[value - 1] if value else "." for value in first.givens) + "\n")
    (solution,) = registry.get("mrv").solve(Model.from_puzzle(first)).solutions
    near.write_text("".join("." if cell % 23 == 0 else "0123456789ABCDEF"[value - 1]  # the human
                            for cell, value in enumerate(solution)) + "\n")  # solver's chains are cheap on it
    p16 = folder / "p16.txt"
    p16.write_text(next(line for line in (ROOT / "puzzles" / "generated_16x16.txt").read_text().splitlines()
                        if line and line[0] != "#") + "\n")
    hard1 = folder / "hard1.txt"
    hard1.write_text(next(line for line in Path(HARD).read_text().splitlines() if line and line[0] != "#") + "\n")
    empty4 = folder / "empty4.txt"  # the human solver guesses at once on an empty 4x4 (0.1 s, where
    empty4.write_text("." * 16 + "\n")  # the forum's hardest #6 took 6 s of guessing)
    return {"{RUN}": saved_run(folder / "run.json"), "{HEX}": str(hexed), "{NEAR16}": str(near),
            "{HARD1}": str(hard1), "{EMPTY4}": str(empty4),
            "{RUN2}": saved_run(folder / "run2.json", 2.0), "{P16}": str(p16),
            "{TRACE}": str(trace), "{CNF}": str(cnf), "{ANSWER}": str(answer)}


DECIMALS = re.compile(r"\d+\.\d+(e-?\d+)?|\b\d{4,}\b")
VOLATILE = ("created", "load", "calibration", "machine", "python", "packages", "toolkit", "worker", "host",
            "sequence", "time_s", "cpu_s", "peak_memory_mb", "stats", "reason", "wall_s", "order", "kill_after_s")


def observed(args: list[str], folder: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """What one command line did: its status, what it printed, the files it wrote (decimals
    masked; in JSON, the fields that differ run to run left out)."""
    folder.mkdir()
    stopping.received.clear()  # one command line's signals: each case is a fresh invocation
    try:
        status = main([a.replace("{OUT}", str(folder)) for a in args])
    except SystemExit as stop:  # the parser's own refusals
        status = stop.code
    printed = capsys.readouterr()
    seen: dict[str, Any] = {"status": status, "out": mask(printed.out, folder), "err": mask(printed.err, folder)}
    for path in sorted(folder.iterdir()):
        if path.suffix == ".json":
            seen[path.name] = stable(json.loads(path.read_text()))
        elif path.suffix == ".png":
            seen[path.name] = hashlib.sha256(path.read_bytes()).hexdigest()
        elif path.suffix == ".sqlite":
            seen[path.name] = path.stat().st_size > 0
        else:
            seen[path.name] = mask(path.read_text(errors="replace"), folder)
    return seen


def mask(text: str, folder: Path) -> str:
    """Decimals and long numbers masked, the folder named, generate's echo of its command left out."""
    lines = [line for line in text.replace(str(folder), "{OUT}").splitlines()
             if not line.startswith("# python compare.py")]
    return DECIMALS.sub("#", "\n".join(lines))


def stable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: stable(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [stable(v) for v in value]
    return value


WITHOUT: dict[tuple[str, ...], dict[str, Any]] = {}
"""What each base command line did, observed once per test session (the folder it wrote into
masked, as in every observation), for the cases that share it."""


def _id(key: tuple[str, str]) -> str:
    return f"{key[0]} {key[1]}"


@pytest.mark.parametrize("key", [pytest.param(k, id=_id(k), marks=[] if k[0] in QUICK and k not in SLOW
                                              else [pytest.mark.slow]) for k in CASES])
def test_the_option_changes_the_output_or_is_refused(key: tuple[str, str], inputs: dict[str, str],
                                                     tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    option = CASES[key]

    def filled(args: tuple[str, ...]) -> list[str]:
        out = []
        for arg in args:
            for name, value in inputs.items():
                arg = arg.replace(name, value)
            out.append(arg)
        return out

    given = observed(filled(option.base + option.given), tmp_path / "with", capsys)
    if option.refused:  # a refusal needs no run without the option
        assert given["status"] == 2, given
        assert any(word in given["err"] for word in option.given), given["err"]  # it says what it refused
        return
    if option.base not in WITHOUT:  # many cases share a base: each is run once (its folder masked)
        WITHOUT[option.base] = observed(filled(option.base), tmp_path / "without", capsys)
    assert given != WITHOUT[option.base], f"{_id(key)} changed nothing: {given}"
