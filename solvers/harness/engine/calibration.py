"""A short calibration of the machine's speed: a fixed CPU-bound probe, timed when a sweep
starts and when it ends, so two sweeps (or the start and end of one) can be compared.

The probe is pure Python integer work, the same on every machine and every run
(PROBE_ROUNDS rounds of PROBE_STEPS steps, about 10 ms of CPU each on this project's 2-core
test machine, so some 50 ms in all). Its figure is the median wall time of the rounds, in the parent
process, with nothing else of the sweep running.
"""
from __future__ import annotations

import statistics
import time
from typing import Any

PROBE_STEPS = 60_000
PROBE_ROUNDS = 5
PROBE = f"{PROBE_ROUNDS} rounds of a {PROBE_STEPS:,}-step integer recurrence (median wall time)"
DRIFT = 0.05
"""A probe that moved by more than this (5%) is a machine whose speed changed."""


def _work(steps: int) -> int:
    value = 1
    for step in range(steps):
        value = (value * 1_103_515_245 + step) % 2_147_483_648
    return value


def probe() -> dict[str, Any]:
    """Time the probe now: the median wall seconds and CPU seconds of its rounds."""
    walls, cpus = [], []
    for _ in range(PROBE_ROUNDS):
        wall, cpu = time.perf_counter(), time.process_time()
        _work(PROBE_STEPS)
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
    return {"wall_s": statistics.median(walls), "cpu_s": statistics.median(cpus),
            "rounds_wall_s": [round(w, 6) for w in walls]}


def calibration(start: dict[str, Any], end: dict[str, Any] | None) -> dict[str, Any]:
    """The calibration saved in a sweep's provenance: the probe, its figure at the start and
    the end, and how much it moved (end / start - 1; None if the sweep had no end probe)."""
    moved = end["wall_s"] / start["wall_s"] - 1 if end is not None and start["wall_s"] > 0 else None
    return {"probe": PROBE, "start": start, "end": end, "moved": moved}


def speed_figure(calibration: dict[str, Any] | None, clock: str = "wall_s") -> float | None:
    """One sweep's probe time on one clock (wall_s or cpu_s): the mean of its start and end
    figures (None if not recorded)."""
    if not isinstance(calibration, dict):
        return None
    figures = [side[clock] for side in (calibration.get("start"), calibration.get("end"))
               if isinstance(side, dict) and isinstance(side.get(clock), (int, float))]
    return statistics.fmean(figures) if figures else None
