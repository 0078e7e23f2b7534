// The stroke: power, elevation, tip offset and aim, by pointer, touch and keys.
import { lang, setLang, t } from "./i18n.js";
import { $, canShoot, canvas, cuePosition, fromEvent, layoutCanvas, myTurn, perf, S, strokeView } from "./state.js";
import { renderScorekeeper, skClick } from "./score.js";
import { autoAim } from "./play.js";
import { refresh, updateControls } from "./panels.js";
import { send } from "./net.js";

// ------------------------------------------------------------------ the stroke

// The power curve, the one place of it: a fraction 0..1 of the slider's travel to the cue
// ball's speed (m/s), from a gentle touch to the server's S.limits.max_speed at full travel.
const SLOWEST = 0.3; // m/s at the slider's first step
function speedAt(power) {
  const top = S.limits ? S.limits.max_speed : 0;
  return Math.min(top, SLOWEST + (top - SLOWEST) * Math.max(0, Math.min(1, power)) ** 1.6);
}
function speed() { return speedAt($("power").value / 100); }

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
  S.lastStroke = { aim: S.aim, cue, speed: speed() };
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

// A finger needs a larger target than a mouse: on touch, the cue ball answers within 44 CSS px
// of where it is drawn, measured on the screen (in 3D a ball's size there depends on the camera).
const TOUCH_PX = 44;
function ballAt(p, ev) {
  const R = S.table.radius;
  const cue = cuePosition();
  if (cue && Math.hypot(cue[0] - p[0], cue[1] - p[1]) < 2.5 * R) return 0;
  if (cue && ev.pointerType === "touch") {
    const [x, y] = window.nbToClient(cue[0], cue[1]);
    if (Math.hypot(ev.clientX - x, ev.clientY - y) < TOUCH_PX) return 0;
  }
  if (S.mode !== "practice") return null;
  for (const [id, [x, y]] of Object.entries(S.layout)) if (Math.hypot(x - p[0], y - p[1]) < 1.5 * R) return Number(id);
  return null;
}

canvas.addEventListener("pointerdown", (ev) => {
  if (!S.table || !myTurn() || S.anim) return;
  const p = fromEvent(ev);
  if (!p) return; // off the cloth's plane (or the view takes the drag itself)
  if (S.mode === "score") { skClick(p); return; }
  const ball = ballAt(p, ev);
  if (ball !== null && ((ball === 0 && S.inHand) || S.mode === "practice")) {
    S.drag = { ball, pos: p, ok: null }; askCheck(ball, p);
    canvas.setPointerCapture(ev.pointerId);
    return;
  }
  if (p && pullStart(p)) { canvas.setPointerCapture(ev.pointerId); return; } // a ball under it first
  if (ev.pointerType === "mouse") { S.aimLocked = !S.aimLocked; aimAt(p); }
});
canvas.addEventListener("pointermove", (ev) => {
  if (!S.table) return;
  const p = fromEvent(ev);
  if (pulling) { if (p) pullMove(p); return; }
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
  if (pulling) { pullEnd(); return; }
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

// ------------------------------------------------------------------ the pull-back power gesture

// On the table: a press on the cue stick behind the cue ball (within PULL_GRAB of its line) and a
// drag back along the aim draws the cue back; S.pull (0..1) and the power slider follow the
// drag, a release shoots, and a release near 0 lets the cue go without a shot. Table metres
// only (fromEvent), so any view that sets the picker gets the gesture too; a view with a canvas
// of its own calls pullStart(p) on a press (true: the pull has begun), pullMove(p), pullEnd().
const PULL_GRAB = 0.04; // m either side of the stick's line
const PULL_REACH = 0.45; // m of drag for a full pull: the drawn stick's tip follows the pointer
const PULL_CANCEL = 0.03; // a pull under this fraction is let go without a shot
const STICK = 1.25; // m of stick behind the tip that a press may take
let pulling = null; // {from: m along the aim behind the ball, or px down the strip; power}

function along(p) {
  const cue = cuePosition();
  return (p[0] - cue[0]) * Math.cos(S.aim) + (p[1] - cue[1]) * Math.sin(S.aim);
}
function onStick(p) {
  const view = strokeView();
  if (!view || view.who !== "me") return false;
  const fx = p[0] - view.cue[0]; const fy = p[1] - view.cue[1];
  const a = along(p); const across = Math.abs(fy * Math.cos(S.aim) - fx * Math.sin(S.aim));
  return a < -0.5 * S.table.radius && a > -STICK && across < PULL_GRAB;
}
function setPull(fraction) {
  S.pull = Math.max(0, Math.min(1, fraction));
  $("power").value = String(Math.max(1, Math.round(S.pull * 100)));
  $("pull-fill").style.height = `${S.pull * 100}%`;
  updateControls();
}
function pullStart(p) {
  if (!canShoot() || S.drag || !onStick(p)) return false;
  pulling = { from: along(p), power: $("power").value };
  setPull(0);
  return true;
}
function pullMove(p) { if (pulling) setPull((pulling.from - along(p)) / PULL_REACH); }
function pullEnd(cancel = false) {
  if (!pulling) return;
  const { power } = pulling; pulling = null;
  const shot = !cancel && S.pull >= PULL_CANCEL && canShoot();
  if (!shot) $("power").value = power; // let go: the power it had
  if (shot) shoot();
  S.pull = 0; $("pull-fill").style.height = "0";
  updateControls();
}
canvas.addEventListener("pointercancel", () => pullEnd(true));

// The strip beside the power slider, for touch: press, drag down to pull, release to shoot; a
// tap alone pulls nothing and shoots nothing.
const strip = $("pull-strip");
strip.addEventListener("pointerdown", (ev) => {
  if (!canShoot() || S.drag) return;
  ev.preventDefault();
  strip.setPointerCapture(ev.pointerId);
  pulling = { from: ev.clientY, power: $("power").value, strip: true };
  setPull(0);
});
strip.addEventListener("pointermove", (ev) => {
  if (pulling && pulling.strip) setPull((ev.clientY - pulling.from) / strip.clientHeight);
});
strip.addEventListener("pointerup", () => { if (pulling && pulling.strip) pullEnd(); });
strip.addEventListener("pointercancel", () => pullEnd(true));

// ------------------------------------------------------------------ fine aim by touch and mouse

// Drag the strip sideways: FINE_DEG_PER_PX a pixel (to the right: clockwise on the table, as the
// right arrow); the buttons turn the aim by FINE_STEP_DEG.
const FINE_DEG_PER_PX = 0.02;
const FINE_STEP_DEG = 0.05;
function turnAim(deg) {
  if (!canShoot()) return;
  S.aim = Math.atan2(Math.sin(S.aim + (deg * Math.PI) / 180), Math.cos(S.aim + (deg * Math.PI) / 180));
  S.aimTouched = true; updateControls();
}
const fine = $("fine-aim");
let fineFrom = null;
fine.addEventListener("pointerdown", (ev) => { ev.preventDefault(); fine.setPointerCapture(ev.pointerId); fineFrom = ev.clientX; });
fine.addEventListener("pointermove", (ev) => {
  if (fineFrom === null) return;
  turnAim(-(ev.clientX - fineFrom) * FINE_DEG_PER_PX); fineFrom = ev.clientX;
});
for (const type of ["pointerup", "pointercancel"]) fine.addEventListener(type, () => { fineFrom = null; });
$("aim-ccw").addEventListener("click", () => turnAim(FINE_STEP_DEG));
$("aim-cw").addEventListener("click", () => turnAim(-FINE_STEP_DEG));
function labelAimButtons() { $("aim-ccw").setAttribute("aria-label", t("aimAnticlockwise")); $("aim-cw").setAttribute("aria-label", t("aimClockwise")); }
document.addEventListener("langchange", labelAimButtons);
labelAimButtons();

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

export { applyLimits, askCheck, drawSpin, onCheck, pullEnd, pullMove, pullStart, shoot, speed, speedAt, trayDrag };
