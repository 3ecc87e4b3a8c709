"""Simonis's consistency study, regenerated: the table and its figure.

    python bench/bench_consistency.py [--from bench/consistency.json] [--plot bench/consistency.png]

Without --from it runs ``compare.py study consistency`` on top95, the forum's 375 hardest,
Janko's 16x16 and blue's ultimate 16x16 (some 25 minutes on a loaded 2-core machine, most
of it sac on the forum's hardest) and saves the JSON; with --from it only draws. The
figure: per puzzle set, the share of puzzles each level settles with no search (bars) and
the share of open cells it fixes (dots), levels ordered as in the table.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETS = ("top95.txt", "forum_hardest_1106.txt", "16x16_gecode_janko.txt", "16x16_forum_blue_ultimate.txt")


def run_study(json_path: Path) -> int:
    """The study command on the sets, its table on stdout, the JSON saved."""
    return subprocess.run([sys.executable, str(ROOT / "compare.py"), "study", "consistency",
                           *(str(ROOT / "puzzles" / name) for name in SETS), "--format", "markdown",
                           "--json", str(json_path)], check=False).returncode


def draw(document: dict, path: Path) -> None:
    """Grouped bars: settled share per level and set; dots: share of open cells fixed."""
    import matplotlib  # noqa: PLC0415 - an optional extra
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 - the plot is optional, matplotlib with it

    sets = document["sets"]
    levels = list(sets[0]["levels"])
    figure, axis = plt.subplots(figsize=(9, 4.2))
    width = 0.8 / len(sets)
    hatches = ("", "//", "..", "xx")
    for k, entry in enumerate(sets):
        xs = [i + (k - (len(sets) - 1) / 2) * width for i in range(len(levels))]
        settled = [entry["levels"][level]["settled"] / entry["puzzles"] for level in levels]
        fixed = [entry["levels"][level]["fixed_share"] for level in levels]
        name = Path(entry["name"]).name.removesuffix(".txt")
        axis.bar(xs, settled, width, label=f"{name} ({entry['puzzles']}): settled",
                 hatch=hatches[k % len(hatches)], edgecolor="black", alpha=0.75)
        axis.plot(xs, fixed, "o", color="black", markersize=4,
                  label="share of open cells fixed" if k == 0 else None)
    axis.set_xticks(range(len(levels)), levels)
    axis.set_ylabel("share settled with no search / of cells fixed")
    axis.set_ylim(0, 1.05)
    axis.set_title("Consistency levels alone (Simonis 2005): puzzles settled without search")
    axis.legend(fontsize=7, loc="upper left")
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--from", dest="source", type=Path, default=None, metavar="JSON",
                        help="draw from a saved study (compare.py study consistency --json)")
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "consistency.json")
    parser.add_argument("--plot", type=Path, default=ROOT / "bench" / "consistency.png")
    args = parser.parse_args()
    status = 0
    source = args.source
    if source is None:
        status = run_study(args.json)
        source = args.json
    draw(json.loads(source.read_text()), args.plot)
    print(f"figure written to {args.plot}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
