"""What the bench scripts share with compare.py: the configuration syntax (``--solvers
[LABEL=]BACKEND[:OPTION=VALUE...],...`` and ``--plugin SPEC``, solvers/harness/engine/configs.py),
the same exit 2 on a bad configuration before anything runs, and one exit status:
non-zero when any run was wrong or errored; and where the runs go (``--executor
local|dask[=ADDRESS]``, solvers/harness/engine/executors.py)."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from solvers.harness.engine import (
    configs,  # noqa: E402
    executors,  # noqa: E402
)
from solvers.harness.engine.plugins import PluginError  # noqa: E402
from solvers.harness.tasks import Configuration  # noqa: E402

FAILED = ("wrong", "error")


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
    executors.executor_options(parser)


def executor(args: argparse.Namespace, jobs: int | None) -> executors.Executor:
    """The executor --executor names; exit 2 with the reason if it cannot be had."""
    try:
        return executors.make_executor(args.executor, jobs=jobs, chunk=args.chunk_size)
    except executors.ExecutorError as error:
        print(f"{Path(sys.argv[0]).name}: error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
