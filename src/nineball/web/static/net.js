// The connection to the server: the WebSocket and its messages, and practice kept in the browser.
import { t } from "./i18n.js";
import { $, layoutCanvas, perf, S } from "./state.js";
import { clearScorekeeper } from "./score.js";
import { apply, startNext } from "./play.js";
import { refresh } from "./panels.js";
import { applyLimits, onCheck } from "./stroke.js";

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
  if (msg.type === "shot" && perf.sentAt !== null) { perf.latencies.push(performance.now() - perf.sentAt); msg.sentAt = perf.sentAt; perf.sentAt = null; } // sentAt: for perf.firstFrame
  if (msg.type === "error") {
    const saved = savedPractice();
    if (/no match/.test(msg.message) && saved && saved.match === S.match) { restorePractice(saved); return; }
    status(msg.message);
    if (/token|no match/.test(msg.message)) S.closedOnPurpose = true;
    if (S.placing) { S.placing = null; S.pendingCue = S.cue ? null : S.cueSpot; } // the server refused the place: back to its spot
    refresh();
    return;
  }
  status("");
  if (msg.type === "state") {
    S.table = msg.table ?? null; if (S.table) S.table.pockets = S.table.pockets ?? {};
    S.limits = msg.limits; applyLimits();
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
  S.analysis = null; S.lastStroke = null; S.state = null;
  if (S.ws) { const old = S.ws; S.ws = null; old.close(); }
  connect();
}

function readHash() {
  const h = new URLSearchParams(location.hash.slice(1));
  return h.get("m") ? { match: h.get("m"), token: h.get("t") } : null;
}

export { join, readHash, savePractice, send, status };
