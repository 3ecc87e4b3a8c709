"""One self-contained HTML page that replays a whole trace: forward and back, by keyboard or
by itself, with candidates, the cells a contradiction names marked, each step in words.

Everything is inline (the steps, the script, the style): the page needs no server and no
network. Python replays the trace once (``steps.changes``) and stores, per step, what it
changed in a compact form: small integers for the kind, the cells and the candidates, and
the step's sentence (``trace.describe``, the one source of the words). The whole is gzipped
and base64-encoded into the page, which unpacks it with the browser's DecompressionStream
and applies the changes forward or undoes them, drawing only the step it stops at; so a
trace of 200,000 events makes a page of about a megabyte (bench/README.md has the figures).

A step of the human solver that carries a chain (its trace event's ``links``) shows it over
the grid while the page stands on that step: strong links solid, weak links dashed, each an
arrow between the candidates it joins, and the candidates the step eliminates struck out in
red (on the steps after, they are gone like any other).

Open ``page.html#steps=N`` to start N steps in, ``#steps=N&back=M`` to then go M steps back,
``#play`` to start playing and ``#speed=S`` to play S steps a second (one of SPEEDS).
"""
from __future__ import annotations

import base64
import gzip
import html
import json
from typing import Any

from models.symbols import symbol

from ...trace import Event, describe
from .steps import Board, cage_corner, cage_sides, changes, named_cells

SPEEDS = (1, 2, 5, 10, 25, 100, 1000, 10000)  # steps a second the page offers to play at
DEFAULT_SPEED = 2


def page_data(events: list[Event], max_steps: int | None = None) -> dict[str, Any]:
    """What the page needs: the grid's shape, the first board, and the steps by column (one
    list per field, so the page parses a few long lists of numbers): each step's kind (index
    into kinds) and depth; its changes (cell, old value, old how, new value, new how, how as an
    index into hows), the candidates it rules out and brings back ((cell, value) pairs) and
    the cells a contradiction names, each field flat with its per-step count in count_FIELD;
    and its sentence (all sentences in one string, a line each)."""
    board = Board.start(events[0])
    model, n = board.model, board.model.n
    puzzle = model.puzzle
    if puzzle.regions is not None:
        region = list(puzzle.regions)
    else:
        region = [puzzle.geometry.box_of(cell) for cell in range(n * n)]
    hows: dict[str, int] = {}
    kinds: dict[str, int] = {}

    def how(name: str) -> int:
        return hows.setdefault(name, len(hows))

    first_values, first_hows = board.values[:], [how(h) for h in board.how]
    steps: dict[str, list[int]] = {key: [] for key in (
        "kind", "depth", "cells", "out", "back", "named", "links",
        "count_cells", "count_out", "count_back", "count_named", "count_links")}
    texts = []
    for number, (event, change) in enumerate(changes(board, events[1:])):
        if max_steps is not None and number >= max_steps:
            break
        steps["kind"].append(kinds.setdefault(event["kind"], len(kinds)))
        steps["depth"].append(event["depth"])
        fields = {"cells": [x for c, ov, oh, nv, nh in change.cells
                            for x in (c, ov, how(oh), nv, how(nh))],
                  "out": [x for pair in change.ruled_out for x in pair],
                  "back": [x for pair in change.brought_back for x in pair],
                  "named": list(named_cells(event, model)),
                  "links": flat_links(event)}
        for key, numbers in fields.items():
            steps[key].extend(numbers)
            steps[f"count_{key}"].append(len(numbers))
        texts.append(" ".join(describe(event, n).split()))  # one line each
    cages = [{"sides": {str(cell): [int(x) for x in sides]
                        for cell, sides in cage_sides(cage.cells, n).items()},
              "corner": cage_corner(cage.cells), "total": cage.total} for cage in puzzle.cages]
    return {"n": n, "symbols": [symbol(v) for v in range(1, n + 1)], "region": region,
            "cages": cages, "diagonals": puzzle.diagonals,
            "groups": [list(g.cells) for g in model.groups],
            "values": first_values, "how": first_hows, "hows": list(hows), "kinds": list(kinds),
            "solver": events[0]["solver"], "total": len(events) - 1,
            "steps": steps, "texts": "\n".join(texts)}


def flat_links(event: Event) -> list[int]:
    """A step's chain as numbers: per link, its first node's cell count, cells and digit, the
    second node's the same, then 1 (strong) or 0 (weak)."""
    flat: list[int] = []
    for tail, digit, head, to_digit, strong in event.get("links", []):
        flat += [len(tail), *tail, digit, len(head), *head, to_digit, int(strong)]
    return flat


def packed(data: dict[str, Any]) -> str:
    """The page data as gzipped JSON in base64: what the page's script unpacks."""
    raw = json.dumps(data, separators=(",", ":")).encode()
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")


def unpacked(page: str) -> dict[str, Any]:
    """The data a page written by render_page holds (the reverse of packed), for a reader or a test."""
    text = page.split('<script id="data" type="application/octet-stream">', 1)[1].split("</script>", 1)[0]
    return dict(json.loads(gzip.decompress(base64.b64decode(text))))


def render_page(events: list[Event], title: str, max_steps: int | None = None) -> str:
    """The whole page as one string."""
    speeds = "".join(f'<option value="{s}"{" selected" if s == DEFAULT_SPEED else ""}>'
                     f'{s:,} step{"" if s == 1 else "s"} a second</option>' for s in SPEEDS)
    return (TEMPLATE.replace("__TITLE__", html.escape(title))
            .replace("__SPEEDS__", speeds)
            .replace("__DATA__", packed(page_data(events, max_steps))))


TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>__TITLE__</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.15em; }
#controls { display: flex; flex-wrap: wrap; gap: .35em; align-items: center; }
#controls button, #controls select { font-size: 1em; padding: .25em .7em; }
#controls label { margin-left: .6em; }
#position { width: min(32em, 90vw); }
button:focus-visible, select:focus-visible, input:focus-visible { outline: 3px solid #0072b2; outline-offset: 2px; }
#status { margin: .6em 0; font-weight: bold; }
#sentence { min-height: 1.4em; margin: 0 0 .8em; }
table.grid { border-collapse: collapse; border: 3px solid #000; }
table.grid td { border: 1px solid #aaa; text-align: center; vertical-align: middle; position: relative;
  padding: 0; font-size: var(--font); width: var(--cell); height: var(--cell); }
td.given { font-weight: bold; }
td.decision { background: #ffd9a8; color: #1f3a93; }
td.forced { background: #f3c7de; color: #1f3a93; }
td.naked { background: #b9e3f7; color: #1f3a93; }
td.hidden { background: #c8ecd4; color: #1f3a93; }
td.rule { background: #d9d2f0; color: #1f3a93; }
td.diagonal { background-image: repeating-linear-gradient(45deg, transparent 0 6px, #e0e0e0 6px 8px); }
td.changed { outline: 3px solid #0072b2; outline-offset: -3px; }
td.named { box-shadow: inset 0 0 0 4px #b2182b;
  background-image: repeating-linear-gradient(135deg, #f6c4c4 0 4px, transparent 4px 9px); }
td.empty { color: #666; }
.cands { display: grid; font-size: var(--small); line-height: 1.05; }
.cands span.out { color: transparent; }
.cands span.gone { color: #c0392b; font-weight: bold; text-decoration: line-through; text-decoration-thickness: 2px; }
.cands span.node { background: #fff3b0; border-radius: 50%; font-weight: bold; color: #000; }
#board { position: relative; display: inline-block; }
#chain { position: absolute; left: 0; top: 0; pointer-events: none; overflow: visible; }
#chain path.strong { stroke: #0072b2; stroke-width: 2.5; fill: none; }
#chain path.weak { stroke: #e69f00; stroke-width: 2; stroke-dasharray: 6 4; fill: none; }
td.bt { border-top: 3px solid #000; } td.bl { border-left: 3px solid #000; }
.cage { position: absolute; pointer-events: none; border: 0 dashed #333; }
.ctotal { position: absolute; top: 1px; left: 2px; font-size: var(--tiny); line-height: 1;
  background: #fff; padding: 0 1px; color: #222; pointer-events: none; }
#log { font-family: ui-monospace, monospace; font-size: .85em; max-height: 14em; overflow-y: auto;
  margin-top: 1em; white-space: pre; }
#log .now { background: #fff3c4; }
.legend span { display: inline-block; padding: 0 .5em; margin: 0 .4em .3em 0; border: 1px solid #999; }
.hint { color: #555; font-size: .9em; }
</style>
</head>
<body>
<h1>__TITLE__</h1>
<div id="controls" role="toolbar" aria-label="replay controls" aria-controls="grid">
<button type="button" id="first" aria-label="back to the start" aria-keyshortcuts="Home" title="back to the start (Home)">&laquo; start</button>
<button type="button" id="prev" aria-label="one step back" aria-keyshortcuts="ArrowLeft" title="one step back (left arrow)">&lsaquo; back</button>
<button type="button" id="play" aria-pressed="false" aria-label="play" aria-keyshortcuts="Space" title="play or pause (space)">&#9654; play</button>
<button type="button" id="next" aria-label="one step forward" aria-keyshortcuts="ArrowRight" title="one step forward (right arrow)">next &rsaquo;</button>
<button type="button" id="last" aria-label="to the end" aria-keyshortcuts="End" title="to the end (End)">end &raquo;</button>
<label for="speed">speed</label>
<select id="speed">__SPEEDS__</select>
</div>
<p><label for="position">step</label> <input type="range" id="position" min="0" max="0" value="0" step="1"></p>
<div id="status" data-step="0">unpacking the trace&hellip;</div>
<p id="sentence" role="status" aria-live="polite" aria-atomic="true"></p>
<div id="board"><table class="grid" id="grid" aria-label="the grid, with each empty cell's candidates" aria-describedby="sentence"></table>
<svg id="chain" aria-hidden="true"><defs><marker id="arrow-strong" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#0072b2"/></marker><marker id="arrow-weak" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#e69f00"/></marker></defs></svg></div>
<p class="legend" aria-hidden="true"><span style="font-weight:bold">given</span><span style="background:#b9e3f7">naked single</span><span style="background:#c8ecd4">hidden single</span><span style="background:#d9d2f0">consistency</span><span style="background:#ffd9a8">decision</span><span style="background:#f3c7de">forced (one option)</span><span style="outline:3px solid #0072b2">changed by this step</span><span style="box-shadow: inset 0 0 0 3px #b2182b">named by the contradiction</span> small digits: candidates; a chain: <span style="border-bottom:3px solid #0072b2">strong link</span><span style="border-bottom:3px dashed #e69f00">weak link</span><span style="color:#c0392b;text-decoration:line-through">eliminated</span></p>
<p class="hint">Keys: left and right arrows step, space plays or pauses, Home and End jump to the start and the end.</p>
<div id="log" role="region" aria-label="the last steps" tabindex="0"></div>
<script id="data" type="application/octet-stream">__DATA__</script>
<script>
"use strict";
async function unpack() {
  const text = document.getElementById("data").textContent.trim();
  const bytes = Uint8Array.from(atob(text), c => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}
unpack().then(start, e => {
  document.getElementById("status").textContent = "this browser cannot unpack the trace: " + e;
});
function start(D) {
const n = D.n, values = D.values.slice(), how = D.how.map(h => D.hows[h]), out = new Set();
const texts = D.texts ? D.texts.split("\\n") : [];
const S = D.steps, total = S.kind.length;
// per field, where each step's numbers start in its flat list (one more entry: the end)
const at = {};
for (const key of ["cells", "out", "back", "named", "links"]) {
  const starts = new Int32Array(total + 1), counts = S["count_" + key];
  for (let i = 0; i < total; i++) starts[i + 1] = starts[i] + counts[i];
  at[key] = starts;
}
function part(key, i) { return S[key].slice(at[key][i], at[key][i + 1]); }
const peers = [];
for (let c = 0; c < n * n; c++) peers.push(new Set());
for (const g of D.groups) for (const a of g) for (const b of g) if (a !== b) peers[a].add(b);
const diagonal = new Set();
if (D.diagonals) for (let i = 0; i < n; i++) { diagonal.add(i * n + i); diagonal.add(i * n + n - 1 - i); }
let step = 0;
const grid = document.getElementById("grid"), cells = [];
const side = Math.max(22, Math.min(54, Math.floor(560 / n)));
grid.style.setProperty("--cell", side + "px");
grid.style.setProperty("--font", Math.floor(side * 0.55) + "px");
grid.style.setProperty("--tiny", Math.max(7, Math.floor(side * 0.24)) + "px");
grid.style.setProperty("--small", Math.max(7, Math.floor(side / (Math.ceil(Math.sqrt(n)) + 0.6))) + "px");
for (let r = 0; r < n; r++) {
  const tr = grid.insertRow();
  for (let c = 0; c < n; c++) {
    const td = tr.insertCell(), cell = r * n + c;
    td.dataset.cell = cell;
    if (r > 0 && D.region[cell] !== D.region[cell - n]) td.classList.add("bt");
    if (c > 0 && D.region[cell] !== D.region[cell - 1]) td.classList.add("bl");
    cells.push(td);
  }
}
// killer cages: per cell, its dashed outline (inset on the cage's border sides) and any total
const cageMarks = [];
for (let c = 0; c < n * n; c++) cageMarks.push([]);
const inset = Math.max(2, Math.round(side * 0.09));
for (const k of D.cages) {
  for (const [key, [t, r, b, l]] of Object.entries(k.sides)) {
    const div = document.createElement("div");
    div.className = "cage";
    div.style.top = (t ? inset : 0) + "px"; div.style.bottom = (b ? inset : 0) + "px";
    div.style.left = (l ? inset : 0) + "px"; div.style.right = (r ? inset : 0) + "px";
    div.style.borderWidth = [t, r, b, l].map(x => x ? "1px" : "0").join(" ");
    cageMarks[Number(key)].push(div);
  }
  if (k.total !== null) {
    const span = document.createElement("span");
    span.className = "ctotal";
    span.textContent = k.total;
    cageMarks[k.corner].push(span);
  }
}
function candidates(cell) {
  const taken = new Set();
  for (const p of peers[cell]) if (values[p]) taken.add(values[p]);
  const left = [];
  for (let v = 1; v <= n; v++) left.push(!taken.has(v) && !out.has(cell * (n + 1) + v));
  return left;
}
const CLASS = {"given": "given", "decision": "decision", "forced": "forced", "naked single": "naked",
               "hidden single": "hidden"};
function changedBy(i) {
  const set = new Set(), c = part("cells", i), o = part("out", i);
  for (let k = 0; k < c.length; k += 5) set.add(c[k]);
  for (let k = 0; k < o.length; k += 2) set.add(o[k]);
  return set;
}
function name(cell) { return "r" + (Math.floor(cell / n) + 1) + "c" + (cell % n + 1); }
function chainOf(i) {  // step i's links: [[cells, digit], [cells, digit], strong]
  const flat = part("links", i), links = [];
  let k = 0;
  while (k < flat.length) {
    const a = flat.slice(k + 1, k + 1 + flat[k]); k += 1 + flat[k];
    const da = flat[k++];
    const b = flat.slice(k + 1, k + 1 + flat[k]); k += 1 + flat[k];
    const db = flat[k++];
    links.push([[a, da], [b, db], flat[k++] === 1]);
  }
  return links;
}
function drawChain(links) {
  const svg = document.getElementById("chain"), board = document.getElementById("board").getBoundingClientRect();
  for (const old of svg.querySelectorAll("path.strong, path.weak")) old.remove();
  svg.setAttribute("width", board.width); svg.setAttribute("height", board.height);
  function centre([cellsOf, digit]) {
    let x = 0, y = 0;
    for (const cell of cellsOf) {
      const spans = cells[cell].querySelectorAll(".cands span");  // a cell this step filled has none
      const r = (spans.length ? spans[digit - 1] : cells[cell]).getBoundingClientRect();
      x += r.left + r.width / 2 - board.left; y += r.top + r.height / 2 - board.top;
    }
    return [x / cellsOf.length, y / cellsOf.length];
  }
  for (const [a, b, strong] of links) {
    const [x1, y1] = centre(a), [x2, y2] = centre(b), len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const sx = x1 + (x2 - x1) * 6 / len, sy = y1 + (y2 - y1) * 6 / len, ex = x2 - (x2 - x1) * 8 / len, ey = y2 - (y2 - y1) * 8 / len;
    const mx = (sx + ex) / 2 - (ey - sy) * 0.15, my = (sy + ey) / 2 + (ex - sx) * 0.15;  // a gentle bow
    const path = document.createElementNS(svg.namespaceURI, "path");  // the inline svg's own namespace
    path.setAttribute("d", `M${sx},${sy} Q${mx},${my} ${ex},${ey}`);
    path.setAttribute("class", strong ? "strong" : "weak");
    path.setAttribute("marker-end", strong ? "url(#arrow-strong)" : "url(#arrow-weak)");
    svg.appendChild(path);
  }
}
function draw() {
  const changed = step ? changedBy(step - 1) : new Set(), named = new Set(step ? part("named", step - 1) : []);
  const links = step ? chainOf(step - 1) : [], gone = new Set(), nodes = new Set();
  if (step) { const o = part("out", step - 1); for (let k = 0; k < o.length; k += 2) gone.add(o[k] * (n + 1) + o[k + 1]); }
  for (const [a, b] of links) for (const [cellsOf, digit] of [a, b]) for (const cell of cellsOf) nodes.add(cell * (n + 1) + digit);
  const showGone = links.length > 0;
  const wide = Math.ceil(Math.sqrt(n));
  for (let cell = 0; cell < n * n; cell++) {
    const td = cells[cell];
    td.className = td.className.split(" ").filter(k => k === "bt" || k === "bl").join(" ");
    if (diagonal.has(cell)) td.classList.add("diagonal");
    if (changed.has(cell)) td.classList.add("changed");
    let label;
    if (values[cell]) {
      td.classList.add(CLASS[how[cell]] || "rule");
      td.textContent = D.symbols[values[cell] - 1];
      label = name(cell) + ": " + D.symbols[values[cell] - 1] + ", " + how[cell];
    } else {
      td.classList.add("empty");
      const box = document.createElement("div"), left = [];
      box.className = "cands";
      box.setAttribute("aria-hidden", "true");
      box.style.gridTemplateColumns = "repeat(" + wide + ", 1fr)";
      candidates(cell).forEach((ok, i) => {
        const s = document.createElement("span"), key = cell * (n + 1) + i + 1;
        s.textContent = D.symbols[i];
        if (!ok) s.className = showGone && gone.has(key) ? "gone" : "out"; else left.push(D.symbols[i]);
        if (ok && nodes.has(key)) s.className = "node";
        box.appendChild(s);
      });
      td.replaceChildren(box);
      label = name(cell) + ": empty, " + (left.length ? "candidates " + left.join(" ") : "no candidate");
    }
    if (named.has(cell)) { td.classList.add("named"); label += ", named by the contradiction"; }
    td.setAttribute("aria-label", label);
    for (const mark of cageMarks[cell]) td.appendChild(mark);
  }
  drawChain(links);
  const status = document.getElementById("status");
  status.dataset.step = step;
  const cut = total < D.total ? " (the page holds the first " + total.toLocaleString("en") + " of " + D.total.toLocaleString("en") + ")" : "";
  status.textContent = "step " + step.toLocaleString("en") + " of " + total.toLocaleString("en") + cut + " \\u2014 " + D.solver;
  document.getElementById("sentence").textContent = (step ? "step " + step + ": " + texts[step - 1] : "the givens");
  const log = document.getElementById("log");
  log.replaceChildren();
  for (let i = Math.max(0, step - 12); i < step; i++) {
    const line = document.createElement("div");
    line.textContent = String(i + 1).padStart(5) + ". " + "  ".repeat(Math.min(S.depth[i], 20)) + texts[i];
    if (i === step - 1) line.className = "now";
    log.appendChild(line);
  }
  log.scrollTop = log.scrollHeight;
  const position = document.getElementById("position");
  position.value = step;
  position.setAttribute("aria-valuetext", "step " + step + " of " + total);
  for (const [id, off] of [["first", step === 0], ["prev", step === 0], ["next", step === total], ["last", step === total]]) {
    document.getElementById(id).disabled = off;
  }
}
function apply(i, forward) {  // step i (0-based) done, or undone
  const c = S.cells, o = S.out, b = S.back;
  if (forward) for (let k = at.cells[i]; k < at.cells[i + 1]; k += 5) { values[c[k]] = c[k + 3]; how[c[k]] = D.hows[c[k + 4]]; }
  else for (let k = at.cells[i + 1] - 5; k >= at.cells[i]; k -= 5) { values[c[k]] = c[k + 1]; how[c[k]] = D.hows[c[k + 2]]; }
  for (let k = at.out[i]; k < at.out[i + 1]; k += 2) { const x = o[k] * (n + 1) + o[k + 1]; forward ? out.add(x) : out.delete(x); }
  for (let k = at.back[i]; k < at.back[i + 1]; k += 2) { const x = b[k] * (n + 1) + b[k + 1]; forward ? out.delete(x) : out.add(x); }
}
function go(target) {
  target = Math.max(0, Math.min(total, target));
  while (step < target) { apply(step, true); step++; }
  while (step > target) { step--; apply(step, false); }
  draw();
}
// autoplay: a timer advances as many steps as the chosen speed owes since the last tick
let playing = false, timer = null, last = 0;
const playButton = document.getElementById("play"), speed = document.getElementById("speed");
const sentence = document.getElementById("sentence");
function setPlaying(on) {
  playing = on && step < total;
  playButton.setAttribute("aria-pressed", String(playing));
  playButton.setAttribute("aria-label", playing ? "pause" : "play");
  playButton.innerHTML = playing ? "&#10074;&#10074; pause" : "&#9654; play";
  // words for each step while it plays slowly; faster, the region waits for the pause
  sentence.setAttribute("aria-live", playing && Number(speed.value) > 1 ? "off" : "polite");
  clearTimeout(timer);
  if (playing) { last = performance.now(); timer = setTimeout(tick, Math.max(16, 1000 / Number(speed.value))); }
  else draw();
}
function tick() {
  const now = performance.now(), owed = Math.max(1, Math.floor((now - last) * Number(speed.value) / 1000));
  last = now;
  go(step + owed);
  if (step >= total) { setPlaying(false); return; }
  timer = setTimeout(tick, Math.max(16, 1000 / Number(speed.value)));
}
function stop() { if (playing) setPlaying(false); }
document.getElementById("next").onclick = () => { stop(); go(step + 1); };
document.getElementById("prev").onclick = () => { stop(); go(step - 1); };
document.getElementById("first").onclick = () => { stop(); go(0); };
document.getElementById("last").onclick = () => { stop(); go(total); };
playButton.onclick = () => setPlaying(!playing);
speed.onchange = () => { if (playing) setPlaying(true); };
const position = document.getElementById("position");
position.max = total;
position.oninput = () => { stop(); go(Number(position.value)); };
document.addEventListener("keydown", e => {
  const tag = e.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || e.altKey || e.ctrlKey || e.metaKey) return;  // they use these keys themselves
  if (e.key === " " && tag === "BUTTON") return;  // space presses the focused button
  const action = {"ArrowRight": () => { stop(); go(step + 1); }, "ArrowLeft": () => { stop(); go(step - 1); },
                  "Home": () => { stop(); go(0); }, "End": () => { stop(); go(total); },
                  " ": () => setPlaying(!playing)}[e.key];
  if (action) { e.preventDefault(); action(); }
});
const hash = location.hash;
const wanted = /speed=(\\d+)/.exec(hash);
if (wanted && [...speed.options].some(o => o.value === wanted[1])) speed.value = wanted[1];
const steps = /steps=(\\d+)/.exec(hash), back = /back=(\\d+)/.exec(hash);
go((steps ? Number(steps[1]) : 0) - (back ? Number(back[1]) : 0));
if (/(^|[#&])play\\b/.test(hash)) setPlaying(true);
document.body.dataset.ready = "true";
document.body.dataset.openedMs = Math.round(performance.now());
}
</script>
</body>
</html>
"""
