// Drawing the table to scale: the cloth, the balls, the aiming aid, the cue and the analysis.
import { frame } from "./anim.js";
import { t } from "./i18n.js";
import { $, canShoot, canvas, COLOURS, ctx, cuePosition, myTurn, RAIL, S, strokeView, toPx, view } from "./state.js";
import { renderScore } from "./score.js";
import { aidLevel } from "./aid.js";

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
  const [hx0, hy0] = toPx(0, T.head_string); const [hx1, hy1] = toPx(T.width, T.head_string);
  ctx.beginPath(); ctx.moveTo(hx0, hy0); ctx.lineTo(hx1, hy1); ctx.stroke();
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

// The number of a ball, readable whatever its colour (and by colour-blind players, who tell the
// balls by their numbers): black on a white disc ringed in black, so it stands out on a light
// ball (the yellow 1 and 9) as on a dark one, and never smaller than 9 px.
const NUMBER = { disc: 0.6, maxDisc: 0.7, ring: "#000", background: "#fff", ink: "#000", minPx: 9 };

function drawNumber(id, px, py, R) {
  const dpr = view.dpr || 1;
  // never more than most of the ball: on a small table (a phone) the colour must still show
  const disc = Math.min(Math.max(R * NUMBER.disc, (NUMBER.minPx * dpr) * 0.62), R * NUMBER.maxDisc);
  ctx.fillStyle = NUMBER.background; ctx.beginPath(); ctx.arc(px, py, disc, 0, 2 * Math.PI); ctx.fill();
  ctx.strokeStyle = NUMBER.ring; ctx.lineWidth = Math.max(1.5, disc * 0.16); ctx.stroke();
  ctx.fillStyle = NUMBER.ink; ctx.font = `bold ${Math.max(Math.round(disc * 1.45), Math.round(Math.min(NUMBER.minPx * dpr, R * 1.1)))}px sans-serif`;
  ctx.textAlign = "center"; ctx.textBaseline = "middle"; ctx.fillText(String(id), px, py + 0.5);
}

function drawBall(id, x, y, scale = 1, ring = null) {
  const R = S.table.radius * view.s * scale;
  const [px, py] = toPx(x, y);
  ctx.fillStyle = id === 9 ? "#f8f8f0" : COLOURS[id];
  ctx.beginPath(); ctx.arc(px, py, R, 0, 2 * Math.PI); ctx.fill();
  if (id === 9) { ctx.fillStyle = COLOURS[9]; ctx.fillRect(px - R, py - R * 0.5, 2 * R, R); }
  ctx.strokeStyle = "#000"; ctx.lineWidth = 1; ctx.stroke();
  if (id !== 0) drawNumber(id, px, py, R);
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

// The aiming aid at its level (aid.js): Ghost ball, the aim line, the ghost ball and the object
// ball's line of departure; Full, the engine's paths of the stroke as aimed (S.preview) on top.
function drawAid(cue) {
  const level = aidLevel();
  if (level === "off") return;
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
  if (level === "full" && S.preview) drawPreview(S.preview);
}

// The engine's paths: the cue ball's (white, dashed) and the first ball's (gold), and the
// ghost ball where the engine has the contact (spin throws it off the straight line).
function drawPreview(preview) {
  const dpr = view.dpr || 1;
  for (const [id, path] of Object.entries(preview.paths)) {
    ctx.strokeStyle = id === "0" ? "rgba(255,255,255,0.9)" : "rgba(255,230,120,0.95)";
    ctx.lineWidth = (id === "0" ? 2 : 3) * dpr; ctx.setLineDash(id === "0" ? [8, 5] : []);
    ctx.beginPath();
    path.forEach(([x, y], i) => { const [p, q] = toPx(x, y); if (i) ctx.lineTo(p, q); else ctx.moveTo(p, q); });
    ctx.stroke();
  }
  ctx.setLineDash([]);
  if (preview.ghost) {
    const [gx, gy] = toPx(...preview.ghost);
    ctx.strokeStyle = "rgba(120,220,255,0.95)"; ctx.lineWidth = 2 * dpr;
    ctx.beginPath(); ctx.arc(gx, gy, S.table.radius * view.s, 0, 2 * Math.PI); ctx.stroke();
  }
}

// The cue of a strokeView(): this page's in wood, the opponent's (shown live) in a blue tint.
const CUE_TINT = { me: "#d9b77a", remote: "#7fb3ff" };
function drawCue({ cue, aim, power, pull, who }) {
  const back = 0.05 + power * 0.15 + (pull ?? 0) * 0.3;
  const [ax, ay] = toPx(cue[0] - Math.cos(aim) * back, cue[1] - Math.sin(aim) * back);
  const [bx, by] = toPx(cue[0] - Math.cos(aim) * (back + 1.2), cue[1] - Math.sin(aim) * (back + 1.2));
  ctx.strokeStyle = CUE_TINT[who] ?? CUE_TINT.me; ctx.lineWidth = 6 * (view.dpr || 1); ctx.lineCap = "round";
  ctx.beginPath(); ctx.moveTo(ax, ay); ctx.lineTo(bx, by); ctx.stroke(); ctx.lineCap = "butt";
}

// Another view that draws the table instead (the 3D one): a function that draws a frame and
// answers true, or false when it is not active (then the 2D canvas draws).
let altView = null;
function setView(f) { altView = f; }

function render() {
  if (!S.table) return;
  if (altView && altView()) return;
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
  const stroke = strokeView();
  const remote = stroke && stroke.who === "remote";
  if (remote) { // the opponent's cue ball in hand goes where they hold it
    if (S.inHand) drawBall(0, ...stroke.cue);
    drawCue(stroke);
  }
  const cue = remote && S.inHand ? null : cuePosition();
  if (cue) {
    let ring = null;
    if (S.inHand && myTurn()) ring = S.placeOk === false ? "#ff3b3b" : "#3bff6b";
    if (S.drag && S.drag.ball === 0) ring = S.drag.ok === false ? "#ff3b3b" : "#3bff6b";
    const at = S.drag && S.drag.ball === 0 ? S.drag.pos : cue;
    if (stroke && stroke.who === "me") { drawAid(at); drawCue(stroke); }
    if (S.inHand || (S.drag && S.drag.ball === 0)) drawBall(0, ...at, 1, ring);
  }
  if (S.drag && S.drag.ball !== 0 && S.drag.pos) drawBall(S.drag.ball, ...S.drag.pos, 1, S.drag.ok === false ? "#ff3b3b" : "#3bff6b");
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

export { drawAid, drawBall, firstPath, NUMBER, render, setView, SHOT_COLOURS, shotLabel, shotTarget };
