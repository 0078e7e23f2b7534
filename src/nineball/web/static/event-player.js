// A player's own page (/event/player#e=<event>&p=<number>): where and against whom they play now
// or next, their results, and where they finished. Without a player it lists the players.
import { $, el, getJSON, hashParams, raceText, roundName, setupLanguage, sideName, standingText, t, tf } from "./event-common.js";

const params = hashParams();
const EVENT = params.get("e");
let data = null;
let players = null;

function opponent(m, number) {
  const slot = m.sides[0] && m.sides[0].number === Number(number) ? 1 : 0;
  return { slot: 1 - slot, name: sideName(m, slot) };
}

function render() {
  const main = $("player");
  main.replaceChildren();
  if (!params.get("p")) {
    if (!players) return;
    $("title").textContent = players.event.name;
    main.append(el("section", {}, el("h2", { text: t("ev.players") }),
      el("ul", {}, ...players.players.map((p) => el("li", {}, el("a", { href: `#e=${EVENT}&p=${p.number}`, onclick: () => setTimeout(() => location.reload()), text: p.name }))))));
    return;
  }
  if (!data) return;
  $("title").textContent = `${data.player.name} · ${data.event.name}`;
  const matches = data.matches;
  const now = matches.find((m) => m.key === data.now);
  const next = matches.find((m) => m.key === data.next);
  const section = el("section", { id: "now" });
  if (data.place) section.append(el("p", { class: "now", text: tf("ev.finished", { place: data.place }) }));
  else if (now) section.append(el("p", { class: "now", text: tf(now.standing === "called" ? "ev.calledTo" : "ev.playingAt", { table: now.table, name: opponent(now, data.player.number).name }) }), el("p", { class: "small", text: `${now.key} · ${roundName(now)} · ${raceText(now)}` }));
  else if (next) {
    section.append(el("p", { class: "now", text: tf("ev.nextAgainst", { name: opponent(next, data.player.number).name }) }));
    section.append(el("p", { class: "small", text: next.standing === "ready" ? tf("ev.queuePlace", { n: data.queue }) : t("ev.standing.waiting") }));
  } else section.append(el("p", { class: "now", text: data.event.started ? t("ev.noMoreMatches") : t("ev.notStarted") }));
  main.append(section);
  const list = el("ul", {});
  for (const m of matches) {
    const other = opponent(m, data.player.number);
    const mine = 1 - other.slot;
    const score = m.standing === "done" ? ` ${m.score[mine]}-${m.score[other.slot]} ${m.winner === mine ? t("ev.won") : t("ev.lost")}` : ` · ${standingText(m)}`;
    list.append(el("li", {}, el("b", { text: other.name }), el("span", { text: score }), el("span", { class: "small", text: ` · ${m.key} · ${roundName(m)}` })));
  }
  main.append(el("section", {}, el("h2", { text: t("ev.yourMatches") }), list));
}

async function tick() {
  try {
    if (params.get("p")) data = await getJSON(`/api/events/${EVENT}/players/${params.get("p")}`);
    else players = await getJSON(`/api/events/${EVENT}`);
    $("status").textContent = "";
    render();
  } catch (error) { $("status").textContent = String(error.message || error); }
  setTimeout(tick, 3000);
}

setupLanguage($("lang"), render);
if (EVENT) tick(); else $("status").textContent = t("ev.noEvent");
