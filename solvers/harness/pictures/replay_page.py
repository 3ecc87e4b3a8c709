"""One self-contained HTML page that steps through a trace, forward and back, with candidates.

Everything is inline (the steps as JSON, the script, the style): the page needs no
server and no network. Python replays the trace once (``steps.replay``) and stores
what each step changed; the page applies those changes forward or undoes them. Open
``page.html#steps=N`` to start N steps in, ``#steps=N&back=M`` to then go M steps back
(the browser test uses these: they press the same buttons a reader does).
"""
from __future__ import annotations

import html
import json
from typing import Any

from models.symbols import symbol

from ...trace import Event, describe
from .steps import Board, cage_corner, cage_sides, replay


def page_data(events: list[Event], max_steps: int, total: int | None = None) -> dict[str, Any]:
    """What the page needs: the grid's shape, the first board, and each step's changes
    (``total``: the events of the whole trace, when ``events`` are its first ones only)."""
    board = Board.start(events[0])
    model, n = board.model, board.model.n
    puzzle = model.puzzle
    if puzzle.regions is not None:
        region = list(puzzle.regions)
    else:
        region = [puzzle.geometry.box_of(cell) for cell in range(n * n)]
    steps = []
    for number, (event, _, change) in enumerate(replay(events)):
        if number >= max_steps:
            break
        steps.append({"text": describe(event, n), "kind": event["kind"], "depth": event["depth"],
                      "cells": [list(c) for c in change.cells],
                      "out": [list(x) for x in change.ruled_out],
                      "back": [list(x) for x in change.brought_back]})
    cages = [{"sides": {str(cell): [int(x) for x in sides]
                        for cell, sides in cage_sides(cage.cells, n).items()},
              "corner": cage_corner(cage.cells), "total": cage.total} for cage in puzzle.cages]
    return {"n": n, "symbols": [symbol(v) for v in range(1, n + 1)], "region": region,
            "cages": cages,
            "diagonals": puzzle.diagonals, "groups": [list(g.cells) for g in model.groups],
            "values": board.values, "how": board.how, "solver": events[0]["solver"],
            "total": (len(events) if total is None else total) - 1, "steps": steps}


def render_page(events: list[Event], max_steps: int, title: str, total: int | None = None) -> str:
    """The whole page as one string."""
    data = json.dumps(page_data(events, max_steps, total), separators=(",", ":"))
    # JSON inside <script>: keep '</' from closing the element early
    data = data.replace("</", "<\\/")
    return (TEMPLATE.replace("__TITLE__", html.escape(title))
            .replace("__DATA__", data))


TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>__TITLE__</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.15em; }
#controls button { font-size: 1em; margin-right: .3em; padding: .25em .7em; }
#status { margin: .6em 0; font-weight: bold; }
#sentence { min-height: 1.4em; margin-bottom: .8em; }
table.grid { border-collapse: collapse; border: 3px solid #000; }
table.grid td { border: 1px solid #aaa; text-align: center; vertical-align: middle;
  padding: 0; font-size: var(--font); width: var(--cell); height: var(--cell); }
td.given { font-weight: bold; }
td.decision { background: #ffd9a8; color: #1f3a93; }
td.naked { background: #b9e3f7; color: #1f3a93; }
td.hidden { background: #c8ecd4; color: #1f3a93; }
td.diagonal { background-image: repeating-linear-gradient(45deg, transparent 0 6px, #e0e0e0 6px 8px); }
td.changed { outline: 3px solid #d55e00; outline-offset: -3px; }
td.empty { color: #666; }
.cands { display: grid; font-size: var(--small); line-height: 1.05; }
.cands span.out { color: transparent; }
td.bt { border-top: 3px solid #000; } td.bl { border-left: 3px solid #000; }
table.grid td { position: relative; }
.cage { position: absolute; pointer-events: none; border: 0 dashed #333; }
.ctotal { position: absolute; top: 1px; left: 2px; font-size: var(--tiny); line-height: 1;
  background: #fff; padding: 0 1px; color: #222; pointer-events: none; }
#log { font-family: ui-monospace, monospace; font-size: .85em; max-height: 14em; overflow-y: auto;
  margin-top: 1em; white-space: pre; }
#log .now { background: #fff3c4; }
.legend span { display: inline-block; padding: 0 .5em; margin-right: .4em; border: 1px solid #999; }
</style>
</head>
<body>
<h1>__TITLE__</h1>
<div id="controls">
<button id="first" title="back to the start (Home)">&laquo; start</button>
<button id="prev" title="one step back (left arrow)">&lsaquo; back</button>
<button id="next" title="one step forward (right arrow)">next &rsaquo;</button>
<button id="last" title="to the end (End)">end &raquo;</button>
</div>
<div id="status" data-step="0"></div>
<div id="sentence"></div>
<table class="grid" id="grid"></table>
<p class="legend"><span style="font-weight:bold">given</span><span style="background:#b9e3f7">naked single</span><span style="background:#c8ecd4">hidden single</span><span style="background:#ffd9a8">decision</span><span style="outline:3px solid #d55e00">changed by this step</span> small digits: candidates</p>
<div id="log"></div>
<script id="data" type="application/json">__DATA__</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const n = D.n, values = D.values.slice(), how = D.how.slice(), out = new Set();
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
  for (let v = 1; v <= n; v++) left.push(!taken.has(v) && !out.has(cell + "," + v));
  return left;
}
const CLASS = {"given": "given", "decision": "decision", "naked single": "naked", "hidden single": "hidden"};
function draw(changed) {
  const wide = Math.ceil(Math.sqrt(n));
  for (let cell = 0; cell < n * n; cell++) {
    const td = cells[cell];
    td.className = td.className.split(" ").filter(k => k === "bt" || k === "bl").join(" ");
    if (diagonal.has(cell)) td.classList.add("diagonal");
    if (changed.has(cell)) td.classList.add("changed");
    if (values[cell]) {
      td.classList.add(CLASS[how[cell]] || "decision");
      td.textContent = D.symbols[values[cell] - 1];
    } else {
      td.classList.add("empty");
      const box = document.createElement("div");
      box.className = "cands";
      box.style.gridTemplateColumns = "repeat(" + wide + ", 1fr)";
      candidates(cell).forEach((ok, i) => {
        const s = document.createElement("span");
        s.textContent = D.symbols[i];
        if (!ok) s.className = "out";
        box.appendChild(s);
      });
      td.replaceChildren(box);
    }
    for (const mark of cageMarks[cell]) td.appendChild(mark);
  }
  const status = document.getElementById("status");
  status.dataset.step = step;
  const cut = D.steps.length < D.total ? " (the page holds the first " + D.steps.length + " of " + D.total + ")" : "";
  status.textContent = "step " + step + " of " + D.steps.length + cut + " \\u2014 " + D.solver;
  document.getElementById("sentence").textContent = step ? D.steps[step - 1].text : "the givens";
  const log = document.getElementById("log");
  log.replaceChildren();
  for (let i = Math.max(0, step - 12); i < step; i++) {
    const line = document.createElement("div");
    line.textContent = String(i + 1).padStart(5) + ". " + "  ".repeat(Math.min(D.steps[i].depth, 20)) + D.steps[i].text;
    if (i === step - 1) line.className = "now";
    log.appendChild(line);
  }
  document.getElementById("prev").disabled = step === 0;
  document.getElementById("first").disabled = step === 0;
  document.getElementById("next").disabled = step === D.steps.length;
  document.getElementById("last").disabled = step === D.steps.length;
}
function apply(s, forward) {
  for (const [cell, oldV, oldHow, newV, newHow] of s.cells) {
    values[cell] = forward ? newV : oldV;
    how[cell] = forward ? newHow : oldHow;
  }
  for (const [cell, v] of s.out) forward ? out.add(cell + "," + v) : out.delete(cell + "," + v);
  for (const [cell, v] of s.back) forward ? out.delete(cell + "," + v) : out.add(cell + "," + v);
}
function changedBy(s) { return new Set(s.cells.map(c => c[0]).concat(s.out.map(x => x[0]))); }
function next() { if (step < D.steps.length) { apply(D.steps[step], true); step++; draw(changedBy(D.steps[step - 1])); } }
function prev() { if (step > 0) { step--; apply(D.steps[step], false); draw(step ? changedBy(D.steps[step - 1]) : new Set()); } }
function go(target) { while (step < target) { apply(D.steps[step], true); step++; }
  while (step > target) { step--; apply(D.steps[step], false); }
  draw(step ? changedBy(D.steps[step - 1]) : new Set()); }
document.getElementById("next").onclick = next;
document.getElementById("prev").onclick = prev;
document.getElementById("first").onclick = () => go(0);
document.getElementById("last").onclick = () => go(D.steps.length);
document.addEventListener("keydown", e => {
  if (e.key === "ArrowRight") next(); else if (e.key === "ArrowLeft") prev();
  else if (e.key === "Home") go(0); else if (e.key === "End") go(D.steps.length);
});
draw(new Set());
const wanted = /steps=(\\d+)/.exec(location.hash);
if (wanted) { const k = Math.min(Number(wanted[1]), D.steps.length); for (let i = 0; i < k; i++) next(); }
const undo = /back=(\\d+)/.exec(location.hash);
if (undo) for (let i = 0; i < Number(undo[1]); i++) prev();
</script>
</body>
</html>
"""
