// The history's past matches on the table: a stored match replayed shot by shot (Previous, Next,
// Play all, Close back to the live match), and the statistics by opponent. The replay tells the
// page which entry it shows ("replayat", {id, at}) and when it closes ("replayclose"): the
// review (review.js) follows it.
import { t, tf } from "./i18n.js";
import { $, layoutCanvas, S } from "./state.js";
import { refresh, updateControls } from "./panels.js";
import { join, status } from "./net.js";

// ------------------------------------------------------------------ the history dialog

// The words of an opponent: a person, or a computer level by its translated name.
function opponentName(name) { return name === "human" ? t("opponentHuman") : t(`levelName.${name}`); }

// A Replay button on each listed match, and the table of statistics by opponent.
function decorateHistory(stats) {
  const first = $("matches-table").querySelector("tr");
  if (first) first.appendChild(document.createElement("th"));
  for (const tr of $("matches-table").querySelectorAll("tr[data-match]")) {
    const td = document.createElement("td"); const button = document.createElement("button");
    button.className = "replay-match"; button.textContent = t("replay");
    button.addEventListener("click", () => startReplay(Number(tr.dataset.match)));
    td.appendChild(button); tr.appendChild(td);
  }
  const table = $("opponents-table");
  table.innerHTML = "";
  const head = document.createElement("tr");
  for (const key of ["opponent", "matchesWon", "gamesWon", "ballsPerInning", "fouls", "breakAndRuns"]) {
    const th = document.createElement("th"); th.textContent = t(key); head.appendChild(th);
  }
  table.appendChild(head);
  for (const row of stats.by_opponent ?? []) {
    const tr = document.createElement("tr"); tr.dataset.opponent = row.opponent;
    for (const v of [opponentName(row.opponent), `${row.matches_won}/${row.matches_played}`, `${row.games_won}/${row.games_played}`,
      row.balls_per_inning.toFixed(2), row.fouls, row.break_and_runs]) {
      const td = document.createElement("td"); td.textContent = String(v); tr.appendChild(td);
    }
    table.appendChild(tr);
  }
}

// ------------------------------------------------------------------ replay on the table

// The replay in progress: the match's entries, the one shown, whether all play on, and the live
// match to go back to.
const R = { on: false, id: null, shots: [], at: -1, all: false, live: null, timer: null };

// Replay stored match `id` on the table from its first entry; resolves to whether it could.
async function startReplay(id) {
  const res = await fetch(`/api/matches/${id}/replay`);
  const data = await res.json();
  if (!res.ok) { status(data.error); return false; }
  $("history-page").close();
  if (!R.on) R.live = S.match ? { match: S.match, token: S.token } : null;
  // Leave the live match while replaying (its news would cut the replay short); Close rejoins it.
  S.closedOnPurpose = true;
  if (S.ws) { const ws = S.ws; S.ws = null; ws.close(); }
  Object.assign(R, { on: true, id, shots: data.shots, at: -1, all: false });
  S.mode = "replay"; S.seats = []; S.queue = []; S.anim = null; S.pausing = false; S.last = null; S.analysis = null;
  S.remoteAim = null; S.rack = null; S.matchStats = null; S.tray = []; S.inHand = false; S.cue = null; S.pendingCue = null; S.chance = null;
  S.table = data.table; S.table.pockets = S.table.pockets ?? {}; layoutCanvas();
  document.body.classList.add("replaying");
  $("replay-bar").hidden = false;
  if (R.shots.length) show(0);
  else { S.layout = {}; S.history = []; S.ruling = null; bar(); }
  return true;
}

// Entry k of the replay on the table (the review's click), Play all stopped.
function replayEntry(k) {
  if (!R.on || k < 0 || k >= R.shots.length) return;
  R.all = false;
  show(k);
}

// Entry k on the table as a live shot is shown: the match as it stood before it while its
// stroke is animated (S.anim, replay set: the position is not taken from it), then its ruling
// and the state after it; an entry without a stroke (a choice, a concession) at once.
function show(k) {
  clearTimeout(R.timer);
  const shot = R.shots[k];
  R.at = k;
  S.layout = shot.layout ?? shot.start ?? S.layout;
  if (shot.trajectory) {
    S.state = k > 0 ? R.shots[k - 1].state : shot.state;
    S.ruling = k > 0 ? R.shots[k - 1].ruling : null; S.history = R.shots.slice(0, k).map((s) => s.ruling);
    S.anim = { msg: shot, t: 0, paused: false, replay: true };
    refresh(); bar();
    return;
  }
  S.anim = null;
  ruled();
  if (R.all) R.timer = setTimeout(playOn, 900);
}

// The ruling on the entry shown, and the match after it.
function ruled() {
  const shot = R.shots[R.at];
  S.state = shot.state; S.ruling = shot.ruling; S.history = R.shots.slice(0, R.at + 1).map((s) => s.ruling);
  refresh(); bar();
}

function playOn() {
  if (!R.on) return;
  if (R.at + 1 < R.shots.length) show(R.at + 1);
  else { R.all = false; bar(); }
}

// The bar above the table: which entry this is, and what may be done from here.
function bar() {
  const shot = R.shots[R.at];
  $("replay-title").textContent = shot
    ? tf("replayOf", { id: R.id, game: shot.game, n: R.at + 1, total: R.shots.length })
    : tf("replayEmpty", { id: R.id });
  $("replay-prev").disabled = R.at <= 0;
  $("replay-next").disabled = R.at + 1 >= R.shots.length;
  $("replay-all").disabled = R.all || R.at + 1 >= R.shots.length;
  document.dispatchEvent(new CustomEvent("replayat", { detail: { id: R.id, at: R.at } }));
}

document.addEventListener("replayend", (ev) => {
  if (!R.on || ev.detail !== R.shots[R.at]) return;
  ruled();
  if (R.all) R.timer = setTimeout(playOn, 500);
});

$("replay-prev").addEventListener("click", () => { R.all = false; if (R.at > 0) show(R.at - 1); });
$("replay-next").addEventListener("click", () => { R.all = false; if (R.at + 1 < R.shots.length) show(R.at + 1); });
$("replay-all").addEventListener("click", () => { R.all = true; if (!S.anim) playOn(); bar(); });
$("replay-close").addEventListener("click", closeReplay);

// The replay (and the review beside it) put away; returns the live match it interrupted.
function endReplay() {
  if (!R.on) return null;
  clearTimeout(R.timer);
  Object.assign(R, { on: false, shots: [], at: -1, all: false });
  S.anim = null; S.mode = null;
  document.body.classList.remove("replaying");
  $("replay-bar").hidden = true;
  document.dispatchEvent(new Event("replayclose"));
  const live = R.live; R.live = null;
  return live;
}

// Back to the live match (joined again: its position as it stands now), or to the lobby.
function closeReplay() {
  if (!R.on) return;
  const live = endReplay();
  if (live) { join(live.match, live.token); return; }
  S.state = null; S.table = null; S.layout = {}; S.history = []; S.ruling = null;
  updateControls();
  $("btn-new").click();
}

export { closeReplay, decorateHistory, endReplay, replayEntry, startReplay };
