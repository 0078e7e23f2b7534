// The aiming aid: its level (Off, Ghost ball, Full), the engine's preview of the stroke as aimed
// now (the server's `preview`, kept in S.preview for whichever view draws it), and the warning
// when the first ball the stroke meets is not the ball on.
import { tf } from "./i18n.js";
import { $, S, strokeView } from "./state.js";
import { send } from "./net.js";
import { speed } from "./stroke.js";

const LEVELS = ["off", "ghost", "full"];
const STORED = "nineball.aid";
const EVERY_MS = 40; // how often the stroke is looked at
const THROTTLE_MS = 80; // at most one request this often
const PATIENCE_MS = 1500; // an unanswered request (refused, or lost) is asked again after this

function aidLevel() { return LEVELS.includes($("aid").value) ? $("aid").value : "off"; }

const select = $("aid");
select.value = LEVELS.includes(localStorage.getItem(STORED)) ? localStorage.getItem(STORED) : "ghost";
select.addEventListener("change", () => { localStorage.setItem(STORED, aidLevel()); poll(); });

// The stroke as aimed now, as the preview message to send; null when there is nothing to show
// (the aid off, not this page's turn to shoot, a ball being dragged, the cue ball where it may
// not go). The same fields as the strike that shoot() sends.
function wanted() {
  if (aidLevel() === "off") return null;
  const view = strokeView();
  if (!view || view.who !== "me" || S.placeOk === false || !S.limits) return null;
  return {
    type: "preview", speed: speed(), aim: view.aim, elevation: view.elevation, side: view.side,
    height: view.height, push_out: $("pushout").checked, cue: S.inHand ? [view.cue[0], view.cue[1]] : null,
  };
}
// One stroke, one key: a request and its answer (which echoes the stroke) have the same.
function keyOf(s) { return [s.speed, s.aim, s.elevation, s.side, s.height, s.push_out, s.cue ? s.cue.join(",") : ""].join("|"); }

let sent = null; // {key, at} of the last request
let answered = null; // the key S.preview answers
let shown = null; // the warning's words on the page

function poll() {
  const msg = wanted();
  if (!msg) { S.preview = null; answered = null; showWarning(); return; }
  const key = keyOf(msg);
  const now = performance.now();
  if (key !== answered && (!sent || (sent.key !== key && now - sent.at >= THROTTLE_MS) || now - sent.at >= PATIENCE_MS)) {
    sent = { key, at: now };
    send(msg);
  }
  showWarning();
}
setInterval(poll, EVERY_MS);

// The server's answer: kept when it is about the stroke aimed now or the last one asked about
// (a stroke moving on is shown a step behind, never an older one than the last asked).
function onPreview(msg) {
  if (msg.type === "error") { S.preview = null; answered = null; showWarning(); return; } // asked again after PATIENCE_MS
  const key = keyOf(msg.stroke);
  const now = wanted();
  if (!now || (key !== keyOf(now) && (!sent || key !== sent.key))) return;
  if (sent && sent.key === key) sent = null;
  answered = key;
  S.preview = {
    aim: msg.stroke.aim, ghost: msg.ghost, first: msg.first, paths: msg.paths, lowest: msg.lowest, wrong: msg.wrong_ball,
    pocketed: msg.pocketed, warn: msg.wrong_ball ? tf("aidWrongBall", { first: msg.first, lowest: msg.lowest }) : null,
  };
  showWarning();
}

function showWarning() {
  const p = S.preview;
  const words = p && p.wrong ? tf("aidWrongBall", { first: p.first, lowest: p.lowest }) : "";
  if (p) p.warn = words || null; // in the page's language, whenever it changes
  if (words === shown) return;
  shown = words;
  $("aid-warning").textContent = words;
  $("aid-warning").hidden = !words;
}
document.addEventListener("langchange", () => { shown = null; showWarning(); });

export { aidLevel, onPreview };
