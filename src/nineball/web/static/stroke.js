// The stroke: power, elevation, tip offset and aim, by pointer, touch and keys.
import { lang, setLang, t } from "./i18n.js";
import { $, canShoot, canvas, cuePosition, fromEvent, layoutCanvas, myTurn, perf, S } from "./state.js";
import { renderScorekeeper, skClick } from "./score.js";
import { autoAim } from "./play.js";
import { refresh, updateControls } from "./panels.js";
import { send } from "./net.js";

// ------------------------------------------------------------------ the stroke

// The power slider's curve reaches 11 m/s at full travel, never beyond the server's limit.
function speed() { return Math.min(S.limits ? S.limits.max_speed : 0, 0.3 + 10.7 * ($("power").value / 100) ** 1.6); }

// The controls' ranges come from the server (its stroke limits), never from the page.
function applyLimits() {
  if (!S.limits) return;
  $("elevation").max = String(Math.floor(S.limits.max_elevation_deg));
  const n = Math.hypot(S.side, S.height); const lim = S.limits.miscue_limit;
  if (n > lim) { S.side *= lim / n; S.height *= lim / n; }
  drawSpin(); updateControls();
}

// Whether a ball may go somewhere is the server's answer: ask it, and colour the preview with it.
function askCheck(ball, pos, why = "drag") {
  S.checking = { ball, x: pos[0], y: pos[1], why };
  send({ type: "check", ball, x: pos[0], y: pos[1] });
}
function onCheck(msg) {
  const asked = S.checking;
  if (!asked || asked.ball !== msg.ball || asked.x !== msg.x || asked.y !== msg.y) return; // an older question
  S.checking = null;
  if (asked.why === "undo") {
    if (msg.ok && S.inHand && !S.cue) { S.pendingCue = [msg.x, msg.y]; S.aimTouched = true; }
  } else if (S.drag && S.drag.pos && S.drag.ball === msg.ball) {
    S.drag.ok = msg.ok;
    if (msg.ball === 0 && S.inHand) { S.placeOk = msg.ok; S.placeMsg = msg.ok ? t("validPlace") : t("invalidPlace"); }
  }
  refresh();
}

function shoot() {
  if (!canShoot()) return;
  const cue = cuePosition();
  if (S.inHand) {
    // the cue ball is on the server's spot or where it was dropped; the server refuses a bad one
    if (!cue) { S.placeOk = false; S.placeMsg = t("invalidPlace"); refresh(); return; }
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
  g.strokeStyle = "#999"; g.beginPath(); g.arc(55, 55, r * (S.limits ? S.limits.miscue_limit : 0), 0, 7); g.stroke(); // the miscue limit
  g.fillStyle = "#1565c0"; g.beginPath(); g.arc(55 + S.side * r, 55 - S.height * r, 6, 0, 7); g.fill();
}

function setSpin(ev) {
  const rect = $("spin").getBoundingClientRect();
  let sx = (ev.clientX - rect.left - 55) / 50; let sy = -(ev.clientY - rect.top - 55) / 50;
  const n = Math.hypot(sx, sy);
  const lim = S.limits ? S.limits.miscue_limit : 0;
  if (n > lim) { sx *= lim / (n || 1); sy *= lim / (n || 1); }
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
  if (!p) return; // off the cloth's plane (or the view takes the drag itself)
  if (S.mode === "score") { skClick(p); return; }
  const ball = ballAt(p);
  if (ball !== null && ((ball === 0 && S.inHand) || S.mode === "practice")) {
    S.drag = { ball, pos: p, ok: null }; askCheck(ball, p);
    canvas.setPointerCapture(ev.pointerId);
    return;
  }
  if (ev.pointerType === "mouse") { S.aimLocked = !S.aimLocked; aimAt(p); }
});
canvas.addEventListener("pointermove", (ev) => {
  if (!S.table) return;
  const p = fromEvent(ev);
  if (!p) return;
  if (S.drag) {
    if (S.mode !== "practice" && S.drag.ball !== 0) return;
    S.drag.pos = p; S.drag.ok = null; // not known until the server answers
    askCheck(S.drag.ball, p);
    refresh();
    return;
  }
  if (!S.aimLocked || ev.pointerType !== "mouse") aimAt(p);
});
canvas.addEventListener("pointerup", () => {
  if (!S.drag || !S.drag.pos) return;
  const { ball, pos, ok, tray } = S.drag;
  S.drag = null;
  if (ball === 0 && S.inHand) { // dropped where the server said no: it stays where it was
    if (ok !== false) { S.pendingCue = pos; S.cue = null; S.placing = pos; send({ type: "place", x: pos[0], y: pos[1] }); }
    S.aimTouched = false; autoAim();
  } else if (offCloth(pos)) { // dropped off the table: to the tray
    if (ball !== 0 && !tray && String(ball) in S.layout) send({ type: "remove_ball", ball });
  } else if (ok !== false) send({ type: "move_ball", ball, x: pos[0], y: pos[1] }); // the server has the last word
  refresh();
});
// Practice: a pocketed ball dragged from the tray back onto the table.
document.addEventListener("pointerup", () => { if (S.drag && S.drag.tray) { S.drag = null; refresh(); } });
function offCloth([x, y]) { return x < 0 || y < 0 || x > S.table.width || y > S.table.length; }
function trayDrag(ev, id) {
  if (S.mode !== "practice" || !myTurn() || S.anim) return;
  ev.preventDefault();
  S.drag = { ball: id, pos: null, ok: null, tray: true };
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
  if (S.anim && S.anim.paused) { S.anim.paused = false; updateControls(); return; } // a stepped shot plays on
  if (!S.last || S.anim) return;
  S.anim = { msg: S.last, t: 0, paused: false, replay: true }; updateControls();
});
$("btn-step").addEventListener("click", () => {
  if (!S.anim && S.last) S.anim = { msg: S.last, t: 0, paused: true, replay: true };
  if (S.anim) { S.anim.paused = true; S.anim.t += 1 / 30; }
  updateControls();
});
$("choice-shoot").addEventListener("click", () => { $("choice").close(); send({ type: "choose", choice: "shoot" }); });
$("choice-pass").addEventListener("click", () => { $("choice").close(); send({ type: "choose", choice: "pass" }); });
$("btn-undo").addEventListener("click", () => send({ type: "undo" }));
$("btn-analysis").addEventListener("click", () => send({ type: "analysis" }));
$("lang").addEventListener("change", (ev) => { setLang(ev.target.value); localStorage.setItem("nineball.lang", ev.target.value); refresh(); renderScorekeeper(); });
window.addEventListener("resize", layoutCanvas);

export { applyLimits, askCheck, drawSpin, onCheck, shoot, speed, trayDrag };
