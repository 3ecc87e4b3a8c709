"""``compare.py list [BACKEND]``: the backends and, for one, its options, counters and needs,
printed from the declarations (solvers/options.py) without loading any solver library."""
from __future__ import annotations

import argparse
import difflib
import json
import textwrap
from typing import Any

from ... import registry
from ...options import CONSTRAINT_KINDS, Option
from ..engine.configs import load_plugins
from ..results import tables
from .common import EXIT_OK, Subcommands, UsageError

WIDTH = 100
"""Every line of the text output fits in this many columns."""


def add_parser(subparsers: Subcommands) -> argparse.ArgumentParser:
    listing = subparsers.add_parser(
        "list", help="the backends; with a name, its options, counters and what it needs",
        description="The backends (available here or not, and why); 'list BACKEND': its options "
                    "with their values and defaults, its counters and what it needs.")
    listing.add_argument("backend", nargs="?", metavar="BACKEND", help="one backend in detail")
    listing.add_argument("--plugin", action="append", default=[], metavar="SPEC", help="list a plugin too")
    listing.add_argument("--format", choices=tables.TABLE_FORMATS, default="table")
    return listing


def run(args: argparse.Namespace) -> int:
    if args.backend is not None:
        if args.backend not in registry.BACKENDS:
            near = difflib.get_close_matches(args.backend, registry.names(), n=1)
            raise UsageError(f"unknown backend {args.backend!r}"
                             + (f"; did you mean {near[0]!r}?" if near else "")
                             + f" valid backends: {', '.join(registry.names())}")
        backend = registry.get(args.backend)
        if args.format not in ("table", "json"):
            raise UsageError(f"list {args.backend} prints its declaration as text (--format table) "
                             f"or JSON (--format json), not {args.format}")
        if args.format == "json":
            print(json.dumps(declared(backend), indent=2))
        else:
            print(detail(backend))
        return EXIT_OK
    rows = [backend_row(backend) for backend in registry.BACKENDS.values()]
    plugins = load_plugins(args.plugin)  # loaded in a worker, never here
    rows += [{"backend": name, "available": "yes", "package": "-", "version": "plugin",
              "encodings": "-", "options": "any (undeclared)", "time limit": "killed from outside",
              "counters": "-", "description": f"plugin {ref.plugin}"} for name, ref in plugins.items()]
    if args.format == "json":
        print(json.dumps(rows, indent=2))
    elif args.format == "csv":
        print(tables.csv_text(list(rows[0]), rows))
    else:
        print(overview(rows, args.format))
    return EXIT_OK


def backend_row(backend: registry.Backend) -> dict[str, str]:
    """One backend as a row (the JSON and CSV form of the list)."""
    reason = backend.unavailable()
    declaration = backend.declaration
    return {"backend": backend.name,
            "available": "yes" if reason is None else f"no: backend {backend.name!r} is unavailable: {reason}",
            "package": backend.package or "-", "version": backend.version,
            "encodings": ", ".join(backend.encodings) or "-",
            "options": "; ".join(f"{o.name}={o.valid()}" for o in declaration.options) or "-",
            "time limit": "honoured inside" if backend.interruptible else "killed from outside",
            "counters": "; ".join(f"{k} = {v}" for k, v in declaration.counters.items()) or "-",
            "description": backend.description}


def overview(rows: list[dict[str, str]], fmt: str = "table") -> str:
    """The list as a narrow table (name, here?, package, options), then why any is missing."""
    table = [[row["backend"], "yes" if row["available"] == "yes" else "no",
              row["package"] if row["package"] == "-" else f"{row['package']} {row['version']}",
              _wrapped(" ".join(_names(row)), 44) if fmt == "table" else " ".join(_names(row)) or "-"]
             for row in rows]
    text = tables.text_table(["backend", "here", "package", "options (compare.py list BACKEND)"],
                             table, [True] * 4, fmt)
    if fmt == "latex":
        return text
    missing = [f"{row['backend']}: {row['available'][4:]}" for row in rows if row["available"] != "yes"]
    notes = "\n".join(textwrap.fill(line, WIDTH, subsequent_indent="  ") for line in missing)
    return text + ("\n\n" + notes if notes else "")


def _names(row: dict[str, str]) -> list[str]:
    return [] if row["options"] == "-" else [item.split("=", 1)[0] for item in row["options"].split("; ")]


def _wrapped(text: str, width: int) -> str:
    return "\n".join(textwrap.wrap(text, width)) or "-"


def detail(backend: registry.Backend) -> str:
    """One backend: what it is, what it needs, its options (values, default, help), counters."""
    declaration = backend.declaration
    reason = backend.unavailable()
    lines = [f"{backend.name}: {backend.description}", ""]
    needs = "; ".join(filter(None, (backend.package and f"{backend.package} {backend.version}",
                                    declaration.program))) or "nothing beyond Python"
    lines.append(f"needs:        {needs}" + ("" if reason is None else f" (unavailable here: {reason})"))
    lines.append("time limit:   " + ("honoured inside" if backend.interruptible else "killed from outside"))
    lines.append("constraints:  " + ", ".join(k for k in CONSTRAINT_KINDS if k in declaration.constraints))
    lines.append("family:       " + _family(backend))
    lines.append("")
    lines.append("options (BACKEND:OPTION=VALUE:OPTION=VALUE):" if declaration.options else "options: none")
    for option in declaration.options:
        lines.append(f"  {option.name}={option.valid()}  (default {_default(option)})")
        lines.extend(textwrap.wrap(option.help, WIDTH, initial_indent="      ",
                                   subsequent_indent="      "))
    lines.append("")
    lines.append("counters:" if declaration.counters else "counters: none")
    for name, meaning in declaration.counters.items():
        lines.extend(textwrap.wrap(f"{name}: {meaning}", WIDTH, initial_indent="  ",
                                   subsequent_indent="      "))
    return "\n".join(textwrap.fill(line, WIDTH, subsequent_indent="      ") if len(line) > WIDTH
                     else line for line in lines)


def _family(backend: registry.Backend) -> str:
    """Its method family (the judge's word for runs that confirm nothing for each other)."""
    try:
        family = backend.family()
    except ValueError:  # defaults that do not resolve here (a missing program)
        return "-"
    if callable(backend.declaration.family):
        return f"{family} with the default options (one per CNF encoding)"
    return family


def _default(option: Option) -> str:
    return "none" if option.default is None else str(option.default).lower() \
        if isinstance(option.default, bool) else str(option.default)


def declared(backend: registry.Backend) -> dict[str, Any]:
    """One backend's declaration as JSON data."""
    declaration = backend.declaration
    return {"backend": backend.name, "description": backend.description,
            "package": backend.package, "version": backend.version,
            "available": backend.unavailable() is None, "unavailable": backend.unavailable(),
            "interruptible": backend.interruptible, "family": _family(backend).split(" ")[0],
            "constraints": sorted(declaration.constraints),
            "options": [{"name": o.name, "kind": o.kind, "valid": o.valid(), "default": o.default,
                         "choices": list(o.choices), "low": o.low, "high": o.high, "help": o.help}
                        for o in declaration.options],
            "counters": dict(declaration.counters)}


