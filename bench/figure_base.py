"""The record of one documented figure and how its kept files are read (issue 34, item 6).

bench/figures.py registers the figures (with bench/figures_docs.py for the manual's pages);
both build on ``Figure`` here, so neither imports the other's registrations.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
Outputs = Mapping[str, Path]
"""The JSON files a figure's commands wrote (or the kept ones), by base name."""


@dataclass(frozen=True)
class Figure:
    """One documented number: where it is shown and how it is made and read."""

    name: str
    page: str
    """The page that shows it, from the checkout's root."""
    shown: str
    """The text the page shows it as (checked to be there, so the two cannot drift apart)."""
    commands: tuple[tuple[str, ...], ...]
    files: tuple[str, ...]
    """The JSON files kept, from the checkout's root (the commands write each base name)."""
    read: Callable[[Outputs], float]
    low: float
    high: float
    cheap: bool = True
    what: str = ""
    """What kind of number it is: a count (exact) or a ratio (and whose interval)."""

    def holds(self, value: float) -> bool:
        """Whether a new value lies in the figure's interval (a small tolerance for rounding)."""
        slack = 1e-9 * max(1.0, abs(self.high))
        return self.low - slack <= value <= self.high + slack

    def kept(self) -> dict[str, Path]:
        """The kept files by base name (a missing one left out)."""
        return {Path(file).name: ROOT / file for file in self.files if (ROOT / file).exists()}

    def written(self, out: Path) -> dict[str, Path]:
        """The files the commands wrote into ``out``, by base name."""
        return {Path(file).name: out / Path(file).name for file in self.files}


def decoded(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


