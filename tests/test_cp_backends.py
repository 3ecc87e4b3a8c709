"""What the three constraint backends (minizinc, asp, choco) do beyond the shared contract of
test_backends.py: a MiniZinc run killed at its time limit leaves no process behind, the
solver option is checked against what MiniZinc lists, native answers are translated
explicitly, each backend reports its own search counters, and their options work (and are
refused when wrong) through the real command line. Each test needs its backend's program
or package and is skipped, saying which, where it is missing."""
from __future__ import annotations

import csv
import io
import os
import shutil
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from models import Model, verify
from solvers import Status, registry
from solvers.backends import _process
from solvers.options import OptionError
from solvers.result import Stats

from .conftest import compare, compare_here, load

pytestmark = pytest.mark.backends("minizinc", "asp", "choco")  # pytest --backend NAME leaves the module out for others


def available(name: str) -> registry.Backend:
    """The backend, or a skip saying what is missing."""
    reason = registry.get(name).unavailable()
    if reason:
        pytest.skip(f"{name}: {reason}")
    return registry.get(name)


def processes(names: tuple[str, ...]) -> dict[int, tuple[str, int]]:
    """Live (not zombie) processes whose command is one of names: pid -> (name, parent pid)."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        command, fields = text[text.index("(") + 1:text.rindex(")")], text[text.rindex(")") + 2:].split()
        if command in names and fields[0] != "Z":
            found[int(stat.parent.name)] = (command, int(fields[1]))
    return found


class Watcher:
    """Notes every process of the given names that this test process starts, directly or
    through a child of that name (a thread polling /proc; other people's are left out)."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.seen: dict[int, str] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)

    def _poll(self) -> None:
        ours = {os.getpid()}
        while not self._stop.wait(0.02):
            for pid, (name, parent) in processes(self.names).items():
                if parent in ours or parent in self.seen or _parent_of(parent) in ours:
                    self.seen[pid] = name

    def __enter__(self) -> Watcher:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def survivors(self, wait: float = 2.0) -> dict[int, str]:
        """The processes seen that are still alive after up to ``wait`` seconds."""
        deadline = time.monotonic() + wait
        while True:
            alive = {pid: name for pid, name in self.seen.items() if pid in processes(self.names)}
            if not alive or time.monotonic() > deadline:
                return alive
            time.sleep(0.05)


def _parent_of(pid: int) -> int | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(text[text.rindex(")") + 2:].split()[1])


HARD_16X16 = "16x16_forum_samples.txt"
"""Its first puzzle takes Gecode 275,505 nodes (6 s) with bounds propagation and input order."""


def test_a_minizinc_time_limit_leaves_no_minizinc_or_solver_process_behind() -> None:
    backend = available("minizinc")
    puzzle = load(HARD_16X16)[0]
    with Watcher(("minizinc", "fzn-gecode")) as watcher:
        result = backend.solve(puzzle, time_limit=1.0, propagation="bounds", search="input_order")
    assert result.status is Status.TIMEOUT, f"{result.status}: {result.message}"
    assert "fzn-gecode" in watcher.seen.values(), f"the solver never ran: {watcher.seen}"
    assert watcher.survivors() == {}


def test_killing_minizinc_also_kills_the_solver_it_started_in_a_group_of_its_own(tmp_path: Path) -> None:
    # minizinc starts fzn-gecode in a new process group: a kill of minizinc's group alone
    # would leave it running; here MiniZinc has no time limit of its own, so the kill does it all
    available("minizinc")
    from solvers.encodings.minizinc import model_text
    path = tmp_path / "hard.mzn"
    path.write_text(model_text(Model.from_puzzle(load(HARD_16X16)[0]), "bounds", "input_order"))
    with Watcher(("minizinc", "fzn-gecode")) as watcher:
        code, _, _ = _process.execute([shutil.which("minizinc") or "minizinc", "--solver", "gecode", str(path)], 1.0)
    assert code is None, "the solver finished before the kill: the test needs a harder model"
    assert "fzn-gecode" in watcher.seen.values(), f"the solver never ran: {watcher.seen}"
    assert watcher.survivors() == {}


def test_a_killed_program_takes_a_child_that_left_its_session_with_it() -> None:
    if not Path("/proc/self/stat").exists() or shutil.which("setsid") is None:
        pytest.skip("needs Linux's /proc and setsid")
    script = "setsid sleep 60 & echo $!; sleep 60"
    code, out, _ = _process.execute(["sh", "-c", script], 0.5)
    escaped = int(out.split()[0])
    assert code is None
    deadline = time.monotonic() + 2
    while Path(f"/proc/{escaped}").exists() and Path(f"/proc/{escaped}/stat").read_text().split(") ")[1][0] != "Z":
        assert time.monotonic() < deadline, f"the child in its own session ({escaped}) survived"
        time.sleep(0.05)


def test_minizinc_counts_solutions_by_re_solving_where_a_solver_cannot_list_them() -> None:
    # a configuration without -a: each run rules out the grids found before it
    backend = available("minizinc")
    from solvers.backends import minizinc
    from solvers.encodings.minizinc import model_text
    puzzle = load("special_9x9_multiple_solutions.txt")[4]  # exactly 3 solutions
    model = Model.from_puzzle(puzzle)
    chosen = minizinc.find_configuration(backend.check_options({})["solver"])
    every = minizinc.solve_with(chosen, max_solutions=5, time_limit=30, text=model_text(model),
                                enumerate_in_one_run=False)
    assert every.status is Status.SOLVED and every.complete and len(set(every.solutions)) == 3
    assert all(verify(puzzle, grid).ok for grid in every.solutions)
    two = minizinc.solve_with(chosen, max_solutions=2, time_limit=30, text=model_text(model),
                              enumerate_in_one_run=False)
    assert len(set(two.solutions)) == 2 and two.unique is False and not two.complete


@pytest.mark.parametrize("status, grids, expected", [
    ("ALL_SOLUTIONS", 1, Status.SOLVED), ("UNSATISFIABLE", 0, Status.UNSAT), ("UNKNOWN", 0, Status.UNKNOWN),
    ("ERROR", 0, Status.ERROR), ("UNBOUNDED", 0, Status.ERROR), ("SOMETHING_NEW", 0, Status.ERROR),
    (None, 1, Status.SOLVED),
])
def test_minizinc_statuses_are_translated_one_by_one(status: str | None, grids: int, expected: Status) -> None:
    from solvers.backends import minizinc
    found = [(1,) * 16] * grids
    result = minizinc.translate(status, found, Stats(), limit_hit=False)
    assert result.status is expected
    assert result.complete is (status in ("ALL_SOLUTIONS", "UNSATISFIABLE"))
    if status == "SOMETHING_NEW":
        assert "does not know" in result.message


def test_minizinc_reads_its_json_stream_and_leaves_out_a_line_cut_by_a_kill() -> None:
    from solvers.backends import minizinc
    text = "\n".join([
        '{"type": "warning", "message": "deprecated"}',
        '{"type": "statistics", "statistics": {"flatIntVars": 12, "flatTime": 0.1}}',
        '{"type": "solution", "output": {"json": {"cell": [1, 2, 3]}}}',
        '{"type": "solution", "output": {"json": {"other": [1]}}}',
        '{"type": "statistics", "statistics": {"nodes": 5, "failures": 2}}',
        '{"type": "solution", "output": {"json": {"cell": [3, 2',
    ])
    stream = minizinc.read_stream(text)
    assert stream.grids == [(1, 2, 3)] and stream.status is None and stream.searched
    assert stream.errors and "without the cell array" in stream.errors[0]
    assert stream.statistics["nodes"] == 5 and stream.statistics["flatIntVars"] == 12


def test_minizinc_refuses_a_solver_it_does_not_list_or_cannot_run() -> None:
    backend = available("minizinc")
    with pytest.raises(OptionError, match=r"lists no solver configuration 'nosuch'; valid here: .*gecode"):
        backend.check_options({"solver": "nosuch"})
    from solvers.backends import minizinc
    broken = [c for c in minizinc.installed()[1] if c.problem]
    if broken:  # Debian's package lists MIP solvers whose libraries are not installed
        with pytest.raises(OptionError, match=f"lists {broken[0].name} but cannot run it"):
            backend.check_options({"solver": broken[0].short})
    assert backend.check_options({"solver": "org.gecode.gecode"})["solver"] == "org.gecode.gecode"


def test_minizinc_without_its_program_is_unavailable_with_the_install_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from solvers.backends import _minizinc_solvers
    monkeypatch.setattr(_minizinc_solvers.shutil, "which", lambda _name: None)
    reason = registry.get("minizinc").unavailable()
    assert reason is not None and "not on PATH" in reason and "apt-get install minizinc" in reason


def test_clingo_answers_that_are_neither_sat_nor_unsat_nor_unknown_are_an_error() -> None:
    available("asp")
    from solvers.backends import asp
    nothing = SimpleNamespace(satisfiable=False, unsatisfiable=False, unknown=False, exhausted=False)
    with pytest.raises(asp.UnknownAnswerError):
        asp.translate(nothing, [], Stats(), cancelled=False)
    stopped = SimpleNamespace(satisfiable=False, unsatisfiable=False, unknown=True, exhausted=False)
    assert asp.translate(stopped, [], Stats(), cancelled=True).status is Status.TIMEOUT


def test_choco_search_states_are_translated_and_an_unknown_one_raises() -> None:
    available("choco")
    from solvers.backends import choco
    assert choco.translate("TERMINATED", [], 1, Stats()).status is Status.UNSAT
    assert choco.translate("STOPPED", [], 1, Stats()).status is Status.TIMEOUT
    assert choco.translate("STOPPED", [(1,) * 16], 1, Stats()).complete is False
    with pytest.raises(choco.UnknownSearchStateError):
        choco.translate("KILLED", [], 1, Stats())


@pytest.mark.parametrize("consistency", ["AC", "AC_REGIN", "AC_ZHANG", "BC", "DEFAULT"])
def test_choco_solves_at_every_all_different_consistency_level(consistency: str) -> None:
    backend = available("choco")
    puzzle = load("hardest.txt")[1]
    result = backend.solve(puzzle, max_solutions=2, time_limit=30, consistency=consistency)
    assert result.unique is True and verify(puzzle, result.solution).ok


def test_a_choco_seed_is_its_random_search_and_refuses_another_named_search() -> None:
    backend = available("choco")
    assert backend.check_options({"seed": 7}) == {"consistency": "AC", "search": "random", "seed": 7}
    assert backend.check_options({"search": "random"})["seed"] == 0
    with pytest.raises(OptionError, match="seeds Choco's random search"):
        backend.check_options({"seed": 7, "search": "min_dom_lb"})
    puzzle = load("hardest.txt")[1]
    runs = [backend.solve(puzzle, max_solutions=2, time_limit=30, seed=seed) for seed in (1, 2)]
    assert all(run.unique is True and verify(puzzle, run.solution).ok for run in runs)


# a puzzle every one of them has to search (10 solutions: none settles it by propagation)
SEARCHED = ("special_9x9_multiple_solutions.txt", 6)


@pytest.mark.parametrize("backend_name, counters", [
    ("minizinc", {"nodes", "conflicts", "propagations"}), ("asp", {"nodes", "conflicts"}),
    ("choco", {"nodes", "conflicts", "backtracks"}),
])
def test_each_reports_its_own_search_counters(backend_name: str, counters: set[str]) -> None:
    backend = available(backend_name)
    result = backend.solve(load(SEARCHED[0])[SEARCHED[1]], max_solutions=50, time_limit=30)
    assert len(result.solutions) == 10 and result.complete
    measured = result.stats.as_dict()
    assert counters <= set(measured), f"{backend_name} measured {sorted(measured)}"
    assert measured["nodes"] > 0


def test_their_options_run_from_the_command_line() -> None:
    for name in ("minizinc", "asp", "choco"):
        available(name)
    configurations = ["minizinc:propagation=bounds:search=first_fail:solver=gecode",
                      "asp:encoding=extended:configuration=trendy", "choco:consistency=BC:search=min_dom_lb",
                      "choco:seed=3"]
    done = compare("run", "puzzles/small_4x4.txt", "--solvers", ",".join(configurations), "--format", "csv")
    assert done.returncode == 0, done.stderr
    rows = {row["configuration"]: row for row in csv.DictReader(io.StringIO(done.stdout))}
    assert sorted(rows) == sorted(configurations)
    assert all(row["solved"] == row["puzzles"] != "0" and row["wrong"] == "0" for row in rows.values()), rows


@pytest.mark.parametrize("spec, words", [
    ("minizinc:solver=nosuch", "lists no solver configuration 'nosuch'"),
    ("minizinc:propagation=strong", "option 'propagation' cannot be 'strong'"),
    ("asp:configuration=fastest", "option 'configuration' cannot be 'fastest'"),
    ("choco:seed=1:search=min_dom_lb", "seeds Choco's random search"),
])
def test_a_wrong_option_value_is_refused_before_any_run(spec: str, words: str) -> None:
    available(spec.split(":")[0])
    done = compare_here("run", "puzzles/small_4x4.txt", "--solvers", spec)
    assert done.returncode == 2 and words in done.stderr, done.stderr



@pytest.mark.parametrize("backend_name, package", [("asp", "clingo"), ("choco", "pychoco")])
def test_a_missing_package_is_named_with_the_extra_that_installs_it(monkeypatch: pytest.MonkeyPatch,
                                                                    backend_name: str, package: str) -> None:
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == package else real(name, *a))
    reason = registry.get(backend_name).unavailable()
    assert reason == (f"needs the package {package!r}: pip install 'sudoku-methods[cp]' "
                      f"(or pip install {package})")
