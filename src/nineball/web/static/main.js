// The nineball page: draws the table to scale, takes the stroke, shows the referee.
import { frame, positionAt, SINK } from "./anim.js";
import { LANGS, lang, setLang, t } from "./i18n.js";

const COLOURS = { 0: "#f8f8f0", 1: "#f2c200", 2: "#1d4fc4", 3: "#d62020", 4: "#6a2c91", 5: "#f07f10", 6: "#13804a", 7: "#7a1f1f", 8: "#111111", 9: "#f2c200" };
const params = new URLSearchParams(location.search);
const RATE = Math.max(0.05, Math.min(50, Number(params.get("rate")) || 1));
const $ = (id) => document.getElementById(id);

// Performance figures, read by the benchmark and the browser tests.
const perf = { latencies: [], frames: [], render: [], sentAt: null };
window.nbPerf = perf;

const S = {
  ws: null, match: null, token: null, seats: [], mode: null, table: null, layout: {}, state: null,
  inHand: false, cue: null, history: [], aim: Math.PI / 2, aimLocked: false, aimTouched: false,
  side: 0, height: 0, queue: [], anim: null, last: null, drag: null, analysis: null, ruling: null,
  tray: [], computerSeat: null, closedOnPurpose: false,
};
window.nb = S;

// ------------------------------------------------------------------ geometry of the view

const canvas = $("table");
const ctx = canvas.getContext("2d");
const RAIL = 0.11; // m of wood drawn around the cloth
let view = { s: 100, ox: 0, oy: 0 };

function layoutCanvas() {
  if (!S.table) return;
  const T = S.table;
  const cssW = canvas.clientWidth || 900;
  const s = cssW / (T.length + 2 * RAIL);
  const cssH = s * (T.width + 2 * RAIL);
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(cssW * dpr);
  canvas.height = Math.round(cssH * dpr);
  canvas.style.height = `${cssH}px`;
  view = { s: s * dpr, ox: RAIL * s * dpr, oy: RAIL * s * dpr, dpr };
}
// Table frame (x across, y along) to canvas pixels: the head end on the left.
const toPx = (x, y) => [view.ox + y * view.s, view.oy + x * view.s];
function fromEvent(ev) {
  const r = canvas.getBoundingClientRect();
  const px = (ev.clientX - r.left) * view.dpr;
  const py = (ev.clientY - r.top) * view.dpr;
  return [(py - view.oy) / view.s, (px - view.ox) / view.s];
}

// For tests and tools: where a table point is on the page, and whether the page is at rest.
window.nbToClient = (x, y) => {
  const r = canvas.getBoundingClientRect(); const [px, py] = toPx(x, y);
  return [r.left + px / view.dpr, r.top + py / view.dpr];
};
window.nbIdle = () => !S.anim && !S.pausing && S.queue.length === 0 && S.state !== null;

// ------------------------------------------------------------------ drawing

function drawTable() {
  const T = S.table;
  ctx.fillStyle = "#5b3a1e";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const [x0, y0] = toPx(0, 0);
  const [x1, y1] = toPx(T.width, T.length);
  ctx.fillStyle = "#1f7a48";
  ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
  // cushion noses and facings as the engine has them
  ctx.strokeStyle = "#0f5230";
  ctx.lineWidth = 3;
  for (const [ax, ay, bx, by] of T.segments) {
    const [p, q] = toPx(ax, ay); const [u, v] = toPx(bx, by);
    ctx.beginPath(); ctx.moveTo(p, q); ctx.lineTo(u, v); ctx.stroke();
  }
  for (const [name, [cx, cy]] of Object.entries(T.pockets)) {
    const [px, py] = toPx(cx, cy);
    ctx.fillStyle = "#050505";
    ctx.beginPath(); ctx.arc(px, py, (name.startsWith("side") ? 0.062 : 0.07) * view.s, 0, 2 * Math.PI); ctx.fill();
  }
  // head string (the kitchen) and the foot spot
  ctx.strokeStyle = "rgba(255,255,255,0.35)"; ctx.lineWidth = 1;
  const [hx0, hy0] = toPx(0, T.head_string); const [, hy1] = toPx(T.width, T.head_string);
  ctx.beginPath(); ctx.moveTo(hx0, hy0); ctx.lineTo(hx0, hy1); ctx.stroke();
  const [fx, fy] = toPx(...T.foot_spot);
  ctx.fillStyle = "rgba(255,255,255,0.5)"; ctx.beginPath(); ctx.arc(fx, fy, 3, 0, 2 * Math.PI); ctx.fill();
  // diamonds
  ctx.fillStyle = "#e8dcc0";
  for (let k = 1; k < 8; k++) {
    if (k === 4) continue;
    for (const x of [-RAIL / 2, T.width + RAIL / 2]) { const [p, q] = toPx(x, (k * T.length) / 8); ctx.beginPath(); ctx.arc(p, q, 3, 0, 7); ctx.fill(); }
  }
  for (let k = 1; k < 4; k++) {
    for (const y of [-RAIL / 2, T.length + RAIL / 2]) { const [p, q] = toPx((k * T.width) / 4, y); ctx.beginPath(); ctx.arc(p, q, 3, 0, 7); ctx.fill(); }
  }
}

function drawBall(id, x, y, scale = 1, ring = null) {
  const R = S.table.radius * view.s * scale;
  const [px, py] = toPx(x, y);
  ctx.fillStyle = id === 9 ? "#f8f8f0" : COLOURS[id];
  ctx.beginPath(); ctx.arc(px, py, R, 0, 2 * Math.PI); ctx.fill();
  if (id === 9) { ctx.fillStyle = COLOURS[9]; ctx.fillRect(px - R, py - R * 0.5, 2 * R, R); }
  ctx.strokeStyle = "#000"; ctx.lineWidth = 1; ctx.stroke();
  if (id !== 0) {
    ctx.fillStyle = "#fff"; ctx.beginPath(); ctx.arc(px, py, R * 0.5, 0, 2 * Math.PI); ctx.fill();
    ctx.fillStyle = "#000"; ctx.font = `bold ${Math.round(R * 0.8)}px sans-serif`;
    ctx.textAlign = "center"; ctx.textBaseline = "middle"; ctx.fillText(String(id), px, py + 0.5);
  }
  if (ring) { ctx.strokeStyle = ring; ctx.lineWidth = 3; ctx.beginPath(); ctx.arc(px, py, R + 4, 0, 2 * Math.PI); ctx.stroke(); }
}

// The first ball the cue ball would meet along the aim, and where the cue ball is then (ghost ball).
function firstPath(cue, aim) {
  const R = S.table.radius; const T = S.table;
  const dx = Math.cos(aim); const dy = Math.sin(aim);
  let best = Infinity; let hit = null;
  for (const [id, [bx, by]] of Object.entries(S.layout)) {
    if (id === "0") continue;
    const fx = bx - cue[0]; const fy = by - cue[1];
    const along = fx * dx + fy * dy;
    const perp2 = fx * fx + fy * fy - along * along;
    if (along <= 0 || perp2 > 4 * R * R) continue;
    const d = along - Math.sqrt(4 * R * R - perp2);
    if (d < best) { best = d; hit = Number(id); }
  }
  // the cushion it would reach first
  let wall = Infinity;
  if (dx > 0) wall = Math.min(wall, (T.width - R - cue[0]) / dx);
  if (dx < 0) wall = Math.min(wall, (R - cue[0]) / dx);
  if (dy > 0) wall = Math.min(wall, (T.length - R - cue[1]) / dy);
  if (dy < 0) wall = Math.min(wall, (R - cue[1]) / dy);
  if (hit !== null && best < wall) {
    return { ball: hit, ghost: [cue[0] + dx * best, cue[1] + dy * best] };
  }
  return { ball: null, ghost: [cue[0] + dx * wall, cue[1] + dy * wall] };
}

function drawAid(cue) {
  const { ball, ghost } = firstPath(cue, S.aim);
  const [cx, cy] = toPx(...cue); const [gx, gy] = toPx(...ghost);
  ctx.setLineDash([6, 6]); ctx.strokeStyle = "rgba(255,255,255,0.7)"; ctx.lineWidth = 1.5;
  ctx.beginPath(); ctx.moveTo(cx, cy); ctx.lineTo(gx, gy); ctx.stroke(); ctx.setLineDash([]);
  ctx.strokeStyle = "rgba(255,255,255,0.8)";
  ctx.beginPath(); ctx.arc(gx, gy, S.table.radius * view.s, 0, 2 * Math.PI); ctx.stroke();
  if (ball !== null) { // the object ball leaves along the line of centres
    const [bx, by] = S.layout[String(ball)];
    const ux = bx - ghost[0]; const uy = by - ghost[1]; const n = Math.hypot(ux, uy);
    const [p, q] = toPx(bx, by); const [u, v] = toPx(bx + (ux / n) * 0.4, by + (uy / n) * 0.4);
    ctx.strokeStyle = "rgba(255,230,120,0.9)"; ctx.beginPath(); ctx.moveTo(p, q); ctx.lineTo(u, v); ctx.stroke();
  }
}

function drawCue(cue) {
  const back = 0.05 + ($("power").value / 100) * 0.15;
  const [ax, ay] = toPx(cue[0] - Math.cos(S.aim) * back, cue[1] - Math.sin(S.aim) * back);
  const [bx, by] = toPx(cue[0] - Math.cos(S.aim) * (back + 1.2), cue[1] - Math.sin(S.aim) * (back + 1.2));
  ctx.strokeStyle = "#d9b77a"; ctx.lineWidth = 6 * (view.dpr || 1); ctx.lineCap = "round";
  ctx.beginPath(); ctx.moveTo(ax, ay); ctx.lineTo(bx, by); ctx.stroke(); ctx.lineCap = "butt";
}

function render() {
  if (!S.table) return;
  drawTable();
  if (S.mode === "score") { renderScore(); return; }
  if (S.anim) {
    const f = frame(S.anim.msg.trajectory, S.anim.t, S.table.pockets);
    for (const [id, b] of Object.entries(f)) if (!b.gone) drawBall(Number(id), b.x, b.y, b.scale);
    return;
  }
  for (const [id, [x, y]] of Object.entries(S.layout)) {
    if (id === "0" && S.inHand) continue;
    drawBall(Number(id), x, y);
  }
  const cue = cuePosition();
  if (cue) {
    let ring = null;
    if (S.inHand && myTurn()) ring = S.placeOk === false ? "#ff3b3b" : "#3bff6b";
    if (S.drag && S.drag.ball === 0) ring = S.drag.ok ? "#3bff6b" : "#ff3b3b";
    const at = S.drag && S.drag.ball === 0 ? S.drag.pos : cue;
    if (canShoot() && !S.drag && $("aid").checked) drawAid(at);
    if (canShoot() && !S.drag) drawCue(at);
    if (S.inHand || (S.drag && S.drag.ball === 0)) drawBall(0, ...at, 1, ring);
  }
  if (S.drag && S.drag.ball !== 0 && S.drag.pos) drawBall(S.drag.ball, ...S.drag.pos, 1, S.drag.ok ? "#3bff6b" : "#ff3b3b");
  if (S.analysis && S.analysis.shots) {
    const [p, q] = toPx(...S.analysis.cue);
    ctx.strokeStyle = SHOT_COLOURS[0]; ctx.lineWidth = 2;
    ctx.beginPath(); ctx.arc(p, q, S.table.radius * view.s + 3, 0, 7); ctx.stroke();
    S.analysis.shots.slice().reverse().forEach((shot, r) => drawShot(shot, S.analysis.shots.length - 1 - r));
  }
}

// The computer's analysis: each shot's cue-ball path (dashed) and object-ball path, with its odds.
const SHOT_COLOURS = ["#4fc3ff", "#ffb74f", "#d58bff"];
// What a shot of the analysis tries, in the page's language.
function shotTarget(shot) {
  const template = t(`shot.${shot.kind}`);
  if (template === `shot.${shot.kind}`) return shot.target;
  return template.replace("{b}", shot.ball).replace("{o}", shot.other)
    .replace("{p}", shot.pocket ? t(`pocket.${shot.pocket}`) : "");
}
function shotLabel(shot, k) {
  return `${k + 1}: ${t("success")} ${Math.round(shot.success * 100)}% · ${t("foulRisk")} ${Math.round(shot.foul * 100)}%`;
}
function drawShot(shot, k) {
  const colour = SHOT_COLOURS[k % SHOT_COLOURS.length];
  for (const [id, path] of Object.entries(shot.paths)) {
    ctx.strokeStyle = colour; ctx.lineWidth = (id === "0" ? 2 : 3.5) * (view.dpr || 1); ctx.setLineDash(id === "0" ? [9, 6] : []);
    ctx.beginPath();
    path.forEach(([x, y], i) => { const [p, q] = toPx(x, y); if (i) ctx.lineTo(p, q); else ctx.moveTo(p, q); });
    ctx.stroke();
  }
  ctx.setLineDash([]);
  const object = Object.keys(shot.paths).find((id) => id !== "0");
  const end = shot.paths[object ?? "0"].at(-1);
  const [p, q] = toPx(...end);
  ctx.font = `bold ${Math.round(13 * (view.dpr || 1))}px sans-serif`; ctx.textAlign = "left"; ctx.textBaseline = "bottom";
  ctx.fillStyle = "rgba(0,0,0,0.6)"; const w = ctx.measureText(shotLabel(shot, k)).width;
  ctx.fillRect(p + 6, q - 22 * (view.dpr || 1), w + 6, 18 * (view.dpr || 1));
  ctx.fillStyle = colour; ctx.fillText(shotLabel(shot, k), p + 9, q - 6);
}

// ------------------------------------------------------------------ the scorekeeper's table

// Where the scorekeeper's balls are drawn: the cue ball in the kitchen, the others in a zigzag up
// the table; a pocketed ball in its pocket, a ball off the table on the wood.
function skHome() {
  const T = S.table; const out = { 0: [T.width / 2, T.head_string * 0.55] };
  (S.state ? S.state.on_table : []).forEach((id, k) => { out[id] = [T.width / 2 + (k % 2 ? 0.16 : -0.16), T.head_string + 0.2 + k * 0.17]; });
  return out;
}
function skDrawn() {
  const out = {};
  for (const [id, pos] of Object.entries(skHome())) {
    const b = Number(id);
    if (sk.off.has(b)) out[b] = [-RAIL / 2, 0.25 + b * 0.22];
    else if (sk.pocketed.get(b)) out[b] = S.table.pockets[sk.pocketed.get(b)];
    else out[b] = pos;
  }
  return out;
}
function renderScore() {
  const drawn = skDrawn();
  if (sk.first !== null && drawn[0] && drawn[sk.first]) { // the cue ball's first contact
    const [a, b] = toPx(...drawn[0]); const [c, d] = toPx(...drawn[sk.first]);
    ctx.strokeStyle = "#ffd36b"; ctx.setLineDash([6, 6]); ctx.lineWidth = 2; ctx.beginPath(); ctx.moveTo(a, b); ctx.lineTo(c, d); ctx.stroke(); ctx.setLineDash([]);
  }
  for (const [ball, pt] of sk.rails) if (pt) drawBall(ball, ...pt, 0.55, "#ffffff");
  for (const [id, pos] of Object.entries(drawn)) {
    const b = Number(id);
    let ring = null;
    if (b === sk.first) ring = "#ffd36b";
    if (sk.off.has(b)) ring = "#ff3b3b";
    if (sk.pocketed.has(b) && !sk.pocketed.get(b)) ring = "#000000";
    if (b === sk.sel) ring = "#4fc3ff";
    drawBall(b, ...pos, sk.pocketed.get(b) ? 0.8 : 1, ring);
  }
}
function skBallAt(p) {
  const R = S.table.radius; let best = null; let dist = 1.8 * R;
  for (const [id, [x, y]] of Object.entries(skDrawn())) { const d = Math.hypot(x - p[0], y - p[1]); if (d < dist) { dist = d; best = Number(id); } }
  return best;
}
function pocketAt(p) {
  for (const [name, [x, y]] of Object.entries(S.table.pockets)) if (Math.hypot(x - p[0], y - p[1]) < 0.09) return name;
  return null;
}
function cushionAt(p) { // a click on a cushion (or the wood behind it), snapped onto the cushion
  const T = S.table; const m = 0.04; const [x, y] = p;
  if (x < -RAIL || x > T.width + RAIL || y < -RAIL || y > T.length + RAIL) return null;
  if (x > m && x < T.width - m && y > m && y < T.length - m) return null;
  const d = [[x, [0, y]], [T.width - x, [T.width, y]], [y, [x, 0]], [T.length - y, [x, T.length]]].sort((a, b) => a[0] - b[0]);
  return d[0][1];
}
const skTool = () => document.querySelector("input[name=sk-tool]:checked").value;
function skClick(p) {
  const tool = skTool(); const ball = skBallAt(p);
  sk.msg = "";
  if (tool === "first") {
    if (ball !== null && ball !== 0) sk.first = sk.first === ball ? null : ball;
  } else if (tool === "off") {
    if (ball !== null) { if (sk.off.has(ball)) sk.off.delete(ball); else { sk.off.add(ball); sk.pocketed.delete(ball); } }
  } else if (tool === "pocket") {
    const pocket = pocketAt(p);
    if (ball !== null && sk.pocketed.has(ball)) { sk.pocketed.delete(ball); sk.sel = null; }
    else if (ball !== null) sk.sel = sk.sel === ball ? null : ball;
    else if (pocket !== null && sk.sel === null) sk.msg = t("pickBall");
    else if (pocket !== null) { sk.pocketed.set(sk.sel, pocket); sk.off.delete(sk.sel); sk.sel = null; }
  } else { // rail
    const cushion = cushionAt(p);
    if (ball !== null && sk.sel === ball && sk.rails.has(ball)) { sk.rails.delete(ball); sk.sel = null; }
    else if (ball !== null) sk.sel = ball;
    else if (cushion !== null && sk.sel === null) sk.msg = t("pickBall");
    else if (cushion !== null) { sk.rails.set(sk.sel, cushion); sk.sel = null; }
  }
  renderScorekeeper();
}
window.nbScoreSpots = () => ({ balls: skDrawn(), pockets: S.table.pockets });

// ------------------------------------------------------------------ the animation loop

let lastFrame = null;
function tick(now) {
  if (S.anim) {
    if (lastFrame !== null) {
      const dt = (now - lastFrame) / 1000;
      perf.frames.push(now - lastFrame);
      if (perf.frames.length > 2000) perf.frames.shift();
      if (!S.anim.paused) S.anim.t += dt * RATE * ($("slow").checked ? 0.2 : 1);
    }
    if (S.anim.t >= S.anim.msg.trajectory.duration + SINK) finishAnimation();
  }
  lastFrame = S.anim ? now : null;
  const started = performance.now();
  render();
  if (S.anim) { perf.render.push(performance.now() - started); if (perf.render.length > 2000) perf.render.shift(); }
  requestAnimationFrame(tick);
}

function startNext() {
  while (!S.anim && S.queue.length) {
    const msg = S.queue.shift();
    if (msg.type === "shot") {
      S.anim = { msg, t: 0, paused: false, replay: false };
      S.last = msg; S.analysis = null;
      updateControls();
      return;
    }
    apply(msg);
  }
}

function finishAnimation() {
  const { msg, replay } = S.anim;
  S.anim = null;
  if (!replay) apply(msg);
  updateControls();
  if (S.queue.length) { S.pausing = true; setTimeout(() => { S.pausing = false; startNext(); }, 700 / RATE); } // a breath between shots
  else startNext();
}

// A shot, a ruling or a new position: take the server's word for everything.
function apply(msg) {
  if (msg.layout) S.layout = msg.layout;
  if (msg.state) {
    const phase = S.state ? S.state.phase : null;
    S.state = msg.state;
    if (msg.state.phase !== phase && (msg.state.phase === "break" || phase === "break")) {
      $("power").value = msg.state.phase === "break" ? 88 : 45; // a firm break, then a medium pace
    }
  }
  if ("in_hand" in msg) S.inHand = msg.in_hand;
  if ("cue" in msg) S.cue = msg.cue;
  if (msg.ruling) {
    S.ruling = msg.ruling; S.history.push(msg.ruling);
    if (msg.trajectory) for (const [id, b] of Object.entries(msg.trajectory.balls)) if (b.pocket && id !== "0") S.tray.push(Number(id));
    if (msg.ruling.game_over) S.tray = [];
  }
  if (msg.history) S.history = msg.history.slice();
  S.placeOk = true; S.aimTouched = false; S.pendingCue = null;
  if (msg.type !== "placed") S.placeMsg = "";
  if (S.inHand && !S.cue) S.pendingCue = defaultCue();
  if (msg.type === "update" && S.mode === "practice" && S.lastStroke) { // undo: the same stroke, ready to change
    S.aim = S.lastStroke.aim; S.aimTouched = true;
    if (S.inHand && S.lastStroke.cue && !placementProblem(...S.lastStroke.cue)) S.pendingCue = S.lastStroke.cue;
  }
  autoAim();
  refresh();
  renderScorekeeper();
  savePractice();
}

// ------------------------------------------------------------------ rules of the page

const myTurn = () => S.state && S.state.winner === null && S.seats.includes(S.state.to_act);
const canShoot = () => myTurn() && !S.anim && S.queue.length === 0 && S.state.phase !== "push_out_choice" && S.mode !== "score";
const cuePosition = () => (S.drag && S.drag.ball === 0 ? S.drag.pos : S.cue || S.pendingCue || (S.layout["0"] ?? null));

function placementProblem(x, y) {
  const T = S.table; const R = T.radius;
  if (!(x >= R && x <= T.width - R && y >= R && y <= T.length - R)) return t("invalidPlace");
  if (S.state.cue_ball === "kitchen" && !(y < T.head_string)) return t("invalidPlace");
  for (const [id, [bx, by]] of Object.entries(S.layout)) {
    if (id === "0") continue;
    if (Math.hypot(bx - x, by - y) - 2 * R < 1e-6) return t("invalidPlace");
  }
  return null;
}

function defaultCue() {
  const T = S.table;
  const candidates = [];
  if (S.state.cue_ball === "kitchen") candidates.push([T.width / 2, T.head_string / 2]);
  for (let y = T.head_string / 2; y < T.length; y += 0.1) for (let x = 0.15; x < T.width; x += 0.15) candidates.push([x, y]);
  return candidates.find(([x, y]) => !placementProblem(x, y)) ?? null;
}

function autoAim() { // aim at the ball on until the player aims
  if (S.aimTouched || !S.state || S.state.lowest === null) return;
  const cue = cuePosition(); const target = S.layout[String(S.state.lowest)];
  if (cue && target) S.aim = Math.atan2(target[1] - cue[1], target[0] - cue[0]);
}

// ------------------------------------------------------------------ panels

function ballChip(id) {
  const s = document.createElement("span");
  s.className = "ballchip"; s.textContent = id === 0 ? "" : String(id);
  s.style.background = COLOURS[id]; s.style.color = [2, 3, 4, 6, 7, 8].includes(id) ? "#fff" : "#000";
  return s;
}

function rulingText(r) {
  const fouls = r.fouls.map((f) => `${t(`foul.${f.code}`)} (${t("clause")} ${f.clause})`).join(", ");
  return { fouls, text: r.explanation[lang()] };
}

function refresh() {
  if (!S.state) return;
  const st = S.state;
  const sb = $("scoreboard"); sb.innerHTML = "";
  for (const seat of [0, 1]) {
    const d = document.createElement("div");
    d.className = `seat${st.to_act === seat && st.winner === null ? " active" : ""}`;
    d.dataset.seat = seat;
    const tags = [];
    if (st.breaker === seat) tags.push(t("breaks"));
    if (st.to_act === seat && st.winner === null) tags.push(t("toAct"));
    d.innerHTML = `<b></b> <span class="num">${st.score[seat]}</span> <small>${tags.join(" · ")}</small>`;
    d.querySelector("b").textContent = st.players[seat];
    sb.appendChild(d);
  }
  const info = document.createElement("div");
  info.id = "match-info";
  info.textContent = `${t("raceTo")} ${st.race_to} · ${t("game")} ${st.game}` + (st.lowest ? ` · ${t("lowest")} ${st.lowest}` : "");
  sb.appendChild(info);
  // referee
  const box = $("ruling"); box.innerHTML = "";
  if (S.ruling) {
    const { fouls, text } = rulingText(S.ruling);
    const head = document.createElement("div");
    head.className = fouls ? "fouls" : "legal";
    head.textContent = fouls ? `${t("foul")}: ${fouls}` : t("legal");
    const p = document.createElement("p"); p.id = "ruling-text"; p.textContent = text;
    box.append(head, p);
  } else {
    const p = document.createElement("p"); p.id = "ruling-text"; p.textContent = S.mode === "score" || st.phase !== "break" ? "" : t("noRuling"); box.append(p);
  }
  $("warning").hidden = !(S.ruling && S.ruling.warning);
  if (st.winner !== null) {
    const p = document.createElement("p"); p.id = "match-over"; p.className = "legal";
    p.textContent = `${t("matchOver")}: ${st.players[st.winner]} ${t("wins")} ${st.score[0]}–${st.score[1]}`;
    box.append(p);
  }
  // history
  const ol = $("history"); ol.innerHTML = "";
  for (const r of S.history.slice().reverse()) {
    const li = document.createElement("li");
    const { fouls, text } = rulingText(r);
    li.textContent = `${t("game")} ${r.game} · ${st.players[r.shooter]}: ${fouls ? `[${fouls}] ` : ""}${text}`;
    ol.appendChild(li);
  }
  const tray = $("tray-balls"); tray.innerHTML = "";
  if (S.mode === "practice") { // every ball down is there, to be dragged back onto the table
    for (let id = 1; id <= 9; id++) {
      if (st.on_table.includes(id) || String(id) in S.layout) continue;
      const chip = ballChip(id); chip.dataset.ball = id; chip.classList.add("drag");
      chip.addEventListener("pointerdown", (ev) => trayDrag(ev, id));
      tray.appendChild(chip);
    }
    if (tray.children.length) { const hint = document.createElement("small"); hint.textContent = ` ${t("practiceTray")}`; tray.appendChild(hint); }
  } else for (const id of S.tray) tray.appendChild(ballChip(id));
  const list = $("analysis-list"); list.innerHTML = "";
  if (S.analysis && S.analysis.shots) S.analysis.shots.forEach((shot, k) => {
    const li = document.createElement("li"); li.style.color = SHOT_COLOURS[k % SHOT_COLOURS.length];
    li.textContent = `${shotTarget(shot)} — ${shotLabel(shot, k).split(": ").slice(1).join(": ")}`;
    list.appendChild(li);
  });
  // hint line
  const hint = $("hint"); hint.className = "";
  if (S.seats.length === 0) hint.textContent = t("spectator");
  else if (st.winner !== null) hint.textContent = "";
  else if (!myTurn()) hint.textContent = `${t("waiting")} ${st.players[st.to_act]}…`;
  else if (S.mode === "score") hint.textContent = "";
  else if (S.placeMsg) { hint.textContent = S.placeMsg; hint.className = S.placeOk ? "good" : "bad"; }
  else if (S.inHand) hint.textContent = st.cue_ball === "kitchen" ? t("inHandKitchen") : t("inHandAnywhere");
  else if (S.mode === "practice") hint.textContent = t("practiceHint");
  else hint.textContent = `${t("yourTurn")}, ${st.players[st.to_act]}. ${t("help")}`;
  updateControls();
  const dlg = $("choice");
  if (myTurn() && st.phase === "push_out_choice" && !S.anim && S.queue.length === 0) { if (!dlg.open) dlg.showModal(); }
  else if (dlg.open) dlg.close();
}

function updateControls() {
  const can = canShoot();
  $("btn-shoot").disabled = !can;
  const push = $("pushout");
  push.disabled = !(can && S.state && S.state.push_out_allowed);
  if (push.disabled) push.checked = false;
  $("btn-replay").disabled = !S.last || !!S.anim;
  $("btn-step").disabled = !S.anim && !S.last;
  const practice = S.mode === "practice";
  $("btn-undo").hidden = !(practice || S.mode === "local" || S.mode === "score");
  $("btn-analysis").hidden = !practice;
  $("btn-forfeit").disabled = !(myTurn() && !S.anim);
  $("scorekeeper").hidden = S.mode !== "score";
  canvas.style.display = "block";
  document.body.classList.toggle("score", S.mode === "score");
  for (const id of ["power", "elevation", "aid", "slow", "btn-undo", "btn-analysis"]) $(id).disabled = false;
  if (S.mode === "score") {
    $("controls").querySelectorAll("input,button").forEach((el) => { if (!["btn-undo", "btn-forfeit", "pushout"].includes(el.id)) el.disabled = true; });
    push.disabled = !(myTurn() && S.state.push_out_allowed);
  }
  $("power-out").textContent = `${speed().toFixed(1)} m/s`;
  $("elevation-out").textContent = `${$("elevation").value}°`;
}

// ------------------------------------------------------------------ the stroke

const speed = () => 0.3 + 10.7 * ($("power").value / 100) ** 1.6;

function shoot() {
  if (!canShoot()) return;
  const cue = cuePosition();
  if (S.inHand) {
    if (!cue || placementProblem(...cue)) { S.placeOk = false; S.placeMsg = t("invalidPlace"); refresh(); return; }
  }
  perf.sentAt = performance.now();
  S.lastStroke = { aim: S.aim, cue };
  send({
    type: "strike", speed: speed(), aim: S.aim, elevation: ($("elevation").value * Math.PI) / 180,
    side: S.side, height: S.height, push_out: $("pushout").checked, cue: S.inHand ? cue : null,
  });
  $("btn-shoot").disabled = true;
}

function drawSpin() {
  const c = $("spin"); const g = c.getContext("2d"); const r = 50;
  g.clearRect(0, 0, c.width, c.height);
  g.fillStyle = "#f8f8f0"; g.beginPath(); g.arc(55, 55, r, 0, 7); g.fill();
  g.strokeStyle = "#999"; g.beginPath(); g.arc(55, 55, r * 0.5, 0, 7); g.stroke(); // the miscue limit
  g.fillStyle = "#1565c0"; g.beginPath(); g.arc(55 + S.side * r, 55 - S.height * r, 6, 0, 7); g.fill();
}

function setSpin(ev) {
  const rect = $("spin").getBoundingClientRect();
  let sx = (ev.clientX - rect.left - 55) / 50; let sy = -(ev.clientY - rect.top - 55) / 50;
  const n = Math.hypot(sx, sy);
  if (n > 0.5) { sx *= 0.5 / n; sy *= 0.5 / n; }
  S.side = Math.round(sx * 100) / 100; S.height = Math.round(sy * 100) / 100;
  drawSpin();
}

// ------------------------------------------------------------------ pointer, touch and keys

function ballAt(p) {
  const R = S.table.radius;
  const cue = cuePosition();
  if (cue && Math.hypot(cue[0] - p[0], cue[1] - p[1]) < 2.5 * R) return 0;
  if (S.mode !== "practice") return null;
  for (const [id, [x, y]] of Object.entries(S.layout)) if (Math.hypot(x - p[0], y - p[1]) < 1.5 * R) return Number(id);
  return null;
}

canvas.addEventListener("pointerdown", (ev) => {
  if (!S.table || !myTurn() || S.anim) return;
  const p = fromEvent(ev);
  if (S.mode === "score") { skClick(p); return; }
  const ball = ballAt(p);
  if (ball !== null && ((ball === 0 && S.inHand) || S.mode === "practice")) {
    S.drag = { ball, pos: p, ok: true };
    canvas.setPointerCapture(ev.pointerId);
    return;
  }
  if (ev.pointerType === "mouse") { S.aimLocked = !S.aimLocked; aimAt(p); }
});
canvas.addEventListener("pointermove", (ev) => {
  if (!S.table) return;
  const p = fromEvent(ev);
  if (S.drag) {
    if (S.mode !== "practice" && S.drag.ball !== 0) return;
    S.drag.pos = p;
    if (S.drag.ball === 0 && S.inHand) {
      const problem = placementProblem(...p);
      S.drag.ok = !problem; S.placeOk = !problem; S.placeMsg = problem ?? t("validPlace");
    } else {
      const T = S.table; const R = T.radius;
      S.drag.ok = p[0] >= R && p[0] <= T.width - R && p[1] >= R && p[1] <= T.length - R &&
        Object.entries(S.layout).every(([id, [x, y]]) => Number(id) === S.drag.ball || Math.hypot(x - p[0], y - p[1]) > 2 * R);
    }
    refresh();
    return;
  }
  if (!S.aimLocked || ev.pointerType !== "mouse") aimAt(p);
});
canvas.addEventListener("pointerup", () => {
  if (!S.drag || !S.drag.pos) return;
  const { ball, pos, ok, tray } = S.drag;
  S.drag = null;
  if (ball === 0 && S.inHand) {
    if (ok) { S.pendingCue = pos; S.cue = null; send({ type: "place", x: pos[0], y: pos[1] }); }
    S.aimTouched = false; autoAim();
  } else if (ok) send({ type: "move_ball", ball, x: pos[0], y: pos[1] });
  else if (ball !== 0 && !tray && offCloth(pos) && String(ball) in S.layout) send({ type: "remove_ball", ball }); // dropped off the table: to the tray
  refresh();
});
// Practice: a pocketed ball dragged from the tray back onto the table.
document.addEventListener("pointerup", () => { if (S.drag && S.drag.tray) { S.drag = null; refresh(); } });
const offCloth = ([x, y]) => x < 0 || y < 0 || x > S.table.width || y > S.table.length;
function trayDrag(ev, id) {
  if (S.mode !== "practice" || !myTurn() || S.anim) return;
  ev.preventDefault();
  S.drag = { ball: id, pos: null, ok: false, tray: true };
}

function aimAt(p) {
  if (!canShoot()) return;
  const cue = cuePosition();
  if (!cue || (Math.abs(p[0] - cue[0]) < 1e-4 && Math.abs(p[1] - cue[1]) < 1e-4)) return;
  S.aim = Math.atan2(p[1] - cue[1], p[0] - cue[0]); S.aimTouched = true;
}

canvas.addEventListener("keydown", onKey);
document.addEventListener("keydown", (ev) => { if (ev.target === document.body) onKey(ev); });
function onKey(ev) {
  const fine = ev.shiftKey ? 0.05 : 0.5;
  if (ev.key === "ArrowLeft") S.aim += (fine * Math.PI) / 180;
  else if (ev.key === "ArrowRight") S.aim -= (fine * Math.PI) / 180;
  else if (ev.key === "ArrowUp") $("power").value = Number($("power").value) + 1;
  else if (ev.key === "ArrowDown") $("power").value = Number($("power").value) - 1;
  else if (ev.key === " " || ev.key === "Enter") shoot();
  else return;
  if (ev.key.startsWith("Arrow")) S.aimTouched = true;
  ev.preventDefault(); updateControls();
}

$("spin").addEventListener("pointerdown", setSpin);
$("spin").addEventListener("pointermove", (ev) => { if (ev.buttons) setSpin(ev); });
$("power").addEventListener("input", updateControls);
$("elevation").addEventListener("input", updateControls);
$("btn-shoot").addEventListener("click", shoot);
$("btn-replay").addEventListener("click", () => {
  if (!S.last || S.anim) return;
  S.anim = { msg: S.last, t: 0, paused: false, replay: true }; updateControls();
});
$("btn-step").addEventListener("click", () => {
  if (!S.anim && S.last) S.anim = { msg: S.last, t: 0, paused: true, replay: true };
  if (S.anim) { S.anim.paused = true; S.anim.t += 1 / 30; }
});
$("choice-shoot").addEventListener("click", () => { $("choice").close(); send({ type: "choose", choice: "shoot" }); });
$("choice-pass").addEventListener("click", () => { $("choice").close(); send({ type: "choose", choice: "pass" }); });
$("btn-undo").addEventListener("click", () => send({ type: "undo" }));
$("btn-analysis").addEventListener("click", () => send({ type: "analysis" }));
$("btn-forfeit").addEventListener("click", () => send({ type: "forfeit" }));
$("lang").addEventListener("change", (ev) => { setLang(ev.target.value); localStorage.setItem("nineball.lang", ev.target.value); refresh(); renderScorekeeper(); });
window.addEventListener("resize", layoutCanvas);

// ------------------------------------------------------------------ scorekeeper

// What the scorekeeper entered: by clicks on the table or with the ball buttons, the same facts.
const sk = { first: null, pocketed: new Map(), rails: new Map(), off: new Set(), sel: null, msg: "" };
function renderScorekeeper() {
  for (const [key, multi] of [["first", false], ["pocketed", true], ["rails", true], ["off", true]]) {
    const row = $(`sk-${key}`); row.innerHTML = "";
    for (let id = 0; id <= 9; id++) {
      if (id > 0 && S.state && !S.state.on_table.includes(id)) continue;
      if (key === "first" && id === 0) continue;
      const chip = ballChip(id);
      if (id === 0) chip.textContent = t("scratch")[0];
      chip.dataset.ball = id;
      const on = multi ? sk[key].has(id) : sk[key] === id;
      if (on) chip.classList.add("on");
      chip.addEventListener("click", () => {
        if (!multi) sk[key] = sk[key] === id ? null : id;
        else if (sk[key].has(id)) sk[key].delete(id);
        else if (key === "off") { sk.off.add(id); sk.pocketed.delete(id); }
        else { sk[key].set(id, null); if (key === "pocketed") sk.off.delete(id); }
        renderScorekeeper();
      });
      row.appendChild(chip);
    }
  }
  $("sk-help").textContent = sk.msg || t(`help.${skTool()}`);
  $("sk-help").className = sk.msg ? "small bad" : "small";
  const list = (ids, f = String) => { const all = [...ids].sort((a, b) => a - b); return all.length ? all.map(f).join(", ") : "—"; };
  const parts = [
    `${t("first")}: ${sk.first === null ? t("nothingHit") : sk.first}`,
    `${t("pocketedBalls")}: ${list(sk.pocketed.keys(), (b) => (sk.pocketed.get(b) ? `${b} ${t("pocketIn")} ${t(`pocket.${sk.pocketed.get(b)}`)}` : String(b)))}`,
    `${t("rails")}: ${list(sk.rails.keys())}`,
    `${t("offTable")}: ${list(sk.off)}`,
  ];
  if ($("sk-obstruction").checked) parts.push(`${t("obstructionShort")} (${t("clause")} 11)`);
  $("sk-summary").textContent = parts.join(" · ");
}
function clearScorekeeper() {
  sk.first = null; sk.pocketed.clear(); sk.rails.clear(); sk.off.clear(); sk.sel = null; sk.msg = "";
  $("sk-obstruction").checked = false;
  document.querySelector("input[name=sk-tool][value=first]").checked = true; // the next shot starts at its first contact
  renderScorekeeper();
}
$("sk-submit").addEventListener("click", () => {
  send({ type: "facts", first: sk.first, pocketed: [...sk.pocketed.keys()], rails: [...sk.rails.keys()], off_table: [...sk.off], push_out: $("pushout").checked, obstruction_moved: $("sk-obstruction").checked });
  clearScorekeeper();
});
$("sk-clear").addEventListener("click", clearScorekeeper);
$("sk-obstruction").addEventListener("change", renderScorekeeper);
document.querySelectorAll("input[name=sk-tool]").forEach((r) => r.addEventListener("change", () => { sk.sel = null; sk.msg = ""; renderScorekeeper(); }));

// ------------------------------------------------------------------ practice kept in the browser

// The practice position is kept here too: practice is never stored, so when the server has
// forgotten it (idle, or restarted), a new practice session is set up in the same position.
function savePractice() {
  if (S.mode !== "practice" || !S.match || !S.state || S.state.phase === "break" || S.seats.length === 0) return;
  const balls = { ...S.layout }; if (S.cue) balls["0"] = S.cue;
  localStorage.setItem("nineball.practice", JSON.stringify({ match: S.match, balls }));
}
function savedPractice() {
  try { return JSON.parse(localStorage.getItem("nineball.practice")); } catch { return null; }
}
async function restorePractice(saved) {
  const res = await fetch("/api/matches", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ mode: "practice", race_to: 1 }) });
  const data = await res.json();
  if (!res.ok) { status(data.error); return; }
  S.pendingSetup = saved.balls;
  localStorage.setItem("nineball.last", JSON.stringify({ match: data.match, token: data.tokens.both }));
  history.replaceState(null, "", `${location.pathname}${location.search}#m=${data.match}&t=${data.tokens.both}`);
  join(data.match, data.tokens.both);
}

// ------------------------------------------------------------------ the connection

function send(msg) { if (S.ws && S.ws.readyState === 1) S.ws.send(JSON.stringify(msg)); }

function status(text) { $("status").textContent = text; }

function connect() {
  status(t("connecting"));
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  S.ws = ws;
  ws.onopen = () => { status(""); ws.send(JSON.stringify({ type: "join", match: S.match, token: S.token })); };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = () => { if (S.ws === ws && !S.closedOnPurpose) { status(t("disconnected")); setTimeout(connect, 1000); } };
}

function onMessage(msg) {
  if (msg.type === "shot" && perf.sentAt !== null) { perf.latencies.push(performance.now() - perf.sentAt); perf.sentAt = null; }
  if (msg.type === "error") {
    const saved = savedPractice();
    if (/no match/.test(msg.message) && saved && saved.match === S.match) { restorePractice(saved); return; }
    status(msg.message);
    if (/token|no match/.test(msg.message)) S.closedOnPurpose = true;
    S.pendingCue = S.cue ? null : S.pendingCue; refresh();
    return;
  }
  status("");
  if (msg.type === "state") {
    S.table = msg.table ?? null; if (S.table) S.table.pockets = S.table.pockets ?? {};
    S.seats = msg.seats; S.mode = msg.mode; S.computerSeat = msg.computer_seat;
    S.queue = []; S.anim = null; S.ruling = msg.history.length ? msg.history[msg.history.length - 1] : null;
    layoutCanvas(); apply(msg);
    if (msg.match !== S.skMatch) { S.skMatch = msg.match; clearScorekeeper(); } // a reconnection keeps the entry
    if (S.pendingSetup && msg.mode === "practice" && msg.seats.length) {
      send({ type: "setup", balls: S.pendingSetup }); S.pendingSetup = null; S.restored = true;
    }
  } else if (msg.type === "shot" || msg.type === "ruling") {
    S.received = (S.received ?? 0) + 1;
    S.queue.push(msg); if (!S.pausing) startNext(); refresh();
  } else if (msg.type === "placed" || msg.type === "update") {
    const keep = S.history; apply({ ...msg, history: msg.history ?? keep });
    if (msg.type === "update") { S.tray = []; S.ruling = S.history[S.history.length - 1] ?? null; S.last = null; S.analysis = null; refresh(); }
    if (S.restored) { S.restored = false; status(t("restored")); }
    S.updated = true;
  } else if (msg.type === "analysis") {
    S.analysis = msg; refresh();
  }
}

// ------------------------------------------------------------------ lobby and history

function join(match, token) {
  S.match = match; S.token = token; S.closedOnPurpose = false; S.history = []; S.tray = []; S.last = null;
  S.analysis = null; S.lastStroke = null; S.state = null;
  if (S.ws) { const old = S.ws; S.ws = null; old.close(); }
  connect();
}

function readHash() {
  const h = new URLSearchParams(location.hash.slice(1));
  return h.get("m") ? { match: h.get("m"), token: h.get("t") } : null;
}

async function openLobby() {
  const lobby = $("lobby");
  const levels = (await (await fetch("/api/levels")).json()).levels;
  $("level").innerHTML = levels.map((l) => `<option>${l}</option>`).join("");
  $("level").value = levels.includes("club") ? "club" : levels[0];
  const mode = () => lobby.querySelector("input[name=mode]:checked").value;
  const names = () => {
    const m = mode();
    $("name0").placeholder = m === "computer" ? t("you") : t("player1");
    $("name1").placeholder = m === "computer" ? t("computer") : t("player2");
    $("level-row").hidden = m !== "computer";
  };
  lobby.querySelectorAll("input[name=mode]").forEach((r) => r.addEventListener("change", names));
  names();
  const last = localStorage.getItem("nineball.last");
  $("lobby-continue").hidden = !last;
  $("lobby-continue").onclick = () => { const { match, token } = JSON.parse(last); lobby.close(); location.hash = `m=${match}&t=${token ?? ""}`; join(match, token); };
  lobby.showModal();
}

$("lobby-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const lobby = $("lobby");
  const mode = lobby.querySelector("input[name=mode]:checked").value;
  const body = {
    mode, race_to: Number($("race").value) || 3, level: $("level").value || "ghost",
    first_breaker: Number($("breaker").value), rules: $("rules").value,
    players: [$("name0").value.trim() || $("name0").placeholder, $("name1").value.trim() || $("name1").placeholder],
  };
  if (params.get("seed")) body.seed = Number(params.get("seed"));
  const res = await fetch("/api/matches", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) { status(data.error); return; }
  lobby.close();
  const token = data.tokens["0"] ?? data.tokens.both;
  localStorage.setItem("nineball.last", JSON.stringify({ match: data.match, token }));
  history.replaceState(null, "", `${location.pathname}${location.search}#m=${data.match}&t=${token}`);
  join(data.match, token);
  if (mode === "network") {
    const base = `${location.origin}/#m=${data.match}`;
    $("link0").value = `${base}&t=${data.tokens["0"]}`; $("link1").value = `${base}&t=${data.tokens["1"]}`; $("link-watch").value = base;
    $("links").showModal();
  }
});

$("btn-new").addEventListener("click", openLobby);
$("btn-history").addEventListener("click", async () => {
  const [m, s] = await Promise.all([fetch("/api/matches").then((r) => r.json()), fetch("/api/stats").then((r) => r.json())]);
  const mt = $("matches-table");
  mt.innerHTML = `<tr><th>#</th><th>${t("players")}</th><th>${t("score")}</th><th>${t("raceTo")}</th><th></th></tr>`;
  for (const x of m.matches.slice(0, 50)) {
    const tr = document.createElement("tr");
    for (const v of [x.id, x.players.join(" – "), x.score.join("–"), x.race_to, x.winner === null ? "…" : `${x.players[x.winner]} ${t("won")}`]) {
      const td = document.createElement("td"); td.textContent = String(v); tr.appendChild(td);
    }
    mt.appendChild(tr);
  }
  const st = $("stats-table");
  st.innerHTML = `<tr><th>${t("players")}</th><th>${t("gamesWon")}</th><th>${t("ballsPerInning")}</th><th>${t("fouls")}</th><th>${t("breakAndRuns")}</th></tr>`;
  for (const p of s.players) {
    const tr = document.createElement("tr");
    for (const v of [p.name, `${p.games_won}/${p.games_played}`, p.balls_per_inning.toFixed(2), p.fouls, p.break_and_runs]) {
      const td = document.createElement("td"); td.textContent = String(v); tr.appendChild(td);
    }
    st.appendChild(tr);
  }
  $("charts").innerHTML = barChart(s.players.slice(0, 12), (p) => p.games_won, t("gamesWon")) + barChart(s.players.slice(0, 12), (p) => p.balls_per_inning, t("ballsPerInning"));
  $("history-page").showModal();
});

function esc(s) { return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]); }
function barChart(rows, value, title) {
  const w = 320; const bh = 18; const max = Math.max(1e-9, ...rows.map(value));
  const bars = rows.map((p, i) => {
    const v = value(p); const len = (v / max) * (w - 130);
    return `<text x="0" y="${i * bh + 30}" fill="#ddd" font-size="12">${esc(p.name).slice(0, 14)}</text>` +
      `<rect x="100" y="${i * bh + 18}" width="${len}" height="${bh - 4}" fill="#2f9d5d"></rect>` +
      `<text x="${104 + len}" y="${i * bh + 30}" fill="#ddd" font-size="12">${Number.isInteger(v) ? v : v.toFixed(2)}</text>`;
  }).join("");
  return `<svg class="chart" width="${w}" height="${rows.length * bh + 26}"><text x="0" y="12" fill="#fff" font-size="13">${esc(title)}</text>${bars}</svg>`;
}

// ------------------------------------------------------------------ start

setLang(LANGS.includes(localStorage.getItem("nineball.lang")) ? localStorage.getItem("nineball.lang") : (navigator.language || "en").slice(0, 2));
$("lang").value = lang();
drawSpin();
requestAnimationFrame(tick);
const target = readHash();
if (target) join(target.match, target.token || null);
else openLobby();
window.addEventListener("hashchange", () => { const h = readHash(); if (h && h.match !== S.match) join(h.match, h.token || null); });
export { positionAt };
