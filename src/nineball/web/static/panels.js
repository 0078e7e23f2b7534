// The panels beside the table: the scoreboard, the referee, the history, the tray and the controls.
import { lang, t, tf } from "./i18n.js";
import { $, canShoot, canvas, COLOURS, myTurn, S } from "./state.js";
import { SHOT_COLOURS, shotLabel, shotTarget } from "./draw.js";
import { shoot, speed, trayDrag } from "./stroke.js";
import { foulTags, renderEndings } from "./endings.js";
import { renderChance } from "./chance.js";

// ------------------------------------------------------------------ panels

function ballChip(id) {
  const s = document.createElement("span");
  s.className = "ballchip"; s.textContent = id === 0 ? "" : String(id);
  s.style.background = COLOURS[id]; s.style.color = [2, 3, 4, 6, 7, 8].includes(id) ? "#fff" : "#000";
  return s;
}

function rulingText(r) {
  const fouls = r.fouls.map((f) => `${t(`foul.${f.code}`)} (${t("clause")} ${f.clause})`).join(", ");
  return { fouls, text: r.explanation[lang()] };
}

// The balls of this game that are down, as the referee has them (a respotted 9 is back on the
// table): in the order they went down on this page, then any the page did not see go down.
function pocketedNow(st) {
  const down = (id) => !st.on_table.includes(id);
  const seen = S.tray.filter(down);
  for (let id = 1; id <= 9; id++) if (down(id) && !seen.includes(id)) seen.push(id);
  return seen;
}

function refresh() {
  if (!S.state) return;
  const st = S.state;
  const sb = $("scoreboard"); sb.innerHTML = "";
  for (const seat of [0, 1]) {
    const d = document.createElement("div");
    d.className = `seat${st.to_act === seat && st.winner === null ? " active" : ""}`;
    d.dataset.seat = seat;
    const tags = [];
    if (st.breaker === seat) tags.push(t("breaks"));
    if (st.to_act === seat && st.winner === null) tags.push(t("toAct"));
    d.innerHTML = `<b></b> <span class="num">${st.score[seat]}</span> <small>${tags.join(" · ")}</small> ${foulTags(st, seat)}`;
    d.querySelector("b").textContent = st.players[seat];
    sb.appendChild(d);
  }
  const info = document.createElement("div");
  info.id = "match-info";
  info.textContent = `${t("raceTo")} ${st.race_to} · ${t("game")} ${st.game}` + (st.lowest ? ` · ${t("lowest")} ${st.lowest}` : "");
  sb.appendChild(info);
  renderChance(sb, st);
  // referee
  const box = $("ruling"); box.innerHTML = "";
  if (S.ruling) {
    const { fouls, text } = rulingText(S.ruling);
    const head = document.createElement("div");
    const conceded = !fouls && S.ruling.game_over && S.ruling.game_over.reason === "forfeit";
    head.className = fouls ? "fouls" : conceded ? "conceded" : "legal";
    head.textContent = fouls ? tf("labelled", { label: t("foul"), text: fouls }) : conceded ? t("conceded") : t("legal");
    const p = document.createElement("p"); p.id = "ruling-text"; p.textContent = text;
    box.append(head, p);
  } else {
    const p = document.createElement("p"); p.id = "ruling-text"; p.textContent = S.mode === "score" || st.phase !== "break" ? "" : t("noRuling"); box.append(p);
  }
  $("warning").hidden = !((S.ruling && S.ruling.warning) || (st.winner === null && st.consecutive_fouls[st.to_act] >= 2));
  if (st.winner !== null) {
    const p = document.createElement("p"); p.id = "match-over"; p.className = "legal";
    p.textContent = tf("labelled", { label: t("matchOver"), text: `${st.players[st.winner]} ${t("wins")} ${st.score[0]}–${st.score[1]}` });
    box.append(p);
  }
  // The ruling for screen readers (a polite live region): rewritten only when its words change,
  // so a refresh of the panels does not announce it again.
  const said = S.ruling || st.winner !== null
    ? [...box.children].map((el) => el.textContent.trim()).filter(Boolean).map((x) => (/[.!?]$/.test(x) ? x : `${x}.`)).join(" ")
    : "";
  if ($("ruling-live").textContent !== said) $("ruling-live").textContent = said;
  // history
  const ol = $("history"); ol.innerHTML = "";
  for (const r of S.history.slice().reverse()) {
    const li = document.createElement("li");
    const { fouls, text } = rulingText(r);
    li.textContent = `${t("game")} ${r.game} · ${st.players[r.shooter]}: ${fouls ? `[${fouls}] ` : ""}${text}`;
    ol.appendChild(li);
  }
  const tray = $("tray-balls"); tray.innerHTML = "";
  if (S.mode === "practice") { // every ball down is there, to be dragged back onto the table
    for (let id = 1; id <= 9; id++) {
      if (st.on_table.includes(id) || String(id) in S.layout) continue;
      const chip = ballChip(id); chip.dataset.ball = id; chip.classList.add("drag");
      chip.addEventListener("pointerdown", (ev) => trayDrag(ev, id));
      tray.appendChild(chip);
    }
    if (tray.children.length) { const hint = document.createElement("small"); hint.textContent = ` ${t("practiceTray")}`; tray.appendChild(hint); }
  } else for (const id of pocketedNow(st)) tray.appendChild(ballChip(id));
  const list = $("analysis-list"); list.innerHTML = "";
  if (S.analysis && S.analysis.shots) S.analysis.shots.forEach((shot, k) => {
    const li = document.createElement("li"); li.style.color = SHOT_COLOURS[k % SHOT_COLOURS.length];
    li.textContent = `${shotTarget(shot)} — ${shotLabel(shot, k).split(": ").slice(1).join(": ")}`;
    list.appendChild(li);
  });
  // hint line
  const hint = $("hint"); hint.className = "";
  if (S.mode === "replay") hint.textContent = "";
  else if (S.seats.length === 0) hint.textContent = t("spectator");
  else if (st.winner !== null) hint.textContent = "";
  else if (!myTurn()) hint.textContent = `${t("waiting")} ${st.players[st.to_act]}…`;
  else if (S.mode === "score") hint.textContent = "";
  else if (S.placeMsg) { hint.textContent = S.placeMsg; hint.className = S.placeOk ? "good" : "bad"; }
  else if (S.inHand) hint.textContent = st.cue_ball === "kitchen" ? t("inHandKitchen") : t("inHandAnywhere");
  else if (S.mode === "practice") hint.textContent = t("practiceHint");
  else hint.textContent = `${t("yourTurn")}, ${st.players[st.to_act]}. ${t("help")}`;
  updateControls();
  renderEndings();
  const dlg = $("choice");
  if (myTurn() && st.phase === "push_out_choice" && !S.anim && S.queue.length === 0) { if (!dlg.open) dlg.showModal(); }
  else if (dlg.open) dlg.close();
}

function updateControls() {
  const can = canShoot();
  $("btn-shoot").disabled = !can;
  const push = $("pushout");
  push.disabled = !(can && S.state && S.state.push_out_allowed);
  if (push.disabled) push.checked = false;
  const stepped = !!(S.anim && S.anim.paused); // Replay plays a stepped shot on
  $("btn-replay").disabled = !stepped && (!S.last || !!S.anim);
  $("btn-replay").textContent = t(stepped ? "playOn" : "replay");
  $("btn-step").disabled = !S.anim && !S.last;
  const practice = S.mode === "practice";
  $("btn-undo").hidden = !(practice || S.mode === "local" || S.mode === "score");
  $("btn-analysis").hidden = !practice;
  $("btn-forfeit").disabled = !(myTurn() && !S.anim);
  $("scorekeeper").hidden = S.mode !== "score";
  canvas.style.display = "block";
  document.body.classList.toggle("score", S.mode === "score");
  // A spectator sees the table, the scoreboard and the referee, and none of the controls.
  const watching = S.seats.length === 0 && S.mode !== "replay";
  document.body.classList.toggle("spectating", watching); $("spectating").hidden = !watching;
  for (const id of ["power", "elevation", "aid", "slow", "btn-undo", "btn-analysis"]) $(id).disabled = false;
  if (S.mode === "score") {
    $("controls").querySelectorAll("input,button").forEach((el) => { if (!["btn-undo", "btn-forfeit", "pushout"].includes(el.id)) el.disabled = true; });
    push.disabled = !(myTurn() && S.state.push_out_allowed);
  }
  $("power-out").textContent = `${speed().toFixed(1)} m/s`;
  $("elevation-out").textContent = `${$("elevation").value}°`;
}

export { ballChip, refresh, updateControls };
