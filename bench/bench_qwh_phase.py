"""The quasigroup-with-holes phase transition (Achlioptas, Gomes, Kautz, Selman 2000).

    python bench/bench_qwh_phase.py [--order 25] [--start 0.30] [--stop 0.60] [--step 0.03]
        [--count 4] [--solvers cpsat,pysat=pysat:warm=false,fast=fast:branching=mrv] [--timeout 10]

Generates --count QWH instances of the order at every hole fraction of the sweep
(compare.py generate --variant latin --holes F, seeded per fraction), runs every
configuration on all of them once (compare.py run), then draws the median cost and its
interquartile band against the hole fraction (compare.py plot curve) for the conflicts
(CDCL solvers), the backtracks (fast depth-first: branching=mrv, its default on Sudoku)
and the time, printing where each configuration's median peaks. Output: bench/qwh_phase.json,
bench/qwh_phase.png (conflicts),
bench/qwh_phase_backtracks.png, bench/qwh_phase_time.png.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from common import ROOT, compare, plot_curves


def hole_fractions(start: float, stop: float, step: float) -> list[float]:
    """The sweep's hole fractions, start to stop inclusive, rounded to 3 places.

    >>> hole_fractions(0.30, 0.36, 0.03)
    [0.3, 0.33, 0.36]
    """
    if not 0 < start <= stop < 1 or step <= 0:
        raise ValueError(f"the sweep needs 0 < start <= stop < 1 and step > 0, not "
                         f"{start}, {stop}, {step}")
    count = round((stop - start) / step + 1e-9) + 1
    return [round(start + i * step, 3) for i in range(count) if start + i * step <= stop + 1e-9]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--order", type=int, default=25)
    parser.add_argument("--start", type=float, default=0.30)
    parser.add_argument("--stop", type=float, default=0.60)
    parser.add_argument("--step", type=float, default=0.03)
    parser.add_argument("--count", type=int, default=4, help="instances per hole fraction")
    parser.add_argument("--seed", type=int, default=1, help="the first fraction's generator seed")
    parser.add_argument("--solvers", default="cpsat,pysat=pysat:warm=false,fast=fast:branching=mrv",
                        help="the configurations; pysat with a fresh solver per instance, so that each "
                             "count is the instance's own, whatever ran before it in its worker")
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "qwh_phase.json")
    parser.add_argument("--plot", type=Path, default=ROOT / "bench" / "qwh_phase.png")
    parser.add_argument("--backtracks-plot", type=Path,
                        default=ROOT / "bench" / "qwh_phase_backtracks.png")
    parser.add_argument("--time-plot", type=Path, default=ROOT / "bench" / "qwh_phase_time.png")
    args = parser.parse_args()
    try:
        fractions = hole_fractions(args.start, args.stop, args.step)
    except ValueError as error:
        parser.error(str(error))
    with tempfile.TemporaryDirectory() as folder:
        instances = Path(folder) / f"qwh{args.order}_sweep.txt"
        with instances.open("w") as out:
            for number, fraction in enumerate(fractions):
                made = compare("generate", "--variant", "latin", "--size", str(args.order),
                               "--holes", str(fraction), "--count", str(args.count),
                               "--seed", str(args.seed + number), stdout=out)
                if made.returncode:
                    return made.returncode
        ran = compare("run", str(instances), "--solvers", args.solvers, "--timeout",
                      str(args.timeout), "--json", str(args.json))
    title = (f"QWH order {args.order}: {args.count} instances per hole fraction, "
             f"median and quartiles")
    drawn = plot_curves(args.json, "holes", (("conflicts", args.plot),
                                             ("backtracks", args.backtracks_plot),
                                             ("time_s", args.time_plot)), title)
    return ran.returncode or drawn


if __name__ == "__main__":
    sys.exit(main())
