"""The tables a bench script prints, kept so its ``--json`` file can make them again.

A script prints each table through ``shown`` (which records its rows and headers under a
name) and, given ``--json PATH``, ``save`` writes every table of the run with the run's
provenance (bench/common.py). ``render`` makes a kept table again from that JSON, in any
tabulate format, so a page can show a table that is exactly its rendering from a kept file
(bench/figures_targets.py registers which, and tests check the page still shows it).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tabulate import tabulate

KEPT: dict[str, dict[str, Any]] = {}
"""The tables shown so far in this process, by name (in the order shown)."""


def json_path(text: str) -> Path:
    """An argparse type for ``--json PATH``: refused (exit 2, before anything runs) when its
    folder does not exist."""
    import argparse  # noqa: PLC0415 - only the scripts' parsers need it
    path = Path(text)
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"{text}: no folder {path.parent} to write it in")
    return path


def shown(name: str, rows: Sequence[Sequence[Any]], headers: Sequence[str], **style: Any) -> str:
    """The table as tabulate writes it (``style``: tablefmt, floatfmt, disable_numparse, ...),
    recorded under ``name`` for ``save``."""
    kept = {"headers": list(headers), "rows": [list(row) for row in rows],
            "style": {key: value for key, value in style.items() if key != "tablefmt"}}
    KEPT[name] = kept
    return tabulate(kept["rows"], kept["headers"], tablefmt=style.get("tablefmt", "simple"), **kept["style"])


def render(document: Mapping[str, Any], name: str, tablefmt: str = "github") -> str:
    """A table of a kept JSON file, as the script printed it with ``--format tablefmt``."""
    kept = document["tables"][name]
    return tabulate(kept["rows"], kept["headers"], tablefmt=tablefmt, **kept["style"])


def save(path: Path | None, started_load: list[float] | None, **extra: Any) -> None:
    """Write the tables shown (and ``extra`` figures) with provenance, when ``path`` is given."""
    if path is None:
        return
    try:
        from common import write_json  # noqa: PLC0415 - a bench script: bench/ is on its path
    except ImportError:
        from bench.common import write_json  # noqa: PLC0415 - imported from the checkout's root
    write_json(path, {**extra, "tables": KEPT}, started_load)
