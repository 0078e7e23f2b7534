// The live chances: each player's chance to win the game in progress, and the match, as the
// server's learned model values the position after every entry (the messages' "chance"; null
// when there is nothing to value). A slim bar along the scoreboard, each player's share in their
// colour, and the figures beside the names; a switch in the header hides them, remembered.
import { t, tf } from "./i18n.js";
import { $, S } from "./state.js";

const KEY = "nineball.chances";

function shown() { return $("chances").checked; }
function applySwitch() { document.body.classList.toggle("no-chances", !shown()); }
$("chances").checked = localStorage.getItem(KEY) !== "off";
$("chances").addEventListener("change", () => { localStorage.setItem(KEY, shown() ? "on" : "off"); applySwitch(); });
applySwitch();

function pct(p) { return `${Math.round(p * 100)}%`; }

// The chances on the scoreboard `sb` (just drawn by refresh() for the state `st`): nothing while
// a past match is replayed or when the server sent none.
function renderChance(sb, st) {
  const c = S.mode === "replay" ? null : S.chance;
  sb.classList.toggle("with-chance", !!c);
  if (!c) return;
  const [p0, p1] = c.game; const [m0, m1] = c.match;
  for (const seat of [0, 1]) {
    const span = document.createElement("span");
    span.className = `chance p${seat}`; span.textContent = pct(c.game[seat]);
    sb.querySelector(`.seat[data-seat="${seat}"]`)?.append(" ", span);
  }
  const words = tf("chanceLabel", { a: st.players[0], b: st.players[1], pa: pct(p0), pb: pct(p1), ma: pct(m0), mb: pct(m1) });
  const bar = document.createElement("div");
  bar.id = "chance-bar"; bar.setAttribute("role", "img"); bar.setAttribute("aria-label", words); bar.title = words;
  const fill = document.createElement("div"); fill.className = "p0"; fill.style.width = `${(p0 * 100).toFixed(1)}%`;
  bar.append(fill);
  sb.append(bar);
  if (st.race_to > 1) { // a race to one: the match is the game
    const match = document.createElement("span");
    match.id = "chance-match"; match.textContent = tf("chanceMatch", { ma: pct(m0), mb: pct(m1) }); match.title = t("chances");
    sb.append(match);
  }
}

export { renderChance };
