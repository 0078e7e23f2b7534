// The live board of an event (/event/board#e=<id>): who plays where now, who is next, the
// results and the bracket. It asks the server every second whether anything changed (the event's
// revision) and draws everything again from the answer.
import { $, el, hashParams, poll, raceText, roundName, setupLanguage, sideName, standingText, t, tf } from "./event-common.js";

const event = hashParams().get("e");
let board = null;

function matchBox(m) {
  const box = el("div", { class: `match ${m.standing}`, "data-key": m.key },
    el("div", { class: "mhead" }, el("span", { class: "key", text: m.key }),
      m.table && !["done"].includes(m.standing) ? el("span", { class: "badge", text: tf("ev.tableN", { table: m.table }) }) : null));
  for (const slot of [0, 1]) {
    const won = m.winner === slot;
    box.append(el("div", { class: `side${won ? " won" : ""}${m.winner !== null && !won ? " lost" : ""}` },
      el("span", { class: "name", text: sideName(m, slot) }),
      el("span", { class: "num", text: m.standing === "done" || m.standing === "playing" ? String(m.score[slot]) : "" })));
  }
  return box;
}

function tablesSection() {
  const grid = el("div", { class: "tables" });
  for (const entry of board.tables) {
    const m = entry.match ? board.matches.find((x) => x.key === entry.match) : null;
    const card = el("div", { class: `table-card${m ? "" : " free"}`, "data-table": entry.table },
      el("h3", { text: tf("ev.tableN", { table: entry.table }) }));
    if (!m) { card.append(el("p", { class: "small", text: t("ev.free") })); grid.append(card); continue; }
    card.append(
      el("div", { class: "versus" },
        el("span", { class: "name", text: sideName(m, 0) }), el("span", { class: "score", text: `${m.score[0]} - ${m.score[1]}` }),
        el("span", { class: "name", text: sideName(m, 1) })),
      el("p", { class: "small", text: `${m.key} · ${roundName(m)} · ${raceText(m)} · ${standingText(m)}` }));
    grid.append(card);
  }
  return el("section", {}, el("h2", { text: t("ev.tablesNow") }), grid);
}

function nextSection() {
  const list = el("ol", { class: "next" });
  for (const key of board.up_next) {
    const m = board.matches.find((x) => x.key === key);
    list.append(el("li", {}, `${sideName(m, 0)} – ${sideName(m, 1)}`, el("span", { class: "small", text: ` ${m.key} · ${t("ev.nextFreeTable")}` })));
  }
  const waiting = board.matches.filter((m) => m.standing === "waiting" && m.sides.some((s) => s && s.name)).slice(0, 6);
  for (const m of waiting) {
    list.append(el("li", { class: "waiting" }, `${sideName(m, 0)} – ${sideName(m, 1)}`, el("span", { class: "small", text: ` ${m.key} · ${t("ev.standing.waiting")}` })));
  }
  if (!list.children.length) list.append(el("li", { class: "small", text: t("ev.nothingNext") }));
  return el("section", {}, el("h2", { text: t("ev.upNext") }), list);
}

// The bracket: one column a round, the losers' bracket under the winners', the finals after.
function bracketSection() {
  const section = el("section", { class: "bracket-wrap" }, el("h2", { text: t("ev.bracket") }));
  const stages = [["winners", "ev.winnersBracket"], ["knockout", "ev.knockout"], ["losers", "ev.losersBracket"]];
  for (const [stage, title] of stages) {
    const matches = board.matches.filter((m) => m.stage === stage);
    if (!matches.length) continue;
    const rounds = [...new Set(matches.map((m) => m.round))].sort((a, b) => a - b);
    const row = el("div", { class: "bracket", "data-stage": stage });
    for (const round of rounds) {
      const column = el("div", { class: "round" }, el("div", { class: "small", text: tf(`ev.stage.${stage}`, { round }) }));
      for (const m of matches.filter((x) => x.round === round)) column.append(matchBox(m));
      row.append(column);
    }
    if (stage === "winners") {
      const finals = board.matches.filter((m) => m.stage === "final" || (m.stage === "reset" && m.standing !== "void"));
      if (finals.length) row.append(el("div", { class: "round" }, el("div", { class: "small", text: t("ev.final") }), ...finals.map(matchBox)));
    }
    section.append(el("h3", { text: t(title) }), row);
  }
  if (board.groups.length) {
    const wrap = el("div", { class: "groups" });
    board.groups.forEach((lines, index) => {
      const table = el("table", { class: "standings" },
        el("tr", {}, ...["#", t("ev.player"), t("ev.played"), t("ev.won"), t("ev.racks")].map((h) => el("th", { text: h }))));
      lines.forEach((line, place) => table.append(el("tr", {},
        el("td", { text: String(place + 1) }), el("td", { text: line.name }), el("td", { text: String(line.played) }),
        el("td", { text: String(line.won) }), el("td", { text: `${line.games_won}-${line.games_lost}` }))));
      wrap.append(el("div", {}, el("h3", { text: board.groups.length > 1 ? tf("ev.group", { group: index + 1 }) : t("ev.standings") }), table));
    });
    section.append(wrap);
  }
  return section;
}

function resultsSection() {
  const done = board.matches.filter((m) => m.standing === "done").sort((a, b) => (b.finished || "").localeCompare(a.finished || "")).slice(0, 12);
  const list = el("ul", { class: "results" });
  for (const m of done) list.append(el("li", {}, el("b", { text: sideName(m, m.winner) }), ` ${m.score[m.winner]}-${m.score[1 - m.winner]} ${sideName(m, 1 - m.winner)}`, el("span", { class: "small", text: ` · ${m.key}` })));
  const section = el("section", {}, el("h2", { text: t("ev.results") }), list);
  if (board.placings.length) {
    const places = el("ol", { class: "placings" });
    for (const p of board.placings) places.append(el("li", {}, el("b", { text: `${p.place}. ` }), p.name));
    section.append(el("h2", { text: t("ev.placings") }), places);
  }
  return section;
}

function render() {
  if (!board) return;
  const e = board.event;
  $("title").textContent = e.name;
  $("subtitle").textContent = `${e.date} · ${t(`ev.format.${e.format}`)} · ${tf("ev.raceTo", { race: e.race_to })}${e.handicap ? ` · ${t("ev.handicapped")}` : ""}`;
  const main = $("board");
  main.replaceChildren();
  if (!e.started) {
    main.append(el("section", {}, el("h2", { text: t("ev.notStarted") }),
      el("ul", {}, ...board.players.map((p) => el("li", { text: p.name })))));
    return;
  }
  main.append(el("div", { class: "top" }, tablesSection(), nextSection()), bracketSection(), resultsSection());
}

setupLanguage($("lang"), render);
if (!event) $("status").textContent = t("ev.noEvent");
else poll(`/api/events/${event}`, 1000, (data) => { board = data; render(); window.nbBoard = data; },
  (error) => { $("status").textContent = error ? t("ev.offline") : ""; });
