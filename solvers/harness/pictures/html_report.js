"use strict";
let ROW_HEIGHT = 25;
const OVERSCAN = 4, COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7",
  "#e69f00", "#56b4e9", "#000000", "#f0e442", "#7f7f7f", "#882255"];
const report = window.report = { timings: {} };
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));

async function unpack() {
  const text = $("data").textContent.trim();
  const packed = await fetch("data:application/octet-stream;base64," + text);   // the browser's own base64
  const stream = packed.body.pipeThrough(new DecompressionStream("gzip"));
  const t = performance.now(), json = await new Response(stream).text();
  report.timings.inflate = performance.now() - t;
  const t2 = performance.now(), data = JSON.parse(json);
  report.timings.parse = performance.now() - t2;
  return data;
}

function fmt(value, kind) {
  if (value === null || value === undefined || Number.isNaN(value)) return "";
  if (kind === "text" || kind === "category") return report.strings[value];
  if (!Number.isInteger(value)) {
    const a = Math.abs(value);
    if (a >= 100) return value.toFixed(0);
    if (a < 0.001) return value.toFixed(6);
    return value.toPrecision(3);
  }
  return value.toLocaleString("en");
}

function setUp(data) {
  const t0 = performance.now();
  report.data = data; report.strings = data.strings; report.configs = data.configs;
  const rows = data.rows.index.length, configs = data.configs.length, runs = data.runs.row.length;
  report.rowCount = rows;
  const at = new Int32Array(rows * configs).fill(-1);           // (row, configuration) -> run
  const row = data.runs.row, cfg = data.runs.config;
  for (let i = 0; i < runs; i++) at[row[i] * configs + cfg[i]] = i;
  report.at = at;
  report.fields = data.fields;
  report.shownFields = new Set(data.shown);
  report.columns = {};                                          // field -> Float64Array of values (NaN: none)
  for (const f of data.fields) {
    const values = data.runs[f.key], column = new Float64Array(runs);
    for (let i = 0; i < runs; i++) column[i] = values[i] === null ? NaN : values[i];
    report.columns[f.key] = column;
  }
  report.category = report.columns.category;
  report.order = Int32Array.from({length: rows}, (_, i) => i);
  report.sort = null;
  report.a = 0; report.b = Math.min(1, configs - 1);
  report.current = 0;
  report.timings.setUp = performance.now() - t0;
}

function fillCounts(data) {
  const head = "<tr><th>configuration</th>" + data.categories.map((c) => `<th>${esc(c)}</th>`).join("") + "<th>runs</th></tr>";
  const body = data.configs.map((c, i) => {
    const counts = data.counts[i], total = counts.reduce((x, y) => x + y, 0);
    return `<tr><th scope="row">${esc(c)}</th>` + counts.map((n, k) =>
      `<td class="num ${n ? "cat-" + data.categories[k] : "zero"}">${n.toLocaleString("en")}</td>`).join("") +
      `<td class="num">${total.toLocaleString("en")}</td></tr>`;
  }).join("");
  $("counts").innerHTML = "<thead>" + head + "</thead><tbody>" + body + "</tbody>";
  const s = data.summary;
  $("summary").innerHTML = "<thead><tr>" + s.headers.map((h) => `<th>${esc(h)}</th>`).join("") + "</tr></thead><tbody>" +
    s.rows.map((r) => "<tr>" + r.map((v, k) => k < 2 ? `<th scope="row">${esc(v)}</th>` : `<td class="num">${esc(v)}</td>`).join("") + "</tr>").join("") + "</tbody>";
}

function fillFilters(data) {
  const sets = [...new Set(data.rows.set)], sizes = [...new Set(data.rows.size)].sort((x, y) => x - y);
  $("f-set").insertAdjacentHTML("beforeend", sets.map((s) => `<option value="${s}">${esc(data.strings[s])}</option>`).join(""));
  $("f-size").insertAdjacentHTML("beforeend", sizes.map((n) => `<option value="${n}">${n}x${n}</option>`).join(""));
  const cats = new Set();
  for (let i = 0; i < report.category.length; i++) cats.add(report.category[i]);
  $("f-category").insertAdjacentHTML("beforeend", [...cats].map((c) => `<option value="${c}">${esc(data.strings[c])}</option>`).join(""));
  for (const id of ["f-a", "f-b"]) $(id).innerHTML = data.configs.map((c, i) => `<option value="${i}">${esc(c)}</option>`).join("");
  $("f-a").value = report.a; $("f-b").value = report.b;
  $("f-fields").insertAdjacentHTML("beforeend", data.fields.map((f) =>
    `<label><input type="checkbox" value="${f.key}"${report.shownFields.has(f.key) ? " checked" : ""}> ${esc(f.label)}</label>`).join(" "));
  for (const id of ["f-set", "f-size", "f-category", "f-differ"]) $(id).addEventListener("change", applyFilters);
  $("f-text").addEventListener("input", applyFilters);
  for (const id of ["f-a", "f-b"]) $(id).addEventListener("change", () => {
    report.a = +$("f-a").value; report.b = +$("f-b").value; drawHead(); applyFilters(); drawPlots(true);
  });
  $("f-fields").addEventListener("change", (e) => {
    if (e.target.checked) report.shownFields.add(e.target.value); else report.shownFields.delete(e.target.value);
    drawHead(); drawRows(true);
  });
}

function shownFields() { return report.fields.filter((f) => report.shownFields.has(f.key)); }

function drawHead() {
  const fields = shownFields(), configs = report.configs;
  let top = '<tr><th colspan="4">puzzle</th>', second = "<tr>";
  for (const [key, label] of [["set", "set"], ["index", "puzzle"], ["line", "line"], ["repeat", "rep."]])
    second += `<th><button data-sort="row:${key}">${label}</button></th>`;
  configs.forEach((c, i) => {
    top += `<th class="group-start" colspan="${fields.length}">${esc(c)}</th>`;
    fields.forEach((f, k) => { second += `<th${k === 0 ? ' class="group-start"' : ""} title="${esc(f.title || "")}"><button data-sort="run:${i}:${f.key}">${esc(f.label)}</button></th>`; });
  });
  top += `<th class="group-start" colspan="2">${esc(configs[report.b])} against ${esc(configs[report.a])}</th></tr>`;
  second += `<th class="group-start"><button data-sort="ratio">time ratio B/A</button></th><th><button data-sort="change">category change</button></th></tr>`;
  const width = (f) => f.key === "reason" ? 16 : f.kind === "category" ? 7.5 : f.kind === "text" ? 7 : 6.2;
  const cols = [11, 4, 3.5, 3, ...configs.flatMap(() => fields.map(width)), 6.5, 10];
  $("cols").innerHTML = cols.map((w) => `<col style="width:${w}rem">`).join("");
  $("table").style.width = cols.reduce((x, y) => x + y, 0) + "rem";
  $("thead").innerHTML = top + second;
  for (const b of $("thead").querySelectorAll("button")) {
    b.addEventListener("click", () => sortBy(b.dataset.sort));
    const arrow = report.sort && report.sort.key === b.dataset.sort ? (report.sort.up ? " ▲" : " ▼") : "";
    b.textContent += arrow;
    b.parentElement.setAttribute("aria-sort", arrow ? (report.sort.up ? "ascending" : "descending") : "none");
  }
}

function runOf(r, c) { return report.at[r * report.configs.length + c]; }

function ratio(r) {
  const a = runOf(r, report.a), b = runOf(r, report.b);
  if (a < 0 || b < 0) return NaN;
  const t = report.columns.time_s, x = Math.max(t[a], 1e-6), y = Math.max(t[b], 1e-6);
  return y / x;
}

function changed(r) {
  const a = runOf(r, report.a), b = runOf(r, report.b);
  return a >= 0 && b >= 0 && report.category[a] !== report.category[b];
}

function sortKey(key) {
  const rows = report.rowCount, keys = new Float64Array(rows);
  let text = null;
  if (key.startsWith("row:")) {
    const name = key.slice(4), column = report.data.rows[name];
    if (name === "set") { text = column.map((s) => report.strings[s]); }
    else for (let r = 0; r < rows; r++) keys[r] = column[r] === null ? NaN : column[r];
  } else if (key === "ratio") {
    for (let r = 0; r < rows; r++) keys[r] = ratio(r);
  } else if (key === "change") {
    for (let r = 0; r < rows; r++) keys[r] = changed(r) ? 1 : 0;
  } else {
    const [, c, field] = key.split(":"), column = report.columns[field];
    const kind = report.fields.find((f) => f.key === field).kind;
    if (kind !== "number") text = new Array(rows);
    for (let r = 0; r < rows; r++) {
      const run = runOf(r, +c), v = run < 0 ? NaN : column[run];
      if (text) text[r] = Number.isNaN(v) ? null : report.strings[v]; else keys[r] = v;
    }
  }
  return {keys, text};
}

function sortBy(key) {
  const t0 = performance.now();
  const up = report.sort && report.sort.key === key ? !report.sort.up : true;
  const {keys, text} = sortKey(key), sign = up ? 1 : -1;
  const order = Int32Array.from({length: report.rowCount}, (_, i) => i);
  if (text) order.sort((x, y) => (text[x] === null) - (text[y] === null) || sign * (text[x] < text[y] ? -1 : text[x] > text[y] ? 1 : 0) || x - y);
  else order.sort((x, y) => Number.isNaN(keys[x]) - Number.isNaN(keys[y]) || sign * (keys[x] - keys[y]) || x - y);
  report.order = order; report.sort = {key, up};
  drawHead(); applyFilters();
  report.timings.sort = performance.now() - t0;
  const button = $("thead").querySelector(`button[data-sort="${key}"]`);
  if (button) button.focus();
}

function matcher(text) {
  if (!text) return null;
  const words = text.toLowerCase();
  const hits = new Uint8Array(report.strings.length);
  report.strings.forEach((s, i) => { hits[i] = s.toLowerCase().includes(words) ? 1 : 0; });
  return hits;
}

function applyFilters() {
  const t0 = performance.now();
  const rows = report.data.rows, configs = report.configs.length, at = report.at, cat = report.category;
  const set = $("f-set").value === "" ? -1 : +$("f-set").value;
  const size = $("f-size").value === "" ? -1 : +$("f-size").value;
  const chosen = $("f-category").value, differ = $("f-differ").checked;
  const anyDiffer = chosen === "differ", wanted = anyDiffer || chosen === "" ? -1 : +chosen;
  const hits = matcher($("f-text").value.trim());
  const reason = report.data.runs.reason, order = report.order, kept = new Int32Array(order.length);
  let n = 0;
  for (let k = 0; k < order.length; k++) {
    const r = order[k];
    if (set >= 0 && rows.set[r] !== set) continue;
    if (size >= 0 && rows.size[r] !== size) continue;
    if (chosen !== "") {
      let ok = false, first = -2;
      for (let c = 0; c < configs; c++) {
        const run = at[r * configs + c];
        if (run < 0) continue;
        if (anyDiffer) { if (first === -2) first = cat[run]; else if (cat[run] !== first) { ok = true; break; } }
        else if (cat[run] === wanted) { ok = true; break; }
      }
      if (!ok) continue;
    }
    if (differ && !changed(r)) continue;
    if (hits) {
      let ok = hits[rows.file[r]] || hits[rows.puzzle[r]] || hits[rows.set[r]];
      for (let c = 0; !ok && c < configs; c++) {
        const run = at[r * configs + c];
        if (run >= 0) ok = hits[reason[run]] || hits[cat[run]];
      }
      if (!ok) continue;
    }
    kept[n++] = r;
  }
  report.visible = kept.subarray(0, n);
  report.timings.select = performance.now() - t0;
  report.current = Math.min(report.current, Math.max(n - 1, 0));
  $("shown").textContent = `showing ${n.toLocaleString("en")} of ${report.rowCount.toLocaleString("en")} rows`;
  drawRows(true);
  report.timings.filter = performance.now() - t0;
}

function cellsOf(r) {
  const fields = shownFields(), rows = report.data.rows, strings = report.strings;
  let out = `<td>${esc(strings[rows.set[r]])}</td><td class="num">${rows.index[r] + 1}</td><td class="num">${rows.line[r] ?? ""}</td><td class="num">${rows.repeat[r]}</td>`;
  const replay = report.data.runs.replay;
  report.configs.forEach((_, c) => {
    const run = runOf(r, c);
    fields.forEach((f, k) => {
      const start = k === 0 ? " group-start" : "";
      if (run < 0) { out += `<td class="${start}"></td>`; return; }
      const v = report.columns[f.key][run], shown = fmt(v, f.kind);
      if (f.kind === "category") {
        const link = replay[run] ? ` <a href="${esc(strings[replay[run]])}" title="replay of this solve">▶</a>` : "";
        out += `<td class="cat-${esc(shown)}${start}">${esc(shown)}${link}</td>`;
      } else if (f.kind === "number") out += `<td class="num${start}">${shown}</td>`;
      else out += `<td class="${start}" title="${esc(shown)}">${esc(shown)}</td>`;
    });
  });
  const q = ratio(r), change = changed(r);
  const a = runOf(r, report.a), b = runOf(r, report.b);
  const words = change ? `${strings[report.category[a]]} → ${strings[report.category[b]]}` : "";
  out += `<td class="num group-start">${Number.isNaN(q) ? "" : q.toPrecision(3) + "×"}</td><td class="${change ? "differ" : ""}">${esc(words)}</td>`;
  return out;
}

function drawRows(reset) {
  const grid = $("grid"), visible = report.visible, n = visible.length;
  if (reset) report.drawn = null;
  const first = Math.max(0, Math.floor(grid.scrollTop / ROW_HEIGHT) - OVERSCAN);
  const count = Math.ceil(grid.clientHeight / ROW_HEIGHT) + 2 * OVERSCAN;
  const last = Math.min(n, first + count);
  if (report.drawn && report.drawn[0] === first && report.drawn[1] === last) return;
  report.drawn = [first, last];
  const width = $("thead").rows[1] ? $("thead").rows[1].cells.length : 1;
  const spacer = (h) => `<tr aria-hidden="true"><td colspan="${width}" style="height:${h}px;padding:0;border:0"></td></tr>`;
  let body = first ? spacer(first * ROW_HEIGHT) : "";
  for (let k = first; k < last; k++) {
    const r = visible[k];
    body += `<tr data-row="${r}" aria-rowindex="${k + 1}"${k === report.current ? ' class="current" aria-selected="true"' : ""}>${cellsOf(r)}</tr>`;
  }
  body += n > last ? spacer((n - last) * ROW_HEIGHT) : "";
  $("tbody").innerHTML = body;
  const drawnRow = $("tbody").querySelector("tr[data-row]");
  if (drawnRow && !report.measured) {     // the rows' real height, for the scroll arithmetic
    report.measured = true;
    const height = drawnRow.getBoundingClientRect().height;
    if (height > 0 && Math.abs(height - ROW_HEIGHT) > 0.5) { ROW_HEIGHT = height; drawRows(true); return; }
  }
  $("grid").setAttribute("aria-rowcount", n);
}

function showDetail() {
  const visible = report.visible;
  if (!visible.length) { $("detail").innerHTML = "<p>No row matches the filters.</p>"; return; }
  const r = visible[report.current], rows = report.data.rows, strings = report.strings;
  const runs = report.configs.map((_, i) => runOf(r, i));
  const fields = report.fields.filter((f) => f.key !== "reason" && runs.some((run) => run >= 0 && !Number.isNaN(report.columns[f.key][run])));
  let html = `<p><b>Row ${report.current + 1} of ${visible.length}</b>: ${esc(strings[rows.file[r]])} puzzle ${rows.index[r] + 1}` +
    ` (line ${rows.line[r] ?? "?"}), repetition ${rows.repeat[r]}: <code>${esc(strings[rows.puzzle[r]])}</code></p><div class="wide"><table><tr><th>configuration</th>` +
    "<th>why</th>" + fields.map((f) => `<th>${esc(f.label)}</th>`).join("") + "</tr>";
  report.configs.forEach((c, i) => {
    const run = runs[i];
    if (run < 0) return;
    html += `<tr><th scope="row">${esc(c)}</th><td class="why">${esc(fmt(report.columns.reason[run], "text"))}</td>` +
      fields.map((f) => `<td${f.kind === "number" ? ' class="num"' : ""}>${esc(fmt(report.columns[f.key][run], f.kind))}</td>`).join("") + "</tr>";
  });
  $("detail").innerHTML = html + "</table></div>";
}

function moveTo(k) {
  const n = report.visible.length;
  if (!n) return;
  report.current = Math.max(0, Math.min(n - 1, k));
  const grid = $("grid"), top = report.current * ROW_HEIGHT, header = 2 * ROW_HEIGHT;
  if (top < grid.scrollTop) grid.scrollTop = top;
  else if (top + ROW_HEIGHT + header > grid.scrollTop + grid.clientHeight) grid.scrollTop = top + ROW_HEIGHT + header - grid.clientHeight;
  drawRows(true); showDetail();
}

function onKey(e) {
  const page = Math.max(1, Math.floor($("grid").clientHeight / ROW_HEIGHT) - 3);
  const step = {ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page}[e.key];
  if (step !== undefined) moveTo(report.current + step);
  else if (e.key === "Home") moveTo(0);
  else if (e.key === "End") moveTo(report.visible.length - 1);
  else return;
  e.preventDefault();
}

// ---------------------------------------------------------------- plots

function least(values, floor) { let m = Infinity; for (const v of values) if (v < m) m = v; return Math.min(m, floor ?? Infinity); }
function most(values, floor) { let m = -Infinity; for (const v of values) if (v > m) m = v; return Math.max(m, floor ?? -Infinity); }

function scale(values, lo, hi, log) {
  const f = log ? Math.log10 : (x) => x;
  const a = f(lo), b = f(hi);
  return (v, px0, px1) => px0 + (f(v) - a) / ((b - a) || 1) * (px1 - px0);
}

function ticks(lo, hi, log) {
  if (!log) { const step = Math.max(1, Math.ceil((hi - lo) / 5)); const out = []; for (let v = Math.ceil(lo); v <= hi; v += step) out.push(v); return out; }
  const out = []; for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) out.push(10 ** e);
  return out.filter((v) => v >= lo / 1.0001 && v <= hi * 1.0001);
}

function plot(figure, spec) {
  const canvas = figure.querySelector("canvas"), ctx = canvas.getContext("2d");
  const W = canvas.width, H = canvas.height, L = 56, R = 12, T = 10, B = 38;
  const xs = [], ys = [];
  for (const s of spec.series) for (let i = 0; i < s.x.length; i++) { xs.push(s.x[i]); ys.push(s.y[i]); }
  const xlo = spec.xlo ?? least(xs, 1e-4), xhi = spec.xhi ?? most(xs, 1e-3);
  const ylo = spec.ylo ?? least(ys, spec.ylog ? 1 : 0), yhi = spec.yhi ?? most(ys, 1);
  const X = scale(xs, xlo, xhi, spec.xlog), Y = scale(ys, ylo, yhi, spec.ylog);
  ctx.clearRect(0, 0, W, H); ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, W, H);
  ctx.strokeStyle = "#999"; ctx.strokeRect(L, T, W - L - R, H - T - B);
  ctx.fillStyle = "#333"; ctx.font = "11px sans-serif"; ctx.textAlign = "center";
  for (const v of ticks(xlo, xhi, spec.xlog)) { const px = X(v, L, W - R); ctx.fillText(v.toPrecision(2).replace(/\.?0+e/, "e"), px, H - B + 14); }
  ctx.textAlign = "right";
  for (const v of ticks(ylo, yhi, spec.ylog)) { const py = Y(v, H - B, T); ctx.fillText(v >= 1000 ? v.toExponential(0) : String(+v.toPrecision(2)), L - 4, py + 4); }
  ctx.textAlign = "center"; ctx.fillText(spec.xlabel, (L + W - R) / 2, H - 6);
  ctx.save(); ctx.translate(12, (T + H - B) / 2); ctx.rotate(-Math.PI / 2); ctx.fillText(spec.ylabel, 0, 0); ctx.restore();
  if (spec.diagonal) { ctx.strokeStyle = "#bbb"; ctx.beginPath(); ctx.moveTo(X(xlo, L, W - R), Y(xlo, H - B, T)); ctx.lineTo(X(xhi, L, W - R), Y(xhi, H - B, T)); ctx.stroke(); }
  if (spec.limit) { ctx.setLineDash([3, 3]); ctx.strokeStyle = "#888"; ctx.beginPath(); const px = X(spec.limit, L, W - R); ctx.moveTo(px, T); ctx.lineTo(px, H - B); ctx.stroke(); ctx.setLineDash([]); }
  const points = [];
  spec.series.forEach((s, k) => {
    ctx.strokeStyle = ctx.fillStyle = COLOURS[s.colour % COLOURS.length];
    if (s.line) { ctx.beginPath(); for (let i = 0; i < s.x.length; i++) { const px = X(s.x[i], L, W - R), py = Y(s.y[i], H - B, T); if (i) ctx.lineTo(px, py); else ctx.moveTo(px, py); } ctx.stroke(); }
    for (let i = 0; i < s.x.length; i++) {
      const px = X(s.x[i], L, W - R), py = Y(s.y[i], H - B, T);
      if (!s.line || s.x.length < 400) ctx.fillRect(px - 1.5, py - 1.5, 3, 3);
      points.push([px, py, s.runs[i], k, s.x[i], s.y[i]]);
    }
  });
  figure.querySelector(".legend").innerHTML = spec.series.map((s) => `<span><i style="background:${COLOURS[s.colour % COLOURS.length]}"></i>${esc(s.label)}</span>`).join("");
  figure.points = points; figure.spec = spec; figure.focusAt = -1;
}

function describeRun(run, spec, point) {
  const rows = report.data.rows, strings = report.strings, r = report.data.runs.row[run];
  const series = spec.series[point[3]];
  return `${series.label}: ${spec.xlabel} ${(+point[4].toPrecision(3))}, ${spec.ylabel} ${(+point[5].toPrecision(3))}\n` +
    `${strings[rows.file[r]]} puzzle ${rows.index[r] + 1}, repetition ${rows.repeat[r]}: ${strings[report.category[run]]}\n${strings[rows.puzzle[r]]}`;
}

function hover(figure, e) {
  const rect = figure.querySelector("canvas").getBoundingClientRect(), x = e.clientX - rect.left, y = e.clientY - rect.top;
  let best = -1, dist = 100;
  const points = figure.points || [];
  for (let i = 0; i < points.length; i++) { const d = (points[i][0] - x) ** 2 + (points[i][1] - y) ** 2; if (d < dist) { dist = d; best = i; } }
  const tip = $("tip");
  if (best < 0) { tip.style.display = "none"; return; }
  tip.textContent = describeRun(points[best][2], figure.spec, points[best]);
  tip.style.display = "block"; tip.style.left = (e.clientX + 14) + "px"; tip.style.top = (e.clientY + 14) + "px";
}

function plotKey(figure, e) {
  const points = figure.points || [], step = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1}[e.key];
  if (step === undefined || !points.length) return;
  e.preventDefault();
  figure.focusAt = (figure.focusAt + step + points.length) % points.length;
  const p = points[figure.focusAt], rect = figure.querySelector("canvas").getBoundingClientRect(), tip = $("tip");
  tip.textContent = describeRun(p[2], figure.spec, p);
  tip.style.display = "block"; tip.style.left = (rect.left + p[0] + 14) + "px"; tip.style.top = (rect.top + p[1] + 14) + "px";
}

function figure(caption) {
  const f = document.createElement("figure");
  f.innerHTML = `<figcaption>${esc(caption)}</figcaption><canvas width="420" height="300" tabindex="0" role="img" aria-label="${esc(caption)}"></canvas><div class="legend"></div>`;
  const canvas = f.querySelector("canvas");
  canvas.addEventListener("mousemove", (e) => hover(f, e));
  canvas.addEventListener("mouseleave", () => { $("tip").style.display = "none"; });
  canvas.addEventListener("keydown", (e) => plotKey(f, e));
  canvas.addEventListener("blur", () => { $("tip").style.display = "none"; });
  $("plot-area").appendChild(f);
  return f;
}

function drawPlots(again) {
  if (!report.plotsWanted) return;
  if (report.plotsDrawn && !again) return;
  const t0 = performance.now();
  $("plot-area").innerHTML = "";
  const data = report.data, runs = data.runs, rows = data.rows, time = report.columns.time_s, cat = report.category;
  const correct = report.strings.indexOf("correct"), limit = data.limit || most(time, 1);
  const sizes = [...new Set(rows.size)].sort((x, y) => x - y), configs = report.configs;
  for (const n of sizes) {
    const series = configs.map((c, k) => {
      const done = [];
      for (let i = 0; i < time.length; i++) if (runs.config[i] === k && rows.size[runs.row[i]] === n && cat[i] === correct) done.push(i);
      done.sort((x, y) => time[x] - time[y]);
      return {label: c, colour: k, line: true, x: done.map((i) => Math.max(time[i], 1e-4)), y: done.map((_, j) => j + 1), runs: done};
    }).filter((s) => s.x.length);
    plot(figure(`${n}x${n}: runs solved within a time (cactus)`), {series, xlog: true, xlabel: "time per run (s)", ylabel: "runs solved", limit, ylo: 0, xhi: limit * 1.2});
  }
  const sets = [...new Set(rows.set)];
  for (const s of sets) {
    const x = [], y = [], who = [];
    for (let r = 0; r < report.rowCount; r++) {
      if (rows.set[r] !== s) continue;
      const a = runOf(r, report.a), b = runOf(r, report.b);
      if (a < 0 || b < 0) continue;
      x.push(Math.max(cat[a] === correct ? time[a] : limit, 1e-4)); y.push(Math.max(cat[b] === correct ? time[b] : limit, 1e-4)); who.push(b);
    }
    const name = report.strings[s];
    plot(figure(`${name}: ${configs[report.b]} (y) against ${configs[report.a]} (x), time per run`),
      {series: [{label: `${configs[report.b]} against ${configs[report.a]}`, colour: 0, x, y, runs: who}], xlog: true, ylog: true,
       xlabel: `${configs[report.a]} (s)`, ylabel: `${configs[report.b]} (s)`, diagonal: true, limit, xlo: 1e-4, ylo: 1e-4, xhi: limit * 1.2, yhi: limit * 1.2});
    const series = configs.map((c, k) => {
      const mine = [];
      for (let i = 0; i < time.length; i++) if (runs.config[i] === k && rows.set[runs.row[i]] === s) mine.push(i);
      const cost = (i) => Math.max(cat[i] === correct ? time[i] : limit, 1e-4);   // unsolved: at the limit
      mine.sort((p, q) => cost(p) - cost(q));
      const total = mine.length;
      return {label: c, colour: k, line: true, x: mine.map(cost), y: mine.map((_, j) => (total - j) / total), runs: mine};
    }).filter((s) => s.x.length);
    plot(figure(`${name}: survival of the run times, P(time > t)`), {series, xlog: true, ylog: true, xlabel: "time per run (s)", ylabel: "share of runs taking longer", limit, xhi: limit * 1.2, yhi: 1});
  }
  report.plotsDrawn = true;
  report.timings.plots = performance.now() - t0;
}

async function main() {
  const t0 = performance.now();
  const data = await unpack();
  report.timings.unpack = performance.now() - t0;
  setUp(data); fillCounts(data); fillFilters(data); drawHead(); applyFilters(); showDetail();
  $("grid").addEventListener("scroll", () => drawRows(false));
  $("grid").addEventListener("keydown", onKey);
  $("tbody").addEventListener("click", (e) => {
    const tr = e.target.closest("tr[data-row]");
    if (tr) { report.current = +tr.getAttribute("aria-rowindex") - 1; drawRows(true); showDetail(); }
  });
  new IntersectionObserver((seen) => { if (seen.some((s) => s.isIntersecting)) { report.plotsWanted = true; drawPlots(false); } }).observe($("plots"));
  $("loading").textContent = "";
  report.timings.ready = performance.now();
  document.body.dataset.ready = "true";
}
report.applyFilters = applyFilters; report.sortBy = sortBy; report.moveTo = moveTo;
report.drawPlots = () => { report.plotsWanted = true; drawPlots(true); };
main().catch((error) => { $("loading").textContent = "The page could not unpack its runs: " + error; document.body.dataset.ready = "error"; });
