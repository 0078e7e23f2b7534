// Endings and flow: the rack-over card, the match-over screen (statistics, rematch), the foul
// count on the scoreboard (clause 12) and the confirmation before conceding a game.
import { t, tf } from "./i18n.js";
import { $, S } from "./state.js";
import { send } from "./net.js";
import { openLobby, startMatch } from "./lobby.js";

const fill = (text, vars) => text.replace(/\{(\w+)\}/g, (_, k) => String(vars[k] ?? ""));

// ------------------------------------------------------------------ taking the server's word

// A message from the server (a shot, a ruling or the state): a game or the match that ended.
function noteEndings(msg) {
  const snapshot = ["state", "update", "placed"].includes(msg.type); // the whole match as it stands
  if (msg.rack) S.rack = { ...msg.rack, ruling: msg.ruling ?? (S.history.length ? S.history[S.history.length - 1] : null) };
  else if (snapshot) S.rack = null;
  if (msg.match_stats) { S.matchStats = msg.match_stats; S.matchOverSeen = false; }
  else if (snapshot) S.matchStats = null;
  if (msg.rematch) S.rematch = msg.rematch;
  renderEndings();
}
// The next break hides the card.
function hideRack() { if (S.rack) { S.rack = null; renderEndings(); } }

// ------------------------------------------------------------------ the card and the screen

function figuresTable(rows, players) {
  const table = document.createElement("table");
  const head = document.createElement("tr"); head.append(document.createElement("th"));
  for (const name of players) { const th = document.createElement("th"); th.textContent = name; head.append(th); }
  table.append(head);
  for (const [label, cells] of rows) {
    const tr = document.createElement("tr");
    const th = document.createElement("th"); th.textContent = label; tr.append(th);
    for (const v of cells) { const td = document.createElement("td"); td.textContent = String(v); tr.append(td); }
    table.append(tr);
  }
  return table;
}

function renderRack() {
  const card = $("rack-card");
  const show = !!(S.rack && S.state && !S.anim && !S.matchStats);
  card.hidden = !show;
  if (!show) return;
  const st = S.state; const over = S.rack.ruling ? S.rack.ruling.game_over : null;
  const winner = over ? over.winner : null;
  $("rack-title").textContent = fill(t("rackTitle"), { n: S.rack.game, name: winner === null ? "" : st.players[winner] });
  $("rack-reason").textContent = over ? t(`reason.${over.reason}`) : "";
  $("rack-score").textContent = `${st.players[0]} ${st.score[0]}–${st.score[1]} ${st.players[1]}`;
  const p = S.rack.players;
  const body = $("rack-figures"); body.innerHTML = "";
  body.append(figuresTable([
    [t("rackBalls"), p.map((x) => x.balls_pocketed)],
    [t("rackFouls"), p.map((x) => x.fouls)],
    [t("rackInnings"), p.map((x) => x.innings)],
  ], st.players));
}

const STAT_ROWS = [
  ["games_won", "gamesWon"], ["balls_pocketed", "rackBalls"], ["innings", "rackInnings"],
  ["balls_per_inning", "ballsPerInning"], ["fouls", "rackFouls"], ["safeties", "stat.safeties"],
  ["push_outs", "stat.push_outs"], ["break_and_runs", "breakAndRuns"], ["run_outs", "stat.run_outs"],
  ["three_foul_losses", "stat.three_foul_losses"], ["forfeits", "stat.forfeits"],
];

function renderMatchOver() {
  const dlg = $("match-over-screen");
  const show = !!(S.matchStats && S.state && S.state.winner !== null && !S.anim && S.queue.length === 0 && !S.matchOverSeen);
  if (!show) { if (dlg.open) dlg.close(); return; }
  const st = S.state;
  $("mo-title").textContent = tf("labelled", { label: t("matchOver"), text: `${st.players[st.winner]} ${t("wins")} ${st.score[0]}–${st.score[1]}` });
  const rows = STAT_ROWS.map(([key, label]) => [t(label), S.matchStats.map((r) => r[key])]);
  rows.splice(8, 0, [t("stat.breaks"), S.matchStats.map((r) => `${r.breaks_with_a_ball}/${r.breaks}`)]);
  const box = $("mo-stats"); box.innerHTML = ""; box.append(figuresTable(rows, S.matchStats.map((r) => r.name)));
  $("mo-rematch").disabled = !S.rematch || S.seats.length === 0;
  if (!dlg.open) dlg.showModal();
}

function renderEndings() { renderRack(); renderMatchOver(); }

// ------------------------------------------------------------------ the scoreboard's fouls

// The consecutive fouls of a seat, and the warning when that player is at the table (clause 12).
function foulTags(st, seat) {
  const n = st.consecutive_fouls ? st.consecutive_fouls[seat] : 0;
  const out = [];
  if (n > 0) out.push(`<span class="foulcount" data-fouls="${n}">${fill(t("foulCount"), { n })}</span>`);
  if (n >= 2 && st.to_act === seat && st.winner === null) out.push(`<span class="warned">⚠ ${t("warnedTag")}</span>`);
  return out.join(" ");
}

// ------------------------------------------------------------------ the buttons

$("rack-close").addEventListener("click", () => { S.rack = null; renderEndings(); });
$("mo-close").addEventListener("click", () => { S.matchOverSeen = true; renderEndings(); });
$("mo-new").addEventListener("click", () => { S.matchOverSeen = true; renderEndings(); openLobby(); });
$("mo-rematch").addEventListener("click", async () => {
  if (!S.rematch) return;
  S.matchOverSeen = true; renderEndings();
  if (S.mode === "network") { send({ type: "rematch" }); return; } // the server moves both seats
  await startMatch({ ...S.rematch });
});
$("btn-forfeit").addEventListener("click", () => {
  if (!S.state) return;
  $("concede-text").textContent = fill(t("concedeText"), { name: S.state.players[S.state.to_act], n: S.state.game });
  $("concede").showModal();
});
$("concede-yes").addEventListener("click", () => { $("concede").close(); send({ type: "forfeit" }); });
$("concede-no").addEventListener("click", () => $("concede").close());

export { foulTags, hideRack, noteEndings, renderEndings };
