// A table's scorer (/event/table#e=<event>&t=<table>&k=<token>), made for a phone: the match on
// this table, scored rack by rack or shot by shot, and the shot clock.
//
// Every entry is kept on the device (localStorage) until the server has answered it: taken with
// no network, it waits and goes when the network is back, and a reload keeps it. Each entry has
// an id made here and its place in its match (seq): sent twice (a lost answer), the server
// applies it once; made after someone else's entry it did not know of, it is refused, never
// applied out of order.
import { $, el, hashParams, lang, postJSON, getJSON, raceText, roundName, setupLanguage, sideName, t, tf } from "./event-common.js";

const params = hashParams();
const EVENT = params.get("e");
const TABLE = Number(params.get("t"));
const TOKEN = params.get("k");
const QUEUE_KEY = `nineball.event.${EVENT}.${TABLE}.queue`;

let view = null; // the server's table view (GET /api/events/<e>/tables/<t>)
let queue = loadQueue();
let sending = false;
let online = true;
let message = ""; // the last refusal or note shown
let lastAnswer = null; // the answer to this device's last entry (a ruling)
const start = { first: 0, mode: "quick" };
const shot = { first: null, pocketed: new Set(), rails: new Set(), off: new Set() };

function loadQueue() { try { return JSON.parse(localStorage.getItem(QUEUE_KEY)) || []; } catch { return []; } }
function saveQueue() { localStorage.setItem(QUEUE_KEY, JSON.stringify(queue)); }

// An entry id: 128 random bits (crypto.getRandomValues works on a plain http page too).
function newId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function current() { return view && view.match; }
function queuedFor(key) { return queue.filter((e) => e.match === key); }

// The match as this device sees it: the server's, with its own entries not yet answered.
function predicted() {
  const m = current();
  if (!m) return null;
  const mine = queuedFor(m.key);
  const out = { ...m, score: [...m.score] };
  let breaker = m.breaker;
  for (const e of mine) {
    if (e.kind === "start") { out.mode = e.mode; out.first_breaker = e.first_breaker; breaker = e.first_breaker; }
    if (e.kind === "rack") {
      out.score[e.winner] += 1;
      breaker = view.event.breaks === "winner" ? e.winner : 1 - breaker;
    }
  }
  out.breaker = breaker;
  out.waiting = mine.length;
  return out;
}

function enqueue(kind, fields = {}) {
  const m = current();
  if (!m) return;
  const entry = { id: newId(), match: m.key, seq: m.seq + queuedFor(m.key).length, kind, ...fields };
  queue.push(entry); saveQueue(); message = "";
  render(); flush();
}

async function flush() {
  if (sending || !queue.length) return;
  sending = true;
  const batch = queue.slice(0, 50);
  let reply;
  try {
    reply = await postJSON(`/api/events/${EVENT}/entries`, { token: TOKEN, table: TABLE, entries: batch });
  } catch {
    online = false; sending = false; render();
    setTimeout(flush, 2000); // the network is down: keep the entries, try again
    return;
  }
  online = true; sending = false;
  if (!reply.ok) { message = reply.data.error || `HTTP ${reply.status}`; render(); setTimeout(flush, 5000); return; }
  const answered = new Set(reply.data.answers.map((a) => a.entry));
  for (const answer of reply.data.answers) lastAnswer = answer;
  queue = queue.filter((e) => !answered.has(e.id));
  const refused = reply.data.refused;
  if (refused) {
    message = refused.error;
    const bad = queue.find((e) => e.id === refused.entry);
    queue = queue.filter((e) => e.id !== refused.entry);
    if (bad) { // the entries after it in its match take its place
      const served = reply.data.table.match && reply.data.table.match.key === bad.match ? reply.data.table.match.seq : null;
      queue.filter((e) => e.match === bad.match).forEach((e, i) => { e.seq = (served ?? bad.seq) + i; });
    }
  }
  saveQueue();
  view = reply.data.table; window.nbTable = view;
  render();
  if (queue.length) flush();
}

async function refresh() {
  try {
    view = await getJSON(`/api/events/${EVENT}/tables/${TABLE}`);
    window.nbTable = view; online = true;
    if (view.clock) syncClock(view.clock);
  } catch { online = false; }
  render();
  if (queue.length) flush();
}

// ------------------------------------------------------------------ the shot clock

const clock = { remaining: null, running: false, at: 0, beeped: null, extensions: [0, 0] };
let audio = null;
function syncClock(c) {
  clock.running = c.running; clock.remaining = c.remaining; clock.at = performance.now(); clock.extensions = c.extensions_left;
}
function clockLeft() { return clock.running ? clock.remaining - (performance.now() - clock.at) / 1000 : clock.remaining; }
function clockText() { const left = clockLeft(); return left > 0 ? String(Math.ceil(left)) : t("ev.time"); }
function beep(freq, seconds) {
  audio = audio || (window.AudioContext ? new AudioContext() : null);
  if (!audio) return;
  const osc = audio.createOscillator(); const gain = audio.createGain();
  osc.frequency.value = freq; gain.gain.value = 0.25;
  osc.connect(gain); gain.connect(audio.destination);
  osc.start(); osc.stop(audio.currentTime + seconds);
  (window.nbBeeps = window.nbBeeps || []).push(freq);
}
setInterval(() => {
  if (clock.remaining === null || !$("clock-time")) return;
  const left = clockLeft();
  const whole = Math.ceil(left);
  $("clock-time").textContent = clockText();
  $("clock-time").classList.toggle("low", left <= 10);
  if (clock.running && whole !== clock.beeped && whole <= 10 && whole >= 0) {
    clock.beeped = whole;
    beep(whole === 0 ? 440 : 880, whole === 0 ? 0.8 : 0.12);
  }
}, 100);
async function clockAction(action, seat = null) {
  try {
    const reply = await postJSON(`/api/events/${EVENT}/clock`, { token: TOKEN, table: TABLE, action, seat });
    if (reply.ok) { syncClock(reply.data.clock); clock.beeped = null; message = ""; } else message = reply.data.error;
  } catch { message = t("ev.offline"); }
  render();
}

// ------------------------------------------------------------------ drawing

function scoreline(m) {
  const names = [sideName(m, 0), sideName(m, 1)];
  return el("section", {},
    el("div", { class: "small", text: `${m.key} · ${roundName(m)} · ${raceText(m)}` }),
    el("div", { class: "scoreline" },
      el("span", { class: "name", text: names[0] }),
      el("span", { class: "score", id: "score", text: `${m.score[0]} - ${m.score[1]}` }),
      el("span", { class: "name", text: names[1] }),
      ...[0, 1].flatMap((slot) => [el("span", { class: "race-of", text: tf("ev.raceTo", { race: m.races[slot] }) }), slot === 0 ? el("span") : null])),
    m.mode && m.breaker !== null ? el("div", { class: "breaking", text: tf("ev.toBreak", { name: names[m.breaker] }) }) : null);
}

function startSection(m) {
  const names = [sideName(m, 0), sideName(m, 1)];
  const pick = (slot) => el("button", { class: start.first === slot ? "on" : "", onclick: () => { start.first = slot; render(); }, text: names[slot] });
  const mode = (value, key) => el("button", { class: start.mode === value ? "on" : "", "data-mode": value, onclick: () => { start.mode = value; render(); }, text: t(key) });
  return el("section", {},
    el("h2", { text: t("ev.startMatch") }),
    el("p", { text: t("ev.firstBreaker") }), el("div", { class: "big-pair" }, pick(0), pick(1)),
    el("p", { text: t("ev.howScored") }), el("div", { class: "big-pair" }, mode("quick", "ev.quick"), mode("shots", "ev.shots")),
    el("div", { class: "row" }, el("button", { id: "start", class: "big", onclick: () => enqueue("start", { mode: start.mode, first_breaker: start.first }), text: t("ev.start") })));
}

function quickSection(m) {
  const names = [sideName(m, 0), sideName(m, 1)];
  const balls = el("select", { id: "break-balls" }, el("option", { value: "", text: "–" }), ...[...Array(10).keys()].map((n) => el("option", { value: String(n), text: String(n) })));
  const rack = (slot) => el("button", { class: "big", id: `rack-${slot}`, onclick: () => {
    const count = $("break-balls").value;
    enqueue("rack", { winner: slot, break_balls: count === "" ? null : Number(count), break_foul: $("break-foul").checked, break_and_run: $("break-run").checked });
  }, text: tf("ev.rackTo", { name: names[slot] }) });
  return el("section", {},
    el("div", { class: "big-pair" }, rack(0), rack(1)),
    el("details", {}, el("summary", { text: t("ev.breakDetails") }),
      el("div", { class: "row" }, el("label", {}, t("ev.breakBalls"), balls)),
      el("div", { class: "row" }, el("label", {}, el("input", { type: "checkbox", id: "break-foul" }), t("ev.breakFoul"))),
      el("div", { class: "row" }, el("label", {}, el("input", { type: "checkbox", id: "break-run" }), t("ev.breakAndRun")))),
    el("div", { class: "row" }, el("button", { id: "undo", onclick: () => enqueue("undo"), text: t("undo") })));
}

function chips(key, multi, state) {
  const row = el("div", { class: "chips", id: `chips-${key}` });
  const onTable = state ? state.on_table : [1, 2, 3, 4, 5, 6, 7, 8, 9];
  for (const ball of [0, ...onTable]) {
    if (key === "first" && ball === 0) continue;
    const on = multi ? shot[key].has(ball) : shot[key] === ball;
    row.append(el("button", { class: on ? "on" : "", "data-ball": ball, text: ball === 0 ? t("ev.cue") : String(ball), onclick: () => {
      if (!multi) shot[key] = shot[key] === ball ? null : ball;
      else if (shot[key].has(ball)) shot[key].delete(ball); else shot[key].add(ball);
      render();
    } }));
  }
  return row;
}

function rulingBox() {
  const m = current();
  const answer = lastAnswer && lastAnswer.ruling ? lastAnswer : (m && m.last && m.last.ruling ? m.last : null);
  if (!answer) return null;
  const r = answer.ruling;
  const fouls = r.fouls.map((f) => `${t(`foul.${f.code}`)} (${t("clause")} ${f.clause})`).join(", ");
  return el("div", { class: "ruling", id: "ruling" },
    el("div", { class: r.fouls.length ? "fouls" : "legal", text: r.fouls.length ? fouls : t("legal") }),
    el("div", { text: r.explanation[lang()] }));
}

function shotsSection(m) {
  const state = m.state;
  const names = [sideName(m, 0), sideName(m, 1)];
  const section = el("section", {});
  if (!state) { section.append(el("p", { class: "small", text: tf("ev.waitingSent", { n: m.waiting }) })); return section; }
  const toAct = names[state.to_act];
  if (m.warning && m.warning[state.to_act]) section.append(el("div", { class: "warning", id: "foul-warning", text: tf("ev.warning", { name: toAct }) }));
  const where = state.phase === "break" ? t("ev.inKitchen") : state.cue_ball === "anywhere" ? t("ev.inHand") : t("ev.asItLies");
  section.append(el("p", { id: "to-act" }, el("b", { text: toAct }), ` · ${where} · ${tf("ev.lowest", { ball: state.lowest })}`));
  if (m.waiting) section.append(el("p", { class: "small", text: tf("ev.waitingSent", { n: m.waiting }) }));
  if (state.phase === "push_out_choice") {
    section.append(el("p", { text: tf("ev.choose", { name: toAct }) }), el("div", { class: "big-pair" },
      el("button", { id: "choose-shoot", onclick: () => enqueue("choice", { choice: "shoot" }), text: t("choiceShoot") }),
      el("button", { id: "choose-pass", onclick: () => enqueue("choice", { choice: "pass" }), text: t("choicePass") })));
  } else {
    section.append(
      el("h3", { text: t("first") }), chips("first", false, state),
      el("h3", { text: t("pocketedBalls") }), chips("pocketed", true, state),
      el("h3", { text: t("rails") }), chips("rails", true, state),
      el("details", {}, el("summary", { text: t("offTable") }), chips("off", true, state)),
      el("div", { class: "row" },
        el("label", {}, el("input", { type: "checkbox", id: "push-out", disabled: !state.push_out_allowed }), t("pushOut")),
        el("label", {}, el("input", { type: "checkbox", id: "obstruction" }), t("obstructionShort"))),
      el("div", { class: "row" }, el("button", { class: "big", id: "enter-shot", text: t("enterShot"), onclick: () => {
        enqueue("shot", { first: shot.first, pocketed: [...shot.pocketed], rails: [...shot.rails], off_table: [...shot.off], push_out: $("push-out").checked, obstruction_moved: $("obstruction").checked });
        shot.first = null; shot.pocketed.clear(); shot.rails.clear(); shot.off.clear();
      } })));
  }
  section.append(rulingBox() || "", el("div", { class: "row" },
    el("button", { id: "undo", onclick: () => enqueue("undo"), text: t("undo") }),
    el("button", { id: "forfeit", onclick: () => { if (confirm(tf("ev.forfeitAsk", { name: toAct }))) enqueue("forfeit", { seat: state.to_act }); }, text: t("forfeit") })));
  return section;
}

function clockSection(m) {
  if (!view.event.shot_clock) return null;
  const names = m ? [sideName(m, 0), sideName(m, 1)] : ["1", "2"];
  return el("section", { id: "clock" },
    el("h2", { text: t("ev.shotClock") }),
    el("div", { id: "clock-time", text: clock.remaining === null ? String(view.event.shot_clock.seconds) : clockText() }),
    el("div", { class: "row" },
      el("button", { class: "big", id: "clock-start", onclick: () => clockAction("start"), text: t("ev.clockStart") }),
      el("button", { id: "clock-stop", onclick: () => clockAction("stop"), text: t("ev.clockStop") })),
    el("div", { class: "row" }, ...[0, 1].map((seat) => el("button", { id: `clock-ext-${seat}`, disabled: !clock.extensions[seat], onclick: () => clockAction("extend", seat),
      text: tf("ev.extension", { name: names[seat], n: clock.extensions[seat] }) }))));
}

function render() {
  const main = $("scorer");
  main.replaceChildren();
  $("title").textContent = view ? `${view.event.name} · ${tf("ev.tableN", { table: TABLE })}` : tf("ev.tableN", { table: TABLE });
  $("queue").textContent = queue.length ? tf(online ? "ev.sending" : "ev.queued", { n: queue.length }) : online ? t("ev.allSent") : t("ev.offline");
  if (message) main.append(el("p", { class: "bad", id: "message", text: message }));
  if (!view) return;
  const m = predicted();
  if (!m) {
    const next = view.next;
    main.append(el("section", {}, el("h2", { text: t("ev.noMatch") }),
      next ? el("p", { text: tf("ev.nextHere", { a: sideName(next, 0), b: sideName(next, 1) }) }) : null,
      view.previous ? el("p", { class: "small", text: tf("ev.lastResult", { a: sideName(view.previous, 0), b: sideName(view.previous, 1), score: `${view.previous.score[0]}-${view.previous.score[1]}` }) }) : null));
  } else {
    main.append(scoreline(m));
    if (!m.mode) main.append(startSection(m));
    else if (m.mode === "quick") main.append(quickSection(m));
    else if (m.mode === "shots") main.append(shotsSection(m));
  }
  const section = clockSection(m);
  if (section) main.append(section);
}

setupLanguage($("lang"), render);
if (!EVENT || !TABLE || !TOKEN) $("status").textContent = t("ev.badTableLink");
else { refresh(); setInterval(() => { if (!sending) refresh(); }, 2000); }
window.addEventListener("online", flush);
window.nbQueue = () => queue;
