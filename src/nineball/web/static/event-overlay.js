// The stream overlay of a table (/event/overlay#e=<event>&t=<table>&lang=fr): a transparent page
// for a browser source in streaming software. The players, the score and the race, who breaks,
// the shot clock, the fouls in a row and the clause-12 warning; the chance of winning only when
// the server has one (a model and a known layout: see nineball.tournament.overlay), else nothing.
// It asks the server twice a second; ?sound=1 (or &sound=1 in the fragment) beeps the clock too.
import { $, getJSON, hashParams, setupLanguage, sideName, t, tf } from "./event-common.js";
import { setLang } from "./i18n.js";

const params = hashParams();
const EVENT = params.get("e");
const TABLE = Number(params.get("t"));
const SOUND = params.get("sound") === "1";
let data = null;
let clockAt = 0;
let beeped = null;

function fouls(n) {
  const span = document.createElement("span");
  span.className = "fouls";
  for (let i = 0; i < n; i++) span.append(document.createElement("i"));
  return span;
}

function render() {
  const m = data && data.match;
  $("overlay").hidden = !m;
  if (!m) return;
  $("o-event").textContent = `${data.event.name} · ${tf("ev.tableN", { table: TABLE })}`;
  for (const slot of [0, 1]) {
    const box = $(`o-p${slot}`);
    box.querySelector(".pname").textContent = sideName(m, slot);
    const meta = box.querySelector(".meta");
    meta.replaceChildren();
    const rating = m.sides[slot] && m.sides[slot].rating;
    if (rating !== null && rating !== undefined) meta.append(`${Math.round(rating)} `);
    if (m.fouls && m.fouls[slot]) meta.append(fouls(m.fouls[slot]));
    box.classList.toggle("breaking", m.mode !== null && m.breaker === slot);
    $(`o-s${slot}`).textContent = String(m.score[slot]);
  }
  $("o-race").replaceChildren();
  const race = document.createElement("b");
  race.textContent = m.races[0] === m.races[1] ? String(m.races[0]) : `${m.races[0]} / ${m.races[1]}`;
  $("o-race").append(t("ev.raceShort"), race);
  const warned = (m.warning || []).findIndex(Boolean);
  $("o-warning").hidden = warned < 0;
  if (warned >= 0) $("o-warning").textContent = tf("ev.warning", { name: sideName(m, warned) });
  const chance = m.win_probability;
  $("o-chance").hidden = !chance;
  if (chance) $("o-chance").textContent = tf("ev.chance", { a: Math.round(chance[0] * 100), b: Math.round(chance[1] * 100) });
  $("o-clock").hidden = !data.clock;
}

function beep(freq, seconds) {
  const Ctx = window.AudioContext;
  if (!SOUND || !Ctx) return;
  const audio = new Ctx(); const osc = audio.createOscillator();
  osc.frequency.value = freq; osc.connect(audio.destination); osc.start(); osc.stop(audio.currentTime + seconds);
}

setInterval(() => {
  if (!data || !data.clock) return;
  const c = data.clock;
  const left = c.running ? c.remaining - (performance.now() - clockAt) / 1000 : c.remaining;
  const whole = Math.ceil(left);
  $("o-clock").textContent = left > 0 ? `${whole} s` : t("ev.time");
  $("o-clock").classList.toggle("low", left <= 10);
  if (c.running && whole <= 10 && whole >= 0 && whole !== beeped) { beeped = whole; beep(whole ? 880 : 440, whole ? 0.1 : 0.7); }
}, 100);

async function tick() {
  try {
    data = await getJSON(`/api/events/${EVENT}/tables/${TABLE}`);
    clockAt = performance.now();
    window.nbOverlay = data;
    render();
  } catch { /* keep showing the last state: the stream must not flash */ }
  setTimeout(tick, 500);
}

setupLanguage(null, render);
if (params.get("lang")) setLang(params.get("lang"));
if (EVENT && TABLE) tick();
