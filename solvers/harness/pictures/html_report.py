"""The interactive HTML report of saved runs (``report RUNS.json... --html OUT.html``): one
self-contained page in the spirit of BenchExec's table generator.

Everything is inline (the data, the script, the style): no server, no network. The data
(results/html_data.py: every run in columns, one row per puzzle and repetition, a column group
per configuration) is gzipped and base64-encoded into the page, which unpacks it with the
browser's DecompressionStream. The page then shows each configuration's runs counted by
category, the summary per puzzle set and configuration, the table of every run (sortable by
any column; filtered by set, size, category and text; only the rows on screen are drawn, so
100,000 runs scroll and filter at once), a comparison column between any two configurations
(their time ratio and any change of category), and per size the cactus, scatter and survival
plots, drawn on canvases when scrolled to, a point's puzzle shown on hover or focus.
"""
from __future__ import annotations

import base64
import gzip
import html
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..results.html_data import report_data
from ..results.merge import common_limit, merged_runs
from ..results.outputs import write_atomic

HERE = Path(__file__).resolve().parent
SCRIPT_FILE, STYLE_FILE = HERE / "html_report.js", HERE / "html_report.css"
"""The page's script and style, kept beside this module as plain JavaScript and CSS: the
script unpacks the data, keeps the runs as typed arrays and draws only the rows in view;
sorting, filtering and the comparison column work on those arrays; plots are canvases, a
point found under the mouse by a scan of that plot's points. ``window.report`` exposes the
state and the actions for tests and benchmarks; ``document.body.dataset.ready`` turns "true"
once the first screen is drawn, and ``report.timings`` says how long each step took (ms)."""


def write_report(documents: Sequence[dict[str, Any]], paths: Sequence[str], out: str, *,
                 title: str = "", par: float = 2.0, replays: str | None = None) -> int:
    """Write the page of every run of these documents to ``out``; the number of runs.
    MergeError when their limits differ."""
    limit = common_limit(documents, paths)
    runs = merged_runs(documents, paths) if len(documents) > 1 else list(documents[0]["runs"])
    data = report_data(runs, limit=limit, par=par, sources=paths, replays=replays,
                       page_dir=os.path.dirname(os.path.abspath(out)))
    write_atomic(out, render_page(data, title or default_title(paths)))
    return len(runs)


def default_title(paths: Sequence[str]) -> str:
    """'runs of a.json and b.json'."""
    names = [os.path.basename(p) for p in paths]
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"runs of {joined}"


def packed(data: dict[str, Any]) -> str:
    """The data as the page carries it: JSON, gzipped, base64."""
    raw = json.dumps(data, separators=(",", ":"), allow_nan=False).encode()
    return base64.b64encode(gzip.compress(raw, compresslevel=6, mtime=0)).decode("ascii")


def render_page(data: dict[str, Any], title: str) -> str:
    """The whole page as one string."""
    runs = len(data["runs"]["row"])
    limit = f"limit {data['limit']:g} s per run" if data["limit"] is not None else "no limit recorded"
    about = (f"{runs:,} runs of {len(data['configs'])} configurations on {len(data['rows']['index']):,} "
             f"puzzle rows (a puzzle and a repetition each); {limit}; from "
             + ", ".join(html.escape(s) for s in data["sources"]) + ".")
    return PAGE.format(title=html.escape(title), about=about, data=packed(data),
                       style=STYLE_FILE.read_text(encoding="utf-8"),
                       script=SCRIPT_FILE.read_text(encoding="utf-8"))


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{style}</style>
</head>
<body data-ready="false">
<header>
<h1>{title}</h1>
<p id="about">{about}</p>
<p id="loading" role="status">Unpacking the runs…</p>
</header>
<main>
<section aria-labelledby="counts-head">
<h2 id="counts-head">Runs by category, per configuration</h2>
<div class="wide"><table id="counts"></table></div>
</section>
<section aria-labelledby="summary-head">
<h2 id="summary-head">Summary per puzzle set and configuration</h2>
<p class="note">Counts are of puzzles (each puzzle's repetitions reduced first: solved when most of
them were correct and none wrong); times are seconds, an unsolved puzzle counted at the limit;
PAR-K counts it at K times the limit.</p>
<div class="wide"><table id="summary"></table></div>
</section>
<section aria-labelledby="runs-head">
<h2 id="runs-head">Every run</h2>
<form id="filters" onsubmit="return false">
<label>set <select id="f-set"><option value="">all</option></select></label>
<label>size <select id="f-size"><option value="">all</option></select></label>
<label>category <select id="f-category"><option value="">any</option>
<option value="differ">configurations differ</option></select></label>
<label>text <input id="f-text" type="search" placeholder="file, puzzle, why…" autocomplete="off"></label>
<span class="pair">compare <select id="f-a" aria-label="configuration A"></select> with
<select id="f-b" aria-label="configuration B"></select>
<label><input id="f-differ" type="checkbox"> only where their category differs</label></span>
<fieldset id="f-fields"><legend>columns per configuration</legend></fieldset>
</form>
<p id="shown" aria-live="polite"></p>
<p class="note">Click a column's heading (or Tab to it and press Enter) to sort by it, again to
reverse. In the table, the arrow keys, Page Up, Page Down, Home and End move the current row;
its runs are told in full below the table.</p>
<div id="grid" tabindex="0" role="grid" aria-label="every run, one row per puzzle and repetition">
<table id="table"><colgroup id="cols"></colgroup><thead id="thead"></thead><tbody id="tbody"></tbody></table>
</div>
<div id="detail" aria-live="polite"></div>
</section>
<section id="plots" aria-labelledby="plots-head">
<h2 id="plots-head">Plots</h2>
<p class="note">Per grid size: the cactus plot (runs solved within a time, one line per
configuration), the scatter of configuration B against A (the two compared above; unsolved runs on
the limit's edge) and the survival of the run times (the share of runs taking longer, log-log).
Hover a point, or focus a plot and use the arrow keys, to see its puzzle.</p>
<div id="plot-area"></div>
<div id="tip" role="status" aria-live="polite"></div>
</section>
</main>
<script id="data" type="application/octet-stream">{data}</script>
<script>{script}</script>
</body>
</html>
"""
