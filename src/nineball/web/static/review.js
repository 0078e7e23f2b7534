// The game review of a past match (GET /api/matches/{id}/review): beside the replay on the table,
// a chart of the first player's chance to win the game after every entry (games marked off,
// mistakes and blunders marked, a point's details on hover or tap) and the list of the entries;
// a click on either shows that entry on the table (history.js's replay). "Compare" sets each
// stroke against the best shot of a computer level (what the choice cost, the luck taken out).
import { t, tf } from "./i18n.js";
import { $ } from "./state.js";
import { replayEntry, startReplay } from "./history.js";

const SVG = "http://www.w3.org/2000/svg";
const TALL = 170; // the chart's height, CSS px (120 on a short screen: a phone held sideways)
const SHORT = matchMedia("(max-height: 500px)");
const PAD = { left: 34, right: 8, top: 10, bottom: 18 };

// The review shown: the server's answer, the entry the replay is at.
const V = { id: null, data: null, at: -1 };

function pct(p) { return `${Math.round(p * 100)}%`; }
function points(change) { const n = Math.round(change * 100); return tf("reviewPoints", { n: n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0" }); }
function kindWord(kind) { const w = t(`reviewKind.${kind}`); return w.startsWith("reviewKind.") ? kind : w; }
function markSign(mark) { return mark === "blunder" ? "??" : mark === "mistake" ? "?" : ""; }
// The first player's chance of the game after entry s (the review gives the acting player's).
function first(s, key = "after") { return s.player === 0 ? s[key] : 1 - s[key]; }

function el(name, attrs = {}, text = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== null) e.textContent = text;
  return e;
}

// ------------------------------------------------------------------ the chart

function draw() {
  const box = $("review-chart"); box.innerHTML = "";
  const shots = V.data.shots; const n = shots.length;
  if (!n) { box.textContent = t("reviewNone"); return; }
  const W = Math.max(200, box.clientWidth || 300);
  const H = SHORT.matches ? 120 : TALL;
  const w = W - PAD.left - PAD.right; const h = H - PAD.top - PAD.bottom;
  const slot = w / n;
  const x = (k) => PAD.left + (k + 0.5) * slot; // entry k in the middle of its slot
  const edge = (k) => PAD.left + k * slot; // where entry k's slot begins
  const y = (p) => PAD.top + (1 - p) * h;
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", height: H, class: "review-svg", role: "img", "aria-label": tf("reviewLineGame", { name: V.data.players[0] }) });
  for (const p of [0, 0.5, 1]) {
    svg.append(el("line", { x1: PAD.left, x2: W - PAD.right, y1: y(p), y2: y(p), class: p === 0.5 ? "grid mid" : "grid" }));
    svg.append(el("text", { x: PAD.left - 4, y: y(p) + 4, class: "axis", "text-anchor": "end" }, pct(p)));
  }
  // Each game: a line from its first entry's "before" (on the game's boundary) through its entries.
  const starts = shots.map((s, k) => k).filter((k) => k === 0 || shots[k].game !== shots[k - 1].game);
  starts.forEach((k0, g) => {
    const end = g + 1 < starts.length ? starts[g + 1] : n;
    if (k0 > 0) svg.append(el("line", { x1: edge(k0), x2: edge(k0), y1: PAD.top, y2: PAD.top + h, class: "boundary" }));
    const label = el("text", { x: edge(k0) + 3, y: H - 5, class: "axis" }, tf("reviewGameShort", { n: shots[k0].game }));
    if ((end - k0) * slot >= 18 || g === 0) svg.append(label);
    const line = [[edge(k0), y(first(shots[k0], "before"))]];
    for (let k = k0; k < end; k++) line.push([x(k), y(first(shots[k]))]);
    svg.append(el("polyline", { points: line.map((q) => q.join(",")).join(" "), class: "game-line" }));
  });
  // The match's chance, one line over the whole match.
  const match = [[PAD.left, y(first(shots[0], "match_before"))], ...shots.map((s, k) => [x(k), y(first(s, "match_after"))])];
  svg.append(el("polyline", { points: match.map((q) => q.join(",")).join(" "), class: "match-line" }));
  svg.append(el("line", { x1: 0, x2: 0, y1: PAD.top, y2: PAD.top + h, class: "cursor", visibility: "hidden" }));
  const r = Math.max(1.5, Math.min(3.5, slot * 0.35));
  shots.forEach((s, k) => {
    const dot = el("circle", { cx: x(k), cy: y(first(s)), r: s.mark ? r + 1.5 : r, class: `pt p${s.player}${s.mark ? ` ${s.mark}` : ""}`, "data-k": k });
    svg.append(dot);
    if (s.mark) {
      const above = first(s) < 0.85;
      svg.append(el("text", { x: x(k), y: y(first(s)) + (above ? -r - 4 : r + 12), class: `mark-sign ${s.mark}`, "text-anchor": "middle" }, markSign(s.mark)));
    }
  });
  // A band over each entry's slot takes the pointer (a point is small to hit, a finger large).
  shots.forEach((s, k) => {
    const band = el("rect", { x: edge(k), y: PAD.top, width: slot, height: h, class: "band", "data-k": k });
    band.addEventListener("pointerenter", () => tip(k));
    band.addEventListener("pointerdown", () => tip(k));
    band.addEventListener("click", () => replayEntry(k));
    svg.append(band);
  });
  // A mouse that leaves the chart takes the details away; a finger's stay until the next tap.
  svg.addEventListener("pointerleave", (ev) => { if (ev.pointerType === "mouse") $("review-tip").hidden = true; });
  box.append(svg);
  cursor();
}

// The details of entry k in the tooltip, over its point.
function tip(k) {
  const s = V.data.shots[k]; const box = $("review-tip");
  box.innerHTML = "";
  const lines = [
    tf("reviewTipHead", { game: s.game, shot: s.shot }),
    `${s.name} · ${kindWord(s.kind)}`,
    tf("reviewTipChance", { name: s.name, before: pct(s.before), after: pct(s.after), change: points(s.change) }),
  ];
  const alt = s.alternative;
  if (alt) lines.push(tf("reviewTipBest", { level: alt.level, target: alt.target, best: pct(alt.best), played: pct(alt.played), cost: points(-alt.cost) }));
  for (const line of lines) { const d = document.createElement("div"); d.textContent = line; box.append(d); }
  if (s.mark) { const d = document.createElement("div"); d.className = `mark ${s.mark}`; d.textContent = `${markSign(s.mark)} ${t(`mark.${s.mark}`)}`; box.append(d); }
  box.hidden = false;
  // Fixed to the viewport (the panel scrolls and would clip it): over the point, else under it.
  const at = $("review-chart").querySelector(`circle.pt[data-k="${k}"]`).getBoundingClientRect();
  const left = Math.min(Math.max(4, at.left + at.width / 2 - box.offsetWidth / 2), innerWidth - box.offsetWidth - 4);
  const top = at.top > box.offsetHeight + 12 ? at.top - box.offsetHeight - 8 : at.bottom + 8;
  box.style.left = `${left}px`; box.style.top = `${top}px`;
}

// The replay's entry on the chart and in the list.
function cursor() {
  const line = $("review-chart").querySelector("line.cursor");
  const shots = V.data ? V.data.shots : [];
  if (line) {
    const dot = $("review-chart").querySelector(`circle.pt[data-k="${V.at}"]`);
    line.setAttribute("visibility", dot ? "visible" : "hidden");
    if (dot) { line.setAttribute("x1", dot.getAttribute("cx")); line.setAttribute("x2", dot.getAttribute("cx")); }
  }
  for (const tr of $("review-list").querySelectorAll("tr[data-k]")) tr.classList.toggle("at", Number(tr.dataset.k) === V.at);
  const row = $("review-list").querySelector("tr.at");
  if (row && shots.length) row.scrollIntoView({ block: "nearest" });
}

// ------------------------------------------------------------------ the list and the legend

function list() {
  const table = $("review-list"); table.innerHTML = "";
  const head = document.createElement("tr");
  const level = V.data.level;
  const heads = ["reviewColEntry", "reviewColPlayer", "reviewColKind", "reviewColChance", "reviewColChange", "reviewColMark"].map((key) => t(key));
  if (level) heads.push(tf("reviewColBest", { level }), t("reviewColCost"));
  for (const words of heads) {
    const th = document.createElement("th"); th.textContent = words; head.append(th);
  }
  table.append(head);
  V.data.shots.forEach((s, k) => {
    const tr = document.createElement("tr"); tr.dataset.k = k; tr.tabIndex = 0;
    if (s.mark) tr.classList.add(s.mark);
    const cells = [`${s.game}·${s.shot}`, s.name, kindWord(s.kind), `${pct(s.before)} → ${pct(s.after)}`, points(s.change), markSign(s.mark)];
    if (level) { const alt = s.alternative; cells.push(alt ? `${alt.target} (${pct(alt.best)})` : "", alt ? points(-alt.cost) : ""); }
    const classes = { 1: `who p${s.player}`, 5: "mark-cell", 6: "best-cell" };
    cells.forEach((v, i) => { const td = document.createElement("td"); td.textContent = v; if (classes[i]) td.className = classes[i]; tr.append(td); });
    if (s.mark) { const word = t(`mark.${s.mark}`); tr.title = word; tr.children[5].setAttribute("aria-label", word); }
    tr.addEventListener("click", () => replayEntry(k));
    tr.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); replayEntry(k); } });
    table.append(tr);
  });
}

function legend() {
  const box = $("review-legend"); box.innerHTML = "";
  const [a, b] = V.data.players;
  const item = (cls, sign, words) => {
    const span = document.createElement("span"); span.className = "item";
    const sw = document.createElement("span"); sw.className = `sw ${cls}`; sw.textContent = sign;
    span.append(sw, ` ${words}`); box.append(span, " ");
  };
  item("line", "", tf("reviewLineGame", { name: a }));
  item("dash", "", t("reviewLineMatch"));
  item("dot p0", "", a);
  item("dot p1", "", b);
  item("mistake", "?", tf("reviewMistake", { n: Math.round(V.data.mistake * 100) }));
  item("blunder", "??", tf("reviewBlunder", { n: Math.round(V.data.blunder * 100) }));
}

function words() {
  if (!V.data) return;
  document.body.classList.toggle("compared", !!V.data.level);
  const [a, b] = V.data.players;
  $("review-title").textContent = tf("reviewTitle", { id: V.id, a, b });
  legend(); list(); draw();
}

// ------------------------------------------------------------------ open and close

async function openReview(id) {
  $("history-note").textContent = "";
  const res = await fetch(`/api/matches/${id}/review`);
  const data = await res.json();
  if (!res.ok) { $("history-note").textContent = res.status === 422 ? tf("reviewCannot", { id }) : data.error; return; }
  Object.assign(V, { id, data, at: -1 });
  document.body.classList.add("reviewing"); $("review").hidden = false;
  words();
  levels();
  if (!(await startReplay(id))) closeReview();
}

// The search levels that can judge the strokes (the server's list), the last one chosen kept.
async function levels() {
  const select = $("review-level");
  if (select.options.length) return;
  const { levels: all } = await (await fetch("/api/levels")).json();
  for (const level of all.filter((l) => l.search)) {
    const o = document.createElement("option"); o.value = level.name; o.textContent = level.name; select.append(o);
  }
  const kept = localStorage.getItem("nineball.reviewLevel");
  select.value = [...select.options].some((o) => o.value === kept) ? kept : "club";
}

// Every stroke set against the best shot of the chosen level (a search per stroke: seconds).
$("review-compare").addEventListener("click", async () => {
  if (V.id === null) return;
  const id = V.id; const level = $("review-level").value;
  localStorage.setItem("nineball.reviewLevel", level);
  $("review-compare").disabled = true; $("review-busy").hidden = false;
  try {
    const res = await fetch(`/api/matches/${id}/review?level=${encodeURIComponent(level)}`);
    const data = await res.json();
    if (!res.ok) { $("history-note").textContent = data.error; return; }
    if (V.id !== id) return; // closed or another match opened meanwhile
    V.data = data; words(); cursor();
  } finally {
    $("review-compare").disabled = false; $("review-busy").hidden = true;
  }
});

function closeReview() {
  Object.assign(V, { id: null, data: null, at: -1 });
  document.body.classList.remove("reviewing", "compared"); $("review").hidden = true; $("review-tip").hidden = true;
}

// A Review button beside each listed match's Replay button.
function addReviewButtons() {
  $("history-note").textContent = "";
  for (const tr of $("matches-table").querySelectorAll("tr[data-match]")) {
    const button = document.createElement("button");
    button.className = "review-match"; button.textContent = t("review");
    button.addEventListener("click", () => openReview(Number(tr.dataset.match)));
    const replay = tr.querySelector("button.replay-match");
    if (replay) replay.after(" ", button); else { const td = document.createElement("td"); td.append(button); tr.append(td); }
  }
}

document.addEventListener("replayat", (ev) => {
  if (!V.data) return;
  if (ev.detail.id !== V.id) { closeReview(); return; } // another match replayed
  V.at = ev.detail.at; cursor();
});
document.addEventListener("replayclose", closeReview);
document.addEventListener("pointerdown", (ev) => { if (!ev.target.closest("#review-chart")) $("review-tip").hidden = true; });
document.addEventListener("langchange", words);
new ResizeObserver(() => { if (V.data) draw(); }).observe($("review-chart"));

export { addReviewButtons, openReview };
