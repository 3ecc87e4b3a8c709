"""Several saved runs as one: every run of every document, a configuration that appears in more
than one told apart by its document's name ('mrv (old)'), under one time limit."""
from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .scores import document_limit


class MergeError(ValueError):
    """Documents that cannot share one table or picture; the message says why."""


def common_limit(documents: Sequence[dict[str, Any]], paths: Sequence[str]) -> float:
    """The time limit every document used; MergeError if one does not say or they differ."""
    limits: list[float] = []
    for document, path in zip(documents, paths):
        limit = document_limit(document)
        if limit is None:
            raise MergeError(f"{path}: the saved run does not say its time limit")
        limits.append(limit)
    if any(not math.isclose(limit, limits[0]) for limit in limits):
        raise MergeError("the runs' limits differ (" + ", ".join(f"{x:g} s" for x in limits)
                         + "): their times cannot share one table or picture")
    return limits[0]


def document_names(paths: Sequence[str]) -> list[str]:
    """A short distinct name per document: its file's stem, with its folder where two share it.

    >>> document_names(["a/run.json", "b/run.json", "c/new.json"])
    ['a/run', 'b/run', 'new']
    """
    stems = [Path(p).stem for p in paths]
    return [str(Path(p).with_suffix("")) if stems.count(stem) > 1 else stem
            for p, stem in zip(paths, stems)]


def merged_runs(documents: Sequence[dict[str, Any]], paths: Sequence[str]) -> list[dict[str, Any]]:
    """Every run of every document, each with its ``source`` (the document's name); a
    configuration label found in more than one document gets that name added: 'mrv (old)'."""
    names = document_names(paths)
    labels = [{r.get("configuration", r["solver"]) for r in d["runs"]} for d in documents]
    seen: dict[str, int] = {}
    for found in labels:
        for label in found:
            seen[label] = seen.get(label, 0) + 1
    merged = []
    for document, name in zip(documents, names):
        for run in document["runs"]:
            label = run.get("configuration", run["solver"])
            if seen[label] > 1:
                label = f"{label} ({name})"
            merged.append({**run, "configuration": label, "solver": label, "source": name})
    return merged


def merged_document(documents: Sequence[dict[str, Any]], paths: Sequence[str]) -> dict[str, Any]:
    """One document of every run of these (the first one's provenance; ``sources``: the
    paths), so every single-run view reads it as it reads one."""
    if len(documents) == 1:
        return documents[0]
    limit = common_limit(documents, paths)
    return {**documents[0], "limit_s": limit, "sources": list(paths),
            "partial": any(d.get("partial") for d in documents),
            "disagreements": [x for d in documents for x in d.get("disagreements", [])],
            "runs": merged_runs(documents, paths)}
