// The sounds of a shot, synthesised in Web Audio from the server's events (no audio files): the
// cue tip on the stroke, ball-ball clicks, cushion thuds and the drop into a pocket, each as loud
// as the event's speed (m/s: the relative normal speed of an impact, the ball's speed into a
// cushion or a pocket, the cue ball's off the tip). They follow the animation's clock: scheduled
// a little ahead while it plays (its gaps stretched in slow motion), played as the animation
// reaches them when it steps, and never for a shot already past. The switch (#sound) is on by
// default and remembered in localStorage ("nineball.sound": "on" | "off").
import { $, RATE } from "./state.js";

const KEY = "nineball.sound";
const LOOKAHEAD = 0.1; // s of the page's clock scheduled ahead of the animation
const QUIET = 0.01; // a gain below this is not played (a touch, not a click)
// The speed (m/s) that plays at full gain, per kind: a hard break click, a firm rail.
const FULL = { stroke: 10, ball_ball: 7, cushion: 4, pocket: 3 };

let audio = null; // the AudioContext, made on the first need (and resumed on a gesture)
let master = null;
let noise = null; // one second of white noise, shared

// For the tests: every sound scheduled, {kind, gain, t (the event's time), at (the context's)}.
const scheduled = [];
window.nbSounds = scheduled;

function enabled() { return localStorage.getItem(KEY) !== "off"; }

function context() {
  if (audio) return audio;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  audio = new Ctx();
  const squash = audio.createDynamicsCompressor(); // a break's dozen clicks at once must not clip
  master = audio.createGain(); master.gain.value = 0.8;
  master.connect(squash); squash.connect(audio.destination);
  noise = audio.createBuffer(1, audio.sampleRate, audio.sampleRate);
  const data = noise.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  return audio;
}

// An envelope: up to `peak` in 2 ms, then an exponential fall with time constant `tau` (s).
function envelope(at, peak, tau) {
  const g = audio.createGain();
  g.gain.setValueAtTime(0, at);
  g.gain.linearRampToValueAtTime(peak, at + 0.002);
  g.gain.setTargetAtTime(0, at + 0.002, tau);
  g.connect(master);
  return g;
}

function tone(at, freq, endFreq, peak, tau) {
  const o = audio.createOscillator();
  o.frequency.setValueAtTime(freq, at);
  o.frequency.exponentialRampToValueAtTime(endFreq, at + 5 * tau);
  o.connect(envelope(at, peak, tau));
  o.start(at); o.stop(at + 6 * tau + 0.01);
}

function hiss(at, type, freq, q, peak, tau) {
  const src = audio.createBufferSource(); src.buffer = noise;
  const f = audio.createBiquadFilter(); f.type = type; f.frequency.value = freq; f.Q.value = q;
  src.connect(f); f.connect(envelope(at, peak, tau));
  src.start(at, Math.random() * 0.5); src.stop(at + 6 * tau + 0.01);
}

const VOICES = {
  stroke: (at, g) => { hiss(at, "bandpass", 1800, 1.2, g, 0.008); tone(at, 900, 600, 0.3 * g, 0.01); },
  ball_ball: (at, g) => { tone(at, 3200 + 600 * Math.random(), 2600, g, 0.012); hiss(at, "highpass", 4000, 0.7, 0.4 * g, 0.004); },
  cushion: (at, g) => { tone(at, 140, 70, g, 0.05); hiss(at, "lowpass", 500, 0.7, 0.5 * g, 0.03); },
  pocket: (at, g) => {
    hiss(at, "bandpass", 350, 2, g, 0.03); tone(at, 220, 150, 0.6 * g, 0.04);
    tone(at + 0.09, 160, 110, 0.5 * g, 0.06); // the ball knocks on the pocket's floor
  },
};

// How loud an event plays (0..1): its speed over the kind's full-scale speed, a little
// compressed (loudness grows slower than the impulse).
export function gainOf(event) {
  const full = FULL[event.kind];
  if (!full) return 0;
  const g = Math.min(1, (event.speed ?? 0) / full) ** 0.7;
  return event.kind === "pocket" ? Math.max(g, 0.3) : g; // a drop is always heard
}

function play(event, at) {
  const gain = gainOf(event);
  if (gain < QUIET) return;
  VOICES[event.kind](at, gain);
  scheduled.push({ kind: event.kind, gain, t: event.t, at });
}

// Called on every animation frame with the animation (or null): plays the events it has reached
// and schedules those due within the look-ahead. A new animation (a shot, a replay, a step from
// the start) begins at its first event.
export function soundFrame(anim) {
  if (!anim || !enabled()) { if (anim) anim.soundNext = Infinity; return; } // muted: skip the shot
  const events = anim.msg.trajectory?.events ?? [];
  if (anim.soundNext === undefined) anim.soundNext = 0;
  if (anim.soundNext >= events.length || !context()) return;
  const rate = anim.paused ? 0 : RATE * ($("slow").checked ? 0.2 : 1); // animation s per page s
  const horizon = anim.t + LOOKAHEAD * rate;
  const now = audio.currentTime + 0.01;
  while (anim.soundNext < events.length && events[anim.soundNext].t <= horizon) {
    const e = events[anim.soundNext++];
    if ((anim.t - e.t) / Math.max(rate, 1) > 0.5) continue; // long past (the tab slept): not late
    play(e, now + (rate > 0 ? Math.max(0, e.t - anim.t) / rate : 0));
  }
}

// The switch: on unless turned off, remembered; a gesture lets the browser start the audio.
const box = $("sound");
if (box) {
  box.checked = enabled();
  box.addEventListener("change", () => localStorage.setItem(KEY, box.checked ? "on" : "off"));
}
for (const type of ["pointerdown", "keydown"]) {
  document.addEventListener(type, () => { if (enabled() && context() && audio.state === "suspended") audio.resume(); });
}
