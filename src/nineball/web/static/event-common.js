// What the event pages share: the address's fragment, JSON requests, the language, and the words
// for a match (its round, a player not known yet). Every word comes from the "web" catalogs
// (keys "ev.*"); names are the players' own.
import { lang, LANGS, setLang, t, tf } from "./i18n.js";

// The fragment's fields: #e=<event>&t=<table>&k=<token>&p=<player>. Tokens live only here (and
// in request bodies): a fragment is never sent to a server.
export function hashParams() { return new URLSearchParams(location.hash.slice(1)); }

export const $ = (id) => document.getElementById(id);

// An element with attributes (a "text" attribute sets its text) and children.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

export async function getJSON(url) {
  const reply = await fetch(url, { cache: "no-store" });
  const data = await reply.json();
  if (!reply.ok) throw new Error(data.error || `HTTP ${reply.status}`);
  return data;
}

// A POST of JSON: {ok, status, data}; a network failure throws (the caller keeps the request).
export async function postJSON(url, body) {
  const reply = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  let data = {};
  try { data = await reply.json(); } catch { data = {}; }
  return { ok: reply.ok, status: reply.status, data };
}

// The language: remembered with the game page's ("nineball.lang"), switched by a <select>.
export function setupLanguage(select, onChange) {
  const saved = localStorage.getItem("nineball.lang");
  setLang(LANGS.includes(saved) ? saved : (navigator.language || "en").slice(0, 2));
  if (select) {
    select.value = lang();
    select.addEventListener("change", () => {
      setLang(select.value); localStorage.setItem("nineball.lang", select.value); onChange();
    });
  }
}

// "Winners' round 2", "Losers' round 1", "Final", "Group 2, round 3"...
export function roundName(m) {
  if (m.stage === "final") return t("ev.final");
  if (m.stage === "reset") return t("ev.reset");
  if (m.stage === "group") return m.group && m.key.startsWith("G") ? tf("ev.groupRound", { group: m.group, round: m.round }) : tf("ev.rrRound", { round: m.round });
  return tf(`ev.stage.${m.stage}`, { round: m.round });
}

// A slot's player, or where they will come from.
export function sideName(m, slot) {
  const side = m.sides[slot];
  if (side && side.bye) return t("ev.bye");
  if (side && side.name) return side.name;
  const source = m.sources[slot];
  if (source.kind === "winner") return tf("ev.winnerOf", { match: source.match });
  if (source.kind === "loser") return tf("ev.loserOf", { match: source.match });
  if (source.kind === "place") return tf("ev.placeOf", { group: source.group, place: source.place });
  return "?";
}

// "5 - 3" with the races when they differ: the score line of a match.
export function raceText(m) {
  return m.races[0] === m.races[1] ? tf("ev.raceTo", { race: m.races[0] }) : tf("ev.races", { a: m.races[0], b: m.races[1] });
}

export function standingText(m) {
  if (m.standing === "called" || m.standing === "playing") return tf(`ev.at.${m.standing}`, { table: m.table });
  return t(`ev.standing.${m.standing}`);
}

// Poll `url` every `ms`: `apply(data)` with each new answer (the revision tells what is new).
export function poll(url, ms, apply, onError) {
  let revision = null;
  let stopped = false;
  async function tick() {
    if (stopped) return;
    try {
      const sep = url.includes("?") ? "&" : "?";
      const data = await getJSON(revision === null ? url : `${url}${sep}since=${revision}`);
      if (!data.unchanged) { revision = data.event ? data.event.revision : data.revision; apply(data); }
      onError(null);
    } catch (error) { onError(error); }
    setTimeout(tick, ms);
  }
  tick();
  return { stop() { stopped = true; }, reset() { revision = null; } };
}

export { lang, t, tf };
