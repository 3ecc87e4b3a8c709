"""What the bench scripts share with compare.py: the configuration syntax (``--solvers
[LABEL=]BACKEND[:OPTION=VALUE...],...`` and ``--plugin SPEC``, solvers/harness/engine/configs.py),
the same exit 2 on a bad configuration before anything runs, and one exit status:
non-zero when any run was wrong or errored; and where the runs go (``--executor
local|dask[=ADDRESS]``, solvers/harness/engine/executors.py). For the scripts that drive
compare.py itself (bench_qwh_phase, bench_tails, bench_givens): ``compare`` runs it in a
fresh interpreter, ``first_puzzles`` picks puzzle lines, ``plot_curves`` draws the curves."""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

if TYPE_CHECKING:
    from solvers.harness.engine.executors import Executor
    from solvers.harness.tasks import Configuration

FAILED = ("wrong", "error")


def compare(*args: str, **options: object) -> subprocess.CompletedProcess[str]:
    """compare.py run with these arguments in a fresh interpreter, as a user runs it (options
    such as stdout= or capture_output= go to subprocess.run); a failure is its exit status."""
    return subprocess.run([sys.executable, str(ROOT / "compare.py"), *args], check=False,
                          text=True, **options)  # type: ignore[call-overload]  # options pass through to subprocess.run


def first_puzzles(lines: Iterable[str], count: int) -> list[str]:
    """The first count puzzle lines of a line-format file (comments and blank lines skipped).

    >>> first_puzzles(["# a comment", "1..2", "", "2..1", "..12"], 2)
    ['1..2', '2..1']
    """
    puzzles = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    return puzzles[:count]


def plot_curves(results: Path, x: str, pictures: Iterable[tuple[str, Path]], title: str) -> int:
    """Draw each (measure, picture) as ``compare.py plot curve`` of a run's JSON results against
    the field x, every one even after a failure; the first non-zero exit status, else 0."""
    status = 0
    for measure, picture in pictures:
        drawn = compare("plot", "curve", str(results), "--x", x, "--y", measure,
                        "-o", str(picture), "--title", title)
        status = status or drawn.returncode
    return status


def add_configuration_arguments(parser: argparse.ArgumentParser, *, default: str) -> None:
    """--solvers (alias --backends) and --plugin, as compare.py has them."""
    parser.add_argument("--solvers", "--backends", dest="solvers", default=None, metavar="CONFIGS",
                        help="configurations [LABEL=]BACKEND[:OPTION=VALUE...], comma-separated, "
                             f"as in compare.py (default: {default})")
    parser.add_argument("--plugin", action="append", default=[], metavar="SPEC",
                        help="add your own backend, path/to/file.py:function (NAME=SPEC to name "
                             "it); usable as BACKEND in --solvers")


def configurations(args: argparse.Namespace, default: Iterable[str] = ()) -> list[Configuration]:
    """The chosen configurations (or the default names, then the plugins); exit 2 with the
    reason on a bad one, before anything runs."""
    # the toolkit is imported where it is used: the scripts that only launch compare.py
    # (compare, plot_curves) start without it
    from solvers.harness.engine import configs  # noqa: PLC0415 - see above
    from solvers.harness.engine.plugins import PluginError  # noqa: PLC0415 - see above
    try:
        plugins = configs.load_plugins(args.plugin)
        requested = args.solvers if args.solvers else ",".join(default) or None
        return configs.resolve(requested, plugins)
    except (configs.ConfigurationError, PluginError) as error:
        print(f"{Path(sys.argv[0]).name}: error: {error}", file=sys.stderr)
        raise SystemExit(2) from None


def exit_status(statuses: Iterable[str]) -> int:
    """1 when any run was wrong or errored (said on stderr), else 0."""
    failed = [status for status in statuses if str(status) in FAILED]
    if failed:
        print(f"{Path(sys.argv[0]).name}: {len(failed)} run(s) wrong or errored", file=sys.stderr)
        return 1
    return 0


def add_executor_arguments(parser: argparse.ArgumentParser) -> None:
    """--executor local|dask[=ADDRESS] and --chunk-size, as compare.py run has them."""
    from solvers.harness.engine import executors  # noqa: PLC0415 - as in configurations()
    executors.executor_options(parser)


def executor(args: argparse.Namespace, jobs: int | None) -> Executor:
    """The executor --executor names; exit 2 with the reason if it cannot be had."""
    from solvers.harness.engine import executors  # noqa: PLC0415 - as in configurations()
    try:
        return executors.make_executor(args.executor, jobs=jobs, chunk=args.chunk_size)
    except executors.ExecutorError as error:
        print(f"{Path(sys.argv[0]).name}: error: {error}", file=sys.stderr)
        raise SystemExit(2) from None


def provenance(started_load: list[float] | None = None) -> dict[str, object]:
    """What a bench script's JSON must carry (solvers.harness.results.provenance.environment:
    commit and a clean-tree flag, CPU model and flags, package versions and builds), the
    command line that wrote it (from the checkout's root) and the machine's load average
    when it started and now."""
    from solvers.harness.results.provenance import environment, load_average  # noqa: PLC0415 - as in configurations()
    try:
        script = str(Path(sys.argv[0]).resolve().relative_to(ROOT))
    except ValueError:
        script = sys.argv[0]
    return {**environment(), "command": ["python", script, *sys.argv[1:]],
            "load": {"started": started_load, "ended": load_average()}}


def write_json(path: Path, document: dict[str, object], started_load: list[float] | None = None) -> None:
    """Write a bench script's results with their provenance (``provenance`` key first)."""
    path.write_text(json.dumps({"provenance": provenance(started_load), **document}, indent=1) + "\n")
