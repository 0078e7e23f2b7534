// The animation of shots and how the page takes the server's word for a position.
import { SINK } from "./anim.js";
import { t } from "./i18n.js";
import { $, cuePosition, perf, RATE, S } from "./state.js";
import { render } from "./draw.js";
import { renderScorekeeper } from "./score.js";
import { refresh, updateControls } from "./panels.js";
import { savePractice } from "./net.js";
import { askCheck } from "./stroke.js";
import { soundFrame } from "./sound.js";
import { hideRack, noteEndings } from "./endings.js";

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
    soundFrame(S.anim);
    if (S.anim.t >= S.anim.msg.trajectory.duration + SINK) finishAnimation();
  }
  lastFrame = S.anim ? now : null;
  const started = performance.now();
  render();
  if (S.anim) {
    const done = performance.now();
    perf.render.push(done - started); if (perf.render.length > 2000) perf.render.shift();
    if (!S.anim.drawn && !S.anim.replay) { // a shot's first frame: how long after this page's stroke was sent
      S.anim.drawn = true;
      if (S.anim.msg.sentAt != null) perf.firstFrame = done - S.anim.msg.sentAt;
    }
  }
  requestAnimationFrame(tick);
}

function startNext() {
  if (S.anim && S.anim.replay && S.queue.length) S.anim = null; // news from the server ends a replay
  while (!S.anim && S.queue.length) {
    const msg = S.queue.shift();
    if (msg.type === "shot") {
      S.anim = { msg, t: 0, paused: false, replay: false };
      S.last = msg; S.analysis = null; hideRack();
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
  else document.dispatchEvent(new CustomEvent("replayend", { detail: msg })); // history.js plays on
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
  if ("chance" in msg) S.chance = msg.chance; // the position's chances, told with its state
  if ("cue" in msg) S.cue = msg.cue;
  if (msg.ruling) {
    S.ruling = msg.ruling; S.history.push(msg.ruling);
    if (msg.trajectory) for (const [id, b] of Object.entries(msg.trajectory.balls)) if (b.pocket && id !== "0") S.tray.push(Number(id));
    if (msg.ruling.game_over) S.tray = [];
  }
  if (msg.history) S.history = msg.history.slice();
  S.placeOk = true; S.aimTouched = false; S.pendingCue = null;
  if (msg.type !== "placed") S.placeMsg = "";
  if ("cue_spot" in msg) S.cueSpot = msg.cue_spot; // the server's free spot for the cue ball in hand
  if (S.inHand && !S.cue) S.pendingCue = S.cueSpot ?? null;
  if (msg.type === "update" && S.mode === "practice" && S.lastStroke) { // undo: the same stroke, ready to change
    S.aim = S.lastStroke.aim; S.aimTouched = true;
    if (S.inHand && S.lastStroke.cue) askCheck(0, S.lastStroke.cue, "undo"); // back where it was, if the server agrees
  }
  autoAim();
  refresh();
  renderScorekeeper();
  savePractice();
  noteEndings(msg);
}

function autoAim() { // aim at the ball on until the player aims
  if (S.aimTouched || !S.state || S.state.lowest === null) return;
  const cue = cuePosition(); const target = S.layout[String(S.state.lowest)];
  if (cue && target) S.aim = Math.atan2(target[1] - cue[1], target[0] - cue[0]);
}

export { apply, autoAim, startNext, tick };
