"""The paired report as printed: one row per puzzle set and configuration, the machine-speed
lines of the drift check, the footnote, and the regression gate (--fail-if-slower)."""
from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from . import views
from .paired import ALPHA, RESAMPLES, TIE, p_text

FOOTNOTE = """Columns: pairs: puzzles run by both sides (one pair per puzzle and configuration), \
each puzzle set (file and grid size) its own rows; each side's time per puzzle is the upper median \
of its repetitions (the larger middle value of an even count) of the basis's clock ({basis} time), a \
run without a correct answer counted at the limit. new wins / new loses: pairs NEW is more than \
{tie:.0%} faster / slower; ties: within {tie:.0%}, or both unsolved. new/old (geo. mean): the \
geometric mean of NEW/OLD over the pairs at least one side solved (below 1: NEW is faster); 95% \
interval: a percentile bootstrap of it ({resamples} resamples of the pairs, seed 0), not corrected \
for several rows. sign test p: two-sided exact binomial test of wins against losses. Holm p: that \
p-value Holm-corrected over the rows of this table. verdict: NEW faster / slower when Holm p < \
{alpha:g} and the whole interval lies beyond {tie:.0%} either side of 1; otherwise no difference \
shown; not claimed, with two runs, when their calibration probes differ by more than 5% or one \
moved by more than 5% within its run (machine drift)."""


def shown_rows(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows with the headers people read (p-values never printed as 0)."""
    return [{"puzzle set": r["set"], "configuration": r["configuration"], "pairs": r["pairs"],
             "new wins": r["wins"], "new loses": r["losses"], "ties": r["ties"],
             "new/old (geo. mean)": r["ratio"], "95% interval": interval(r),
             "sign test p": p_text(r["sign_p"]), "Holm p": p_text(r["holm_p"]), "verdict": r["verdict"]}
            for r in rows]


def render(rows: Sequence[dict[str, Any]], fmt: str, speed: dict[str, Any], one_run: bool) -> str:
    """The table, then (as text) the drift check's lines and the footnote; CSV and JSON raw."""
    if fmt in ("json", "csv"):
        return views.render(rows, fmt)
    table = views.render(shown_rows(rows), fmt)
    if fmt == "latex":
        return table
    note = FOOTNOTE.format(tie=TIE, resamples=RESAMPLES, alpha=ALPHA, basis=speed.get("basis", "wall"))
    lines = [textwrap.fill(line, 100) for line in speed_lines(speed, one_run).splitlines()]
    return table + "\n\n" + "\n".join([*lines, textwrap.fill(note, 100)])


def interval(row: dict[str, Any]) -> str:
    if row["ratio_low"] is None:
        return "-"
    return f"{row['ratio_low']:.3g} - {row['ratio_high']:.3g}"


def speed_lines(speed: dict[str, Any], one_run: bool) -> str:
    """What the calibration probes say about the machine(s): the drift check, stating what it
    measured (the probe's wall or CPU time, as the basis)."""
    def moved(value: float | None) -> str:
        return "unknown" if value is None else f"{value:+.1%}"

    clock = "CPU" if speed.get("basis") == "cpu" else "wall"
    if one_run:
        line = (f"Machine: the run's calibration probe ({clock} time) moved {moved(speed['old_moved'])} "
                "from its start to its end")
        line += (". Warning: more than 5%, but the configurations were interleaved, so "
                 "the pairs shared the drift." if speed["warning"] else ".")
        return line + (f"\nWarning: {speed['placement']}." if speed.get("placement") else "")
    relative = speed["relative"]
    line = ("Machine speed: " + ("unknown (a run saved no calibration probe)" if relative is None else
            f"probe {clock} time NEW/OLD = {relative:.3f} (above 1: NEW's machine was slower)")
            + f"; the probe moved {moved(speed['old_moved'])} within OLD, "
            f"{moved(speed['new_moved'])} within NEW.")
    if speed["refused"]:
        line += f"\nNo significance claimed: {speed['refused']}."
    return line


def slower_rows(rows: Sequence[dict[str, Any]], percent: float) -> list[dict[str, Any]]:
    """The rows in which NEW is slower than OLD by more than ``percent`` with the paired test's
    confidence: Holm p below ALPHA and the whole 95% interval of NEW/OLD above 1 + percent/100."""
    bound = 1 + percent / 100
    return [r for r in rows if r["holm_p"] is not None and r["holm_p"] < ALPHA
            and r["ratio_low"] is not None and r["ratio_low"] > bound]


def gate_message(rows: Sequence[dict[str, Any]], percent: float, refused: str) -> tuple[bool, str]:
    """(failed, the line saying why) of --fail-if-slower PCT over the paired rows."""
    if refused:
        return False, (f"--fail-if-slower {percent:g}: not judged, no claim can be made: {refused} "
                       "(exit 0; rerun both on a quiet machine, or compare CPU time: --basis cpu)")
    slower = slower_rows(rows, percent)
    if not slower:
        return False, (f"--fail-if-slower {percent:g}: passed: no row is slower by more than "
                       f"{percent:g}% with Holm p < {ALPHA:g}")
    named = "; ".join(f"{r['configuration']} on {r['set']}: NEW/OLD {r['ratio']:.3g} "
                      f"(95% interval {interval(r)}), Holm p {p_text(r['holm_p'])}" for r in slower)
    return True, f"--fail-if-slower {percent:g}: NEW is slower by more than {percent:g}%: {named}"
