// The lobby (a new match) and the history of matches with their statistics.
import { lang, t, tf } from "./i18n.js";
import { $, params } from "./state.js";
import { join, status } from "./net.js";
import { rememberLinks, showLinks } from "./links.js";
import { decorateHistory, endReplay } from "./history.js";
import { addReviewButtons } from "./review.js";

// ------------------------------------------------------------------ lobby and history

// The default names (the placeholders) in the current language: "Player 1" ("Joueur 1", "Gracz 1")
// and, against the computer, "Computer" ("Ordinateur", "Komputer"); the level select only against
// the computer. A name is the subject of the referee's sentences ("Player 1 keeps shooting"), so a
// default is never a pronoun ("You keeps shooting" reads wrong in every language).
function names() {
  const m = $("lobby").querySelector("input[name=mode]:checked").value;
  $("name0").placeholder = t("player1");
  $("name1").placeholder = m === "computer" ? t("computer") : t("player2");
  $("level-row").hidden = m !== "computer";
}
$("lobby").querySelectorAll("input[name=mode]").forEach((r) => r.addEventListener("change", names));
document.addEventListener("langchange", names);

// The lobby's own language select: the lobby is modal, so the header's (in the menu) cannot be
// reached while it is open. It offers the header's languages; picking here picks in the header's,
// which switches and saves.
$("lobby-lang").innerHTML = $("lang").innerHTML;
$("lobby-lang").addEventListener("change", (ev) => {
  $("lang").value = ev.target.value;
  $("lang").dispatchEvent(new Event("change"));
});
document.addEventListener("langchange", () => { $("lobby-lang").value = lang(); });

async function openLobby() {
  const lobby = $("lobby");
  const { levels, rules } = await (await fetch("/api/levels")).json();
  // Each computer player by its translated name, its rating on the ladder and what it plays.
  const chosen = $("level").value;
  $("level").innerHTML = "";
  for (const level of levels) {
    const o = document.createElement("option");
    o.value = level.name; o.dataset.rating = level.rating ?? "";
    $("level").appendChild(o);
  }
  const known = levels.map((l) => l.name);
  $("level").value = known.includes(chosen) ? chosen : known.includes("club") ? "club" : known[0];
  levelWords();
  // The rule profiles are the server's (the first is the default), each named by the catalogs.
  $("rules").innerHTML = rules.map((r) => `<option value="${r}" data-i18n="rules.${r}">${t(`rules.${r}`)}</option>`).join("");
  names();
  const last = localStorage.getItem("nineball.last");
  $("lobby-continue").hidden = !last;
  $("lobby-continue").onclick = () => { const { match, token } = JSON.parse(last); lobby.close(); location.hash = `m=${match}&t=${token ?? ""}`; join(match, token); };
  lobby.showModal();
}

// The words of the level select in the current language: "Club (rating 373): plays position...".
function levelWords() {
  for (const o of $("level").options) {
    o.textContent = tf("levelOption", {
      name: t(`levelName.${o.value}`), rating: o.dataset.rating || "–", description: t(`levelDesc.${o.value}`),
    });
  }
}
document.addEventListener("langchange", levelWords);

$("lobby-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const lobby = $("lobby");
  const mode = lobby.querySelector("input[name=mode]:checked").value;
  const body = {
    mode, race_to: Number($("race").value) || 3, level: $("level").value || "ghost",
    first_breaker: Number($("breaker").value), breaks: $("breaks").value, rules: $("rules").value,
    players: [$("name0").value.trim() || $("name0").placeholder, $("name1").value.trim() || $("name1").placeholder],
  };
  if (params.get("seed")) body.seed = Number(params.get("seed"));
  if (await startMatch(body)) lobby.close();
});

// A new match from a body of POST /api/matches (the lobby's, or a rematch's): join it.
async function startMatch(body) {
  const mode = body.mode;
  const res = await fetch("/api/matches", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) { status(data.error); return false; }
  const token = data.tokens["0"] ?? data.tokens.both;
  localStorage.setItem("nineball.last", JSON.stringify({ match: data.match, token }));
  history.replaceState(null, "", `${location.pathname}${location.search}#m=${data.match}&t=${token}`);
  endReplay(); // a replay left open (and its review) gives way to the new match
  join(data.match, token);
  if (mode === "network") { rememberLinks(data.match, data.tokens); showLinks(data.match, data.base); }
  return true;
}

$("btn-new").addEventListener("click", openLobby);
$("btn-history").addEventListener("click", async () => {
  const [m, s] = await Promise.all([fetch("/api/matches").then((r) => r.json()), fetch("/api/stats").then((r) => r.json())]);
  const mt = $("matches-table");
  mt.innerHTML = `<tr><th>#</th><th>${t("players")}</th><th>${t("score")}</th><th>${t("raceTo")}</th><th></th></tr>`;
  for (const x of m.matches.slice(0, 50)) {
    const tr = document.createElement("tr"); tr.dataset.match = x.id;
    for (const v of [x.id, x.players.join(" – "), x.score.join("–"), x.race_to, x.winner === null ? "…" : tf("won", { name: x.players[x.winner] })]) {
      const td = document.createElement("td"); td.textContent = String(v); tr.appendChild(td);
    }
    mt.appendChild(tr);
  }
  const st = $("stats-table");
  st.innerHTML = `<tr><th>${t("players")}</th><th>${t("gamesWon")}</th><th>${t("ballsPerInning")}</th><th>${t("fouls")}</th><th>${t("breakAndRuns")}</th></tr>`;
  for (const p of s.players) {
    const tr = document.createElement("tr");
    for (const v of [p.name, `${p.games_won}/${p.games_played}`, p.balls_per_inning.toFixed(2), p.fouls, p.break_and_runs]) {
      const td = document.createElement("td"); td.textContent = String(v); tr.appendChild(td);
    }
    st.appendChild(tr);
  }
  $("charts").innerHTML = barChart(s.players.slice(0, 12), (p) => p.games_won, t("gamesWon")) + barChart(s.players.slice(0, 12), (p) => p.balls_per_inning, t("ballsPerInning"));
  decorateHistory(s);
  addReviewButtons();
  $("history-page").showModal();
});

function esc(s) { return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]); }
function barChart(rows, value, title) {
  const w = 320; const bh = 18; const max = Math.max(1e-9, ...rows.map(value));
  const bars = rows.map((p, i) => {
    const v = value(p); const len = (v / max) * (w - 130);
    return `<text x="0" y="${i * bh + 30}" fill="#ddd" font-size="12">${esc(p.name).slice(0, 14)}</text>` +
      `<rect x="100" y="${i * bh + 18}" width="${len}" height="${bh - 4}" fill="#2f9d5d"></rect>` +
      `<text x="${104 + len}" y="${i * bh + 30}" fill="#ddd" font-size="12">${Number.isInteger(v) ? v : v.toFixed(2)}</text>`;
  }).join("");
  return `<svg class="chart" width="${w}" height="${rows.length * bh + 26}"><text x="0" y="12" fill="#fff" font-size="13">${esc(title)}</text>${bars}</svg>`;
}

export { openLobby, startMatch };
