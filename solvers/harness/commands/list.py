"""``compare.py list``: the backends, their encodings, packages, versions and counters."""
from __future__ import annotations

import argparse
import json

from ... import registry
from ...result import Result
from ..engine.configs import load_plugins
from ..results import report
from .common import EXIT_OK


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    listing = subparsers.add_parser("list", help="the backends, their encodings, packages and versions")
    listing.add_argument("--plugin", action="append", default=[], metavar="SPEC", help="list a plugin too")
    listing.add_argument("--format", choices=report.TABLE_FORMATS, default="table")
    return listing


def run(args: argparse.Namespace) -> int:
    rows = [_backend_row(backend) for backend in registry.BACKENDS.values()]
    plugins = load_plugins(args.plugin)  # loaded in a worker, never here
    for name, ref in plugins.items():
        rows.append(_backend_row(registry.Backend.from_function(
            name, _runs_in_workers, description=f"plugin {ref.plugin}")))
    if args.format == "json":
        print(json.dumps(rows, indent=2))
    elif args.format == "csv":
        print(",".join(rows[0]))
        for row in rows:
            print(",".join(_csv_cell(v) for v in row.values()))
    else:
        from tabulate import tabulate  # noqa: PLC0415
        print(tabulate([list(r.values()) for r in rows], headers=list(rows[0]), disable_numparse=True,
                       tablefmt="github" if args.format == "markdown" else "simple"))
    return EXIT_OK


def _backend_row(backend: registry.Backend) -> dict[str, str]:
    try:
        backend.load()
        available, encodings = "yes", ", ".join(backend.encodings) or "-"
        counters = "; ".join(f"{name} = {meaning}" for name, meaning in backend.counters.items()) or "-"
        options = option_text(backend)
    except registry.BackendUnavailableError as error:
        available, encodings, counters, options = f"no: {error}", "?", "?", "?"
    return {"backend": backend.name, "available": available, "package": backend.package or "-",
            "version": backend.version, "encodings": encodings, "options": options,
            "time limit": "honoured inside" if backend.interruptible else "killed from outside",
            "counters": counters, "description": backend.description}


def _runs_in_workers(*_args: object, **_options: object) -> Result:
    """A plugin's row in the list: its code runs in worker processes only, never here."""
    raise RuntimeError("plugins run in worker processes only")


def option_text(backend: registry.Backend) -> str:
    """The options a configuration of this backend may set, with their values where few."""
    choices = {**backend.choices, **({"encoding": backend.encodings} if backend.encodings else {})}
    return "; ".join(f"{name}={'|'.join(map(str, choices[name]))}" if name in choices else name
                     for name in backend.options) or "-"


def _csv_cell(value: str) -> str:
    return f'"{value}"' if "," in value or '"' in value else value
