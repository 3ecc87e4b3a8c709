"""A saved run document (``--json``) read back as carefully as a results database's rows.

``report`` and ``plot`` read files anyone may have edited or forged. ``read_json`` bounds
what is read: at most MAX_DOCUMENT_BYTES, and JSON within ``solvers.jsonbounds`` (nesting,
integer size, no NaN or infinity: a 100,000-deep list, a 5,000-digit integer or a stat of
``1e400`` is one clear error). ``document_problem`` checks the shape of every part a report
reads besides the runs (the runs are checked against the run record's definition by
``records.bad_field``, as the database's rows are by ``db_checks``): the limit, the options,
the calibration probe, the disagreements. Every problem names where it is and what it
found, and the caller turns it into exit 2.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ...jsonbounds import JsonBoundsError, dumps, loads
from ..tasks import MAX_COUNT, MAX_SECONDS

MAX_DOCUMENT_BYTES = 1 << 30
"""The largest saved run read (1 GiB, about 700,000 runs): a larger sweep belongs in a
results database (--db), which reports read row by row."""


class SavedFileError(ValueError):
    """A saved document that cannot be read: too large, not UTF-8, or JSON past a bound."""


Check = tuple[Callable[[Any], bool], str]


def _whole(low: int = 0) -> Check:
    return (lambda v: type(v) is int and low <= v <= MAX_COUNT), f"a whole number from {low}"


def _number(low: float, high: float, *, above: bool = False) -> Check:
    def fits(value: Any) -> bool:
        return type(value) in (int, float) and (value > low if above else value >= low) and value <= high
    return fits, f"a number from {low:g} to {high:g}"


def _nullable(check: Check) -> Check:
    fits, what = check
    return (lambda v: v is None or fits(v)), what + " or null"


def _list_of(kind: type, what: str) -> Check:
    return (lambda v: type(v) is list and all(type(item) is kind for item in v)), f"a list of {what}"


TEXT: Check = (lambda v: type(v) is str), "text"
FLAG: Check = (lambda v: type(v) is bool), "true or false"
OBJECT: Check = (lambda v: type(v) is dict), "an object"
DOCUMENT_CHECKS: dict[str, Check] = {
    "version": _whole(1), "partial": FLAG, "created": TEXT,
    "limit_s": _nullable(_number(0, MAX_SECONDS, above=True)),
    "repeat": _nullable(_whole(1)), "seed": _nullable((lambda v: type(v) is int and -MAX_COUNT <= v <= MAX_COUNT,
                                                        "a whole number")),
    "options": OBJECT, "calibration": _nullable(OBJECT),
    "disagreements": _list_of(dict, "objects"), "input_errors": _list_of(dict, "objects"),
    "summary": _list_of(dict, "objects"), "configurations": _list_of(dict, "objects"),
    "sweeps": _list_of(dict, "objects"),
}
"""The document's own keys a reader uses (absent is fine: older files lack some)."""
OPTION_CHECKS: dict[str, Check] = {
    "unique": FLAG, "exclude_warmup": FLAG, "timeout_s": _nullable(_number(0, MAX_SECONDS, above=True)),
    "par": _number(0, 1e6, above=True), "max_solutions": _whole(1), "repeat": _whole(1),
}
PROBE_CHECKS: dict[str, Check] = {"wall_s": _nullable(_number(0, MAX_SECONDS)),
                                  "cpu_s": _nullable(_number(0, MAX_SECONDS))}
CLAIM_KEYS = ("solver", "claim", "category", "reason")
DISAGREEMENT_CHECKS: dict[str, Check] = {
    "file": TEXT, "index": _whole(), "line": _nullable(_whole()), "puzzle": TEXT,
    "claims": ((lambda v: type(v) is list and all(type(c) is dict and all(type(c.get(k)) is str
                                                                          for k in CLAIM_KEYS) for c in v)),
               f"a list of objects with {', '.join(CLAIM_KEYS)} as text"),
}


def read_json(path: str | Path) -> Any:
    """The JSON value of a saved file, read within the bounds; OSError if it cannot be
    opened, SavedFileError if it is too large, not UTF-8 or past a bound of JSON."""
    with open(path, "rb") as handle:
        data = handle.read(MAX_DOCUMENT_BYTES + 1)
    if len(data) > MAX_DOCUMENT_BYTES:
        raise SavedFileError(f"more than {MAX_DOCUMENT_BYTES:,} bytes: too large to read whole "
                             "(a sweep this large belongs in a results database: run ... --db)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise SavedFileError(f"not UTF-8: byte 0x{data[error.start]:02x} at offset {error.start:,}") \
            from None
    try:
        return loads(text)
    except JsonBoundsError as error:
        raise SavedFileError(str(error)) from None


def document_problem(document: dict[str, Any]) -> str:
    """What is wrong with a saved document's own keys ('' when nothing): the first key whose
    value is not what a report reads there, named by its path."""
    problem = _first_bad(document, DOCUMENT_CHECKS, "")
    if problem:
        return problem
    options, calibration = document.get("options", {}), document.get("calibration") or {}
    problem = _first_bad(options, OPTION_CHECKS, "options.")
    for side in ("start", "end"):
        probe = calibration.get(side)
        if not problem and probe is not None:
            problem = (_first_bad(probe, PROBE_CHECKS, f"calibration.{side}.") if type(probe) is dict
                       else f"calibration.{side} is not an object")
    if not problem and "moved" in calibration:
        problem = _first_bad(calibration, {"moved": _nullable(_number(-1e6, 1e6))}, "calibration.")
    for number, item in enumerate(document.get("disagreements", [])):
        problem = problem or _first_bad(item, DISAGREEMENT_CHECKS, f"disagreements[{number}].",
                                        required=True)
    return problem


def unlike_runs(runs: list[dict[str, Any]]) -> str:
    """What makes a document's runs unlike ('' when nothing): a run that repeats another
    (the same puzzle, configuration, repetition and seed: it would be counted twice), or a
    configuration name standing for two backends or two sets of options besides the seed
    (they would be summed as one). The runs' fields are already checked."""
    seen: dict[Any, int] = {}
    meant: dict[str, tuple[int, Any]] = {}
    for number, run in enumerate(runs):
        name = run.get("configuration", run["solver"])
        key = (run["file"], run["index"], name, run.get("repeat"), run.get("seed"))
        if key in seen:
            return (f"run {number} repeats run {seen[key]} (puzzle {run['index'] + 1} of {_shown(run['file'])}, "
                    f"{_shown(name)}, repetition {run.get('repeat')}): each run is saved once")
        seen[key] = number
        options = run.get("options")
        if type(options) is dict:  # --seeds: one configuration, a seed each run
            options = {key: value for key, value in options.items() if key != "seed"}
        what = (run.get("backend"), dumps(options, sort_keys=True))
        first, before = meant.setdefault(name, (number, what))
        if before != what:
            return (f"run {number}'s configuration {_shown(name)} is {_shown(what[0])} with options "
                    f"{what[1][:40]}, but run {first}'s is {_shown(before[0])} with {before[1][:40]}: "
                    "one name, two configurations")
    return ""


def document_text(document: Mapping[str, Any]) -> str:
    """A document as saved: JSON, indented, with any NaN or infinity written as null, so that
    ``read_json`` always takes back what the toolkit wrote."""
    return dumps(document, indent=1) + "\n"


def _first_bad(values: dict[str, Any], checks: dict[str, Check], where: str, *,
               required: bool = False) -> str:
    for key, (fits, what) in checks.items():
        if key not in values:
            if required:
                return f"{where}{key} is missing"
            continue
        if not fits(values[key]):
            return f"{where}{key} is {_shown(values[key])}, not {what}"
    return ""


def _shown(value: Any) -> str:
    text = dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."
