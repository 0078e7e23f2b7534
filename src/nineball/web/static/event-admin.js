// The organiser's page (/event/admin): a new event, then (#e=<event>&k=<token>) its players, the
// start, the links of the board, each table's scorer and overlay (with QR codes for the phones),
// the matches (a match given to a player who is there when the other is not), the results as CSV,
// the scoresheets and the report. The organiser's token stays in the fragment and in this
// browser's storage, and goes to the server only in request bodies.
import { $, el, getJSON, hashParams, postJSON, roundName, setupLanguage, sideName, standingText, t, tf } from "./event-common.js";

let params = hashParams();
let EVENT = params.get("e");
let TOKEN = params.get("k") || (EVENT && localStorage.getItem(`nineball.event.${EVENT}.organiser`));
let board = null;
let links = null;

function status(text) { $("status").textContent = text || ""; }

async function act(path, body) {
  const reply = await postJSON(`/api/events/${EVENT}/${path}`, { token: TOKEN, ...body });
  if (!reply.ok) { status(reply.data.error || `HTTP ${reply.status}`); return null; }
  status("");
  if (reply.data.board) { board = reply.data.board; render(); }
  return reply.data;
}

function eventBody() {
  const clock = $("f-clock").checked ? { seconds: Number($("f-seconds").value), extension: Number($("f-extension").value), extensions: Number($("f-extensions").value) } : null;
  return {
    name: $("f-name").value, date: $("f-date").value, format: $("f-format").value, race_to: Number($("f-race").value),
    breaks: $("f-breaks").value, rules: $("f-rules").value, seeding: $("f-seeding").value, seed: Number($("f-seed").value),
    handicap: $("f-handicap").checked, three_foul_warning: $("f-warning").checked, shot_clock: clock,
    tables: Number($("f-tables").value), groups: Number($("f-groups").value), advance: Number($("f-advance").value),
  };
}

$("event-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const reply = await postJSON("/api/events", eventBody());
  if (!reply.ok) { status(reply.data.error); return; }
  localStorage.setItem(`nineball.event.${reply.data.id}.organiser`, reply.data.token);
  location.hash = `e=${reply.data.id}&k=${reply.data.token}`;
  location.reload();
});

$("player-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const rating = $("p-rating").value;
  if (await act("players", { name: $("p-name").value, rating: rating === "" ? null : Number(rating) })) { $("p-name").value = ""; $("p-rating").value = ""; $("p-name").focus(); }
});
$("start-event").addEventListener("click", async () => { if (await act("start", {})) await showLinks(); });
$("set-tables").addEventListener("click", async () => {
  const config = { ...board.event };
  const body = Object.fromEntries(["name", "date", "format", "race_to", "breaks", "rules", "refereed", "seeding", "seed", "handicap", "three_foul_warning", "shot_clock", "tables", "groups", "advance"].map((k) => [k, config[k]]));
  body.refereed = true; body.tables = Number($("tables-count").value);
  if (await act("settings", { config: body })) await showLinks();
});

function qr(url) {
  const img = el("img", { alt: url });
  fetch("/api/qr.svg", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ url }) })
    .then((r) => (r.ok ? r.blob() : null)).then((blob) => { if (blob) img.src = URL.createObjectURL(blob); });
  return img;
}

function linkCard(title, url, withQr) {
  return el("div", { class: "link" }, el("b", { text: title }), el("input", { readonly: true, value: url }), withQr ? qr(url) : null);
}

async function showLinks() {
  links = await act("links", {});
  if (!links) return;
  const base = (await getJSON("/api/base")).base;
  const box = $("links");
  box.replaceChildren(
    linkCard(t("ev.board"), `${base}/event/board#e=${EVENT}`, true),
    linkCard(t("ev.playerPages"), `${base}/event/player#e=${EVENT}`, true));
  for (const [table, token] of Object.entries(links.tables)) {
    box.append(linkCard(tf("ev.scorerOf", { table }), `${base}/event/table#e=${EVENT}&t=${table}&k=${token}`, true));
    box.append(linkCard(tf("ev.overlayOf", { table }), `${base}/event/overlay#e=${EVENT}&t=${table}`, false));
  }
}

function render() {
  $("new-event").hidden = Boolean(EVENT);
  if (!EVENT) return;
  if (!board) return;
  const e = board.event;
  $("title").textContent = `${e.name} · ${e.date}`;
  $("players-section").hidden = e.started;
  $("links-section").hidden = !e.started;
  $("matches-section").hidden = !e.started;
  $("tables-count").value = e.tables;
  const players = $("players");
  players.replaceChildren(el("tr", {}, el("th", { text: "#" }), el("th", { text: t("ev.name") }), el("th", { text: t("ev.rating") }), el("th", {})));
  for (const p of board.players) {
    players.append(el("tr", {}, el("td", { text: String(p.number) }), el("td", { text: p.name }), el("td", { text: p.rating === null ? "–" : String(p.rating) }),
      el("td", {}, el("button", { onclick: () => act("players/remove", { number: p.number }), text: t("ev.remove") }))));
  }
  $("csv").href = `/api/events/${EVENT}/results.csv`;
  const matches = $("matches");
  matches.replaceChildren();
  for (const m of board.matches.filter((x) => x.standing !== "walkover" && x.standing !== "void")) {
    const cells = [m.key, roundName(m), `${sideName(m, 0)} – ${sideName(m, 1)}`, m.standing === "done" ? `${m.score[0]}-${m.score[1]}` : standingText(m)];
    const row = el("tr", { "data-key": m.key }, ...cells.map((c) => el("td", { text: c })));
    const tools = el("td", {});
    if (m.standing === "done") tools.append(el("a", { href: `/api/events/${EVENT}/matches/${m.key}/scoresheet.pdf`, target: "_blank", text: t("ev.scoresheet") }));
    if (["ready", "called"].includes(m.standing)) {
      for (const slot of [0, 1]) {
        tools.append(el("button", { onclick: () => {
          if (!confirm(tf("ev.awardAsk", { name: sideName(m, slot) }))) return;
          const id = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
          act("entries", { table: null, entries: [{ id, match: m.key, seq: m.seq, kind: "award", winner: slot }] }).then(load);
        }, text: tf("ev.award", { name: sideName(m, slot) }) }));
      }
    }
    row.append(tools);
    matches.append(row);
  }
}

async function loadReport() {
  if (!board || !board.event.started) return;
  const report = await getJSON(`/api/events/${EVENT}/report`);
  const table = $("report");
  const heads = ["#", t("ev.player"), t("ev.matchesWon"), t("ev.racks"), t("ev.breaksLegal"), t("ev.ballsOnBreak"), t("ev.breakAndRuns"), t("ev.fouls"), t("ev.performance")];
  table.replaceChildren(el("tr", {}, ...heads.map((h) => el("th", { text: h }))));
  for (const p of report.players) {
    const fouls = Object.entries(p.fouls_by_clause).map(([clause, n]) => `${n}×${clause}`).join(" ");
    const perf = p.performance === null ? "–" : `${p.performance}${p.rating === null ? "" : ` (${p.performance >= p.rating ? "+" : ""}${Math.round(p.performance - p.rating)})`}`;
    table.append(el("tr", {}, ...[p.place ?? "", p.name, `${p.matches_won}/${p.matches_played}`, `${p.racks_won}/${p.racks_played}`,
      `${p.legal_breaks}/${p.breaks}`, String(p.balls_on_break), String(p.break_and_runs), fouls, perf].map((c) => el("td", { text: String(c) }))));
  }
}

async function load() {
  if (!EVENT) {
    const events = await getJSON("/api/events");
    $("event-list").replaceChildren(...events.events.map((e) => el("li", { text: `#${e.id} ${e.name} (${e.date})` })));
    return;
  }
  board = await getJSON(`/api/events/${EVENT}`);
  render();
  await loadReport();
}

setupLanguage($("lang"), render);
$("f-date").value = new Date().toISOString().slice(0, 10);
$("p-name").placeholder = t("ev.name");
$("p-rating").placeholder = t("ev.rating");
if (EVENT && TOKEN) localStorage.setItem(`nineball.event.${EVENT}.organiser`, TOKEN);
await load();
if (board && board.event.started) await showLinks();
setInterval(() => { if (EVENT) load().catch(() => status(t("ev.offline"))); }, 5000);
window.addEventListener("hashchange", () => location.reload());
