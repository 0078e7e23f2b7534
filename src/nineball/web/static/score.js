// The scorekeeper of a real table: what happened, entered by clicks on the table or ball buttons.
import { t, tf } from "./i18n.js";
import { $, ctx, RAIL, S, toPx } from "./state.js";
import { drawBall } from "./draw.js";
import { ballChip } from "./panels.js";
import { send } from "./net.js";

// ------------------------------------------------------------------ the scorekeeper's table

// Where the scorekeeper's balls are drawn: the cue ball in the kitchen, the others in a zigzag up
// the table; a pocketed ball in its pocket, a ball off the table on the wood.
function skHome() {
  const T = S.table; const out = { 0: [T.width / 2, T.head_string * 0.55] };
  (S.state ? S.state.on_table : []).forEach((id, k) => { out[id] = [T.width / 2 + (k % 2 ? 0.16 : -0.16), T.head_string + 0.2 + k * 0.17]; });
  return out;
}
function skDrawn() {
  const out = {};
  for (const [id, pos] of Object.entries(skHome())) {
    const b = Number(id);
    if (sk.off.has(b)) out[b] = [-RAIL / 2, 0.25 + b * 0.22];
    else if (sk.pocketed.get(b)) out[b] = S.table.pockets[sk.pocketed.get(b)];
    else out[b] = pos;
  }
  return out;
}
function renderScore() {
  const drawn = skDrawn();
  if (sk.first !== null && drawn[0] && drawn[sk.first]) { // the cue ball's first contact
    const [a, b] = toPx(...drawn[0]); const [c, d] = toPx(...drawn[sk.first]);
    ctx.strokeStyle = "#ffd36b"; ctx.setLineDash([6, 6]); ctx.lineWidth = 2; ctx.beginPath(); ctx.moveTo(a, b); ctx.lineTo(c, d); ctx.stroke(); ctx.setLineDash([]);
  }
  for (const [ball, pt] of sk.rails) if (pt) drawBall(ball, ...pt, 0.55, "#ffffff");
  for (const [id, pos] of Object.entries(drawn)) {
    const b = Number(id);
    let ring = null;
    if (b === sk.first) ring = "#ffd36b";
    if (sk.off.has(b)) ring = "#ff3b3b";
    if (sk.pocketed.has(b) && !sk.pocketed.get(b)) ring = "#000000";
    if (b === sk.sel) ring = "#4fc3ff";
    drawBall(b, ...pos, sk.pocketed.get(b) ? 0.8 : 1, ring);
  }
}
function skBallAt(p) {
  const R = S.table.radius; let best = null; let dist = 1.8 * R;
  for (const [id, [x, y]] of Object.entries(skDrawn())) { const d = Math.hypot(x - p[0], y - p[1]); if (d < dist) { dist = d; best = Number(id); } }
  return best;
}
function pocketAt(p) {
  for (const [name, [x, y]] of Object.entries(S.table.pockets)) if (Math.hypot(x - p[0], y - p[1]) < 0.09) return name;
  return null;
}
function cushionAt(p) { // a click on a cushion (or the wood behind it), snapped onto the cushion
  const T = S.table; const m = 0.04; const [x, y] = p;
  if (x < -RAIL || x > T.width + RAIL || y < -RAIL || y > T.length + RAIL) return null;
  if (x > m && x < T.width - m && y > m && y < T.length - m) return null;
  const d = [[x, [0, y]], [T.width - x, [T.width, y]], [y, [x, 0]], [T.length - y, [x, T.length]]].sort((a, b) => a[0] - b[0]);
  return d[0][1];
}
function skTool() { return document.querySelector("input[name=sk-tool]:checked").value; }
function skClick(p) {
  const tool = skTool(); const ball = skBallAt(p);
  sk.msg = "";
  if (tool === "first") {
    if (ball !== null && ball !== 0) sk.first = sk.first === ball ? null : ball;
  } else if (tool === "off") {
    if (ball !== null) { if (sk.off.has(ball)) sk.off.delete(ball); else { sk.off.add(ball); sk.pocketed.delete(ball); } }
  } else if (tool === "pocket") {
    const pocket = pocketAt(p);
    if (ball !== null && sk.pocketed.has(ball)) { sk.pocketed.delete(ball); sk.sel = null; }
    else if (ball !== null) sk.sel = sk.sel === ball ? null : ball;
    else if (pocket !== null && sk.sel === null) sk.msg = t("pickBall");
    else if (pocket !== null) { sk.pocketed.set(sk.sel, pocket); sk.off.delete(sk.sel); sk.sel = null; }
  } else { // rail
    const cushion = cushionAt(p);
    if (ball !== null && sk.sel === ball && sk.rails.has(ball)) { sk.rails.delete(ball); sk.sel = null; }
    else if (ball !== null) sk.sel = ball;
    else if (cushion !== null && sk.sel === null) sk.msg = t("pickBall");
    else if (cushion !== null) { sk.rails.set(sk.sel, cushion); sk.sel = null; }
  }
  renderScorekeeper();
}
window.nbScoreSpots = () => ({ balls: skDrawn(), pockets: S.table.pockets });

// ------------------------------------------------------------------ scorekeeper

// What the scorekeeper entered: by clicks on the table or with the ball buttons, the same facts.
const sk = { first: null, pocketed: new Map(), rails: new Map(), off: new Set(), sel: null, msg: "" };
function renderScorekeeper() {
  for (const [key, multi] of [["first", false], ["pocketed", true], ["rails", true], ["off", true]]) {
    const row = $(`sk-${key}`); row.innerHTML = "";
    for (let id = 0; id <= 9; id++) {
      if (id > 0 && S.state && !S.state.on_table.includes(id)) continue;
      if (key === "first" && id === 0) continue;
      const chip = ballChip(id);
      if (id === 0) chip.textContent = t("scratch")[0];
      chip.dataset.ball = id;
      const on = multi ? sk[key].has(id) : sk[key] === id;
      if (on) chip.classList.add("on");
      chip.addEventListener("click", () => {
        if (!multi) sk[key] = sk[key] === id ? null : id;
        else if (sk[key].has(id)) sk[key].delete(id);
        else if (key === "off") { sk.off.add(id); sk.pocketed.delete(id); }
        else { sk[key].set(id, null); if (key === "pocketed") sk.off.delete(id); }
        renderScorekeeper();
      });
      row.appendChild(chip);
    }
  }
  $("sk-help").textContent = sk.msg || t(`help.${skTool()}`);
  $("sk-help").className = sk.msg ? "small bad" : "small";
  const list = (ids, f = String) => { const all = [...ids].sort((a, b) => a - b); return all.length ? all.map(f).join(", ") : "—"; };
  const parts = [
    tf("labelled", { label: t("first"), text: sk.first === null ? t("nothingHit") : sk.first }),
    tf("labelled", { label: t("pocketedBalls"), text: list(sk.pocketed.keys(), (b) => (sk.pocketed.get(b) ? `${b} ${t("pocketIn")} ${t(`pocket.${sk.pocketed.get(b)}`)}` : String(b))) }),
    tf("labelled", { label: t("rails"), text: list(sk.rails.keys()) }),
    tf("labelled", { label: t("offTable"), text: list(sk.off) }),
  ];
  if ($("sk-obstruction").checked) parts.push(`${t("obstructionShort")} (${t("clause")} 11)`);
  $("sk-summary").textContent = parts.join(" · ");
}
function clearScorekeeper() {
  sk.first = null; sk.pocketed.clear(); sk.rails.clear(); sk.off.clear(); sk.sel = null; sk.msg = "";
  $("sk-obstruction").checked = false;
  document.querySelector("input[name=sk-tool][value=first]").checked = true; // the next shot starts at its first contact
  renderScorekeeper();
}
$("sk-submit").addEventListener("click", () => {
  send({ type: "facts", first: sk.first, pocketed: [...sk.pocketed.keys()], rails: [...sk.rails.keys()], off_table: [...sk.off], push_out: $("pushout").checked, obstruction_moved: $("sk-obstruction").checked });
  clearScorekeeper();
});
$("sk-clear").addEventListener("click", clearScorekeeper);
$("sk-obstruction").addEventListener("change", renderScorekeeper);
document.querySelectorAll("input[name=sk-tool]").forEach((r) => r.addEventListener("change", () => { sk.sel = null; sk.msg = ""; renderScorekeeper(); }));

export { clearScorekeeper, renderScore, renderScorekeeper, skClick };
