// The page's shared state, the view's geometry and who may act: imported by every module.

const COLOURS = { 0: "#f8f8f0", 1: "#f2c200", 2: "#1d4fc4", 3: "#d62020", 4: "#6a2c91", 5: "#f07f10", 6: "#13804a", 7: "#7a1f1f", 8: "#111111", 9: "#f2c200" };
const params = new URLSearchParams(location.search);
const RATE = Math.max(0.05, Math.min(50, Number(params.get("rate")) || 1));
function $(id) { return document.getElementById(id); }

// Performance figures, read by the benchmark and the browser tests.
// firstFrame: ms from this page's stroke sent to its shot's first animated frame drawn.
const perf = { latencies: [], frames: [], render: [], sentAt: null, firstFrame: null };
window.nbPerf = perf;

const S = {
  ws: null, match: null, token: null, seats: [], mode: null, table: null, layout: {}, state: null,
  inHand: false, cue: null, history: [], aim: Math.PI / 2, aimLocked: false, aimTouched: false,
  side: 0, height: 0, queue: [], anim: null, last: null, drag: null, analysis: null, ruling: null,
  tray: [], computerSeat: null, closedOnPurpose: false,
  // The aiming aid from the engine, for the stroke as aimed now: {ghost: [x, y] | null, first:
  // ball id | null, paths: {"0": [[x, y], ...], "<id>": [...]}, warn: text | null}; or null.
  preview: null,
  // The opponent's stroke as they aim it (a strokeView without "who"), or null.
  remoteAim: null,
  // A pull-back of the cue in progress, 0..1 (the power gesture), 0 when none.
  pull: 0,
  // Each player's chance of the game and the match as the server values the position:
  // {game: [p0, p1], match: [p0, p1]}, or null (nothing to value).
  chance: null,
};
window.nb = S;

// ------------------------------------------------------------------ geometry of the view

const canvas = $("table");
const ctx = canvas.getContext("2d");
const RAIL = 0.11; // m of wood drawn around the cloth
// s: canvas pixels per metre; ox, oy: where the cloth's corner is; dpr: canvas pixels per CSS
// pixel; turned: the table's long axis vertical (a phone held upright), the head end at the bottom.
let view = { s: 100, ox: 0, oy: 0, dpr: 1, turned: false };

// The table fills #table-wrap (the element the page's layout sizes), lying or turned, whichever
// shows it larger, centred in it; the page's layout is told the table's proportions (--table-aspect).
function layoutCanvas() {
  if (!S.table) return;
  const T = S.table;
  const wrap = canvas.parentElement;
  const long = T.length + 2 * RAIL; const short = T.width + 2 * RAIL;
  document.documentElement.style.setProperty("--table-aspect", String(long / short));
  const W = wrap.clientWidth || 900; const H = wrap.clientHeight || (W * short) / long;
  const lying = Math.min(W / long, H / short); const upright = Math.min(W / short, H / long);
  const turned = upright > lying * 1.02;
  const s = turned ? upright : lying;
  const cssW = s * (turned ? short : long); const cssH = s * (turned ? long : short);
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(cssW * dpr);
  canvas.height = Math.round(cssH * dpr);
  canvas.style.width = `${cssW}px`;
  canvas.style.height = `${cssH}px`;
  view = { s: s * dpr, ox: RAIL * s * dpr, oy: RAIL * s * dpr, dpr, turned };
}
// Table frame (x across, y along) to canvas pixels: lying, the head end on the left; turned, the
// head end at the bottom (the lying picture turned a quarter anticlockwise).
function toPx(x, y) {
  if (view.turned) return [view.ox + x * view.s, view.oy + (S.table.length - y) * view.s];
  return [view.ox + y * view.s, view.oy + x * view.s];
}
// Canvas pixels to the table frame: the inverse of toPx.
function fromPx(px, py) {
  if (view.turned) return [(px - view.ox) / view.s, S.table.length - (py - view.oy) / view.s];
  return [(py - view.oy) / view.s, (px - view.ox) / view.s];
}
// CSS pixels per metre of the 2D table, as drawn now.
function cssPerMetre() { return view.s / view.dpr; }
// The view that takes the pointer (the 3D table sets one that casts the ray onto the cloth):
// ev -> [x, y] on the table, in metres, or null when the pointer is off the cloth's plane.
let picker = null;
function setPicker(f) { picker = f; }
function fromEvent(ev) {
  if (picker) return picker(ev);
  const r = canvas.getBoundingClientRect();
  return fromPx((ev.clientX - r.left) * view.dpr, (ev.clientY - r.top) * view.dpr);
}

// For tests and tools: where a table point is on the page, and whether the page is at rest.
window.nbToClient = (x, y) => {
  const r = canvas.getBoundingClientRect(); const [px, py] = toPx(x, y);
  return [r.left + px / view.dpr, r.top + py / view.dpr];
};
window.nbGeometry = () => ({ turned: view.turned, cssPerMetre: cssPerMetre() });
window.nbIdle = () => !S.anim && !S.pausing && S.queue.length === 0 && S.state !== null;
// ------------------------------------------------------------------ rules of the page

function myTurn() { return S.state && S.state.winner === null && S.seats.includes(S.state.to_act); }
function canShoot() { return myTurn() && !S.anim && S.queue.length === 0 && S.state.phase !== "push_out_choice" && S.mode !== "score"; }
function cuePosition() { return (S.drag && S.drag.ball === 0 ? S.drag.pos : S.cue || S.pendingCue || (S.layout["0"] ?? null)); }

// What the cue shows now, for whichever view draws it: null when no cue is to be drawn.
// {cue: [x, y] m, aim: rad (table frame), elevation: rad, side, height (tip offset, fractions of
// the radius), power: 0..1 of the slider, pull: 0..1 of a pull-back in progress, who: "me" |
// "remote" (the opponent's aim, shown live)}.
function strokeView() {
  if (!S.table || S.anim || S.mode === "score") return null;
  if (S.remoteAim && !myTurn()) return { ...S.remoteAim, who: "remote" };
  if (!canShoot() || S.drag) return null;
  const cue = cuePosition();
  if (!cue) return null;
  return {
    cue, aim: S.aim, elevation: ($("elevation").value * Math.PI) / 180, side: S.side, height: S.height,
    power: $("power").value / 100, pull: S.pull ?? 0, who: "me",
  };
}

export { $, canShoot, canvas, COLOURS, cssPerMetre, ctx, cuePosition, fromEvent, layoutCanvas, myTurn, params, perf, RAIL, RATE, S, setPicker, strokeView, toPx, view };
