// The connection to the server: the WebSocket and its messages, and practice kept in the browser.
import { t } from "./i18n.js";
import { $, layoutCanvas, perf, S, strokeView } from "./state.js";
import { clearScorekeeper } from "./score.js";
import { apply, startNext } from "./play.js";
import { refresh } from "./panels.js";
import { applyLimits, onCheck } from "./stroke.js";
import { onPreview } from "./aid.js";
import { updateLinksButton } from "./links.js";

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

function send(msg) {
  if (msg.type === "strike") S.aimHold = true; // no aim after a stroke until the server's answer
  if (S.ws && S.ws.readyState === 1) S.ws.send(JSON.stringify(msg));
}

// ------------------------------------------------------------------ the aim, live

// While it is this page's turn, the stroke it shows goes to the match's other pages whenever it
// changes, at most 15 times a second (the server drops any beyond its own limit).
const AIM_EVERY_MS = 66;
let aimSent = null;
setInterval(() => {
  const v = S.aimHold ? null : strokeView();
  if (!v || v.who !== "me" || !S.seats.length) { aimSent = null; return; }
  const { who, ...aim } = v;
  aim.cue = [aim.cue[0], aim.cue[1]]; aim.aim = Math.atan2(Math.sin(aim.aim), Math.cos(aim.aim)); // keys may wind it up
  const key = JSON.stringify(aim);
  if (key === aimSent) return;
  aimSent = key;
  send({ type: "aim", ...aim });
}, AIM_EVERY_MS);

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
  if (msg.type === "shot" && perf.sentAt !== null) { perf.latencies.push(performance.now() - perf.sentAt); msg.sentAt = perf.sentAt; perf.sentAt = null; } // sentAt: for perf.firstFrame
  // The aid's answers, a refusal too, leave the status line alone (the page's aim may be a step
  // behind the server's position, as just after a practice position is restored: the aid asks
  // again).
  if (msg.type === "preview" || msg.about === "preview") { onPreview(msg); return; }
  if (msg.type === "error") {
    const saved = savedPractice();
    if (/no match/.test(msg.message) && saved && saved.match === S.match) { restorePractice(saved); return; }
    S.aimHold = false;
    if (/token|no match/.test(msg.message)) {
      S.closedOnPurpose = true;
      if (!S.state) { status(""); document.dispatchEvent(new CustomEvent("badlink", { detail: msg.message })); return; } // the join refused
    }
    status(msg.message);
    if (S.placing) { S.placing = null; S.pendingCue = S.cue ? null : S.cueSpot; } // the server refused the place: back to its spot
    refresh();
    return;
  }
  if (msg.type === "aim") { // the opponent aiming (the server's seat to act: this page may still be animating the shot before)
    if (!S.seats.includes(msg.seat)) { const { type, seat, ...aim } = msg; S.remoteAim = aim; }
    return;
  }
  status("");
  if (["state", "shot", "ruling", "placed", "update"].includes(msg.type)) { S.remoteAim = null; S.aimHold = false; }
  if (msg.type === "rematch") { follow(msg.match, msg.token); return; }
  if (msg.type === "state") {
    S.table = msg.table ?? null; if (S.table) S.table.pockets = S.table.pockets ?? {};
    S.limits = msg.limits; applyLimits();
    S.seats = msg.seats; S.mode = msg.mode; S.computerSeat = msg.computer_seat;
    S.queue = []; S.anim = null; S.ruling = msg.history.length ? msg.history[msg.history.length - 1] : null;
    layoutCanvas(); apply(msg); updateLinksButton();
    if (msg.match !== S.skMatch) { S.skMatch = msg.match; clearScorekeeper(); } // a reconnection keeps the entry
    if (S.pendingSetup && msg.mode === "practice" && msg.seats.length) {
      send({ type: "setup", balls: S.pendingSetup }); S.pendingSetup = null; S.restored = true;
    }
  } else if (msg.type === "shot" || msg.type === "ruling") {
    S.received = (S.received ?? 0) + 1;
    S.queue.push(msg); if (!S.pausing) startNext(); refresh();
  } else if (msg.type === "placed" || msg.type === "update") {
    S.placing = null;
    const keep = S.history; apply({ ...msg, history: msg.history ?? keep });
    if (msg.type === "update") { S.tray = []; S.ruling = S.history[S.history.length - 1] ?? null; S.last = null; S.analysis = null; refresh(); }
    if (S.restored) { S.restored = false; status(t("restored")); }
    S.updated = true;
  } else if (msg.type === "check") {
    onCheck(msg);
  } else if (msg.type === "analysis") {
    S.analysis = msg; refresh();
  }
}

function join(match, token) {
  S.match = match; S.token = token; S.closedOnPurpose = false; S.history = []; S.tray = []; S.last = null;
  S.analysis = null; S.lastStroke = null; S.state = null; S.chance = null;
  if (S.ws) { const old = S.ws; S.ws = null; old.close(); }
  connect();
}

// A network rematch: this page moves to the new match with its own seat (a spectator watches it).
function follow(match, token) {
  if (token) localStorage.setItem("nineball.last", JSON.stringify({ match, token }));
  history.replaceState(null, "", `${location.pathname}${location.search}#m=${match}${token ? `&t=${token}` : ""}`);
  join(match, token);
}

function readHash() {
  const h = new URLSearchParams(location.hash.slice(1));
  return h.get("m") ? { match: h.get("m"), token: h.get("t") } : null;
}

export { join, readHash, savePractice, send, status };
