// The nineball page: draws the table to scale, takes the stroke, shows the referee.
// The entry module: it loads the others (each registers its own listeners) and starts the page.
import { positionAt } from "./anim.js";
import { lang, LANGS, setLang } from "./i18n.js";
import { $, S } from "./state.js";
import { tick } from "./play.js";
import { drawSpin } from "./stroke.js";
import { join, readHash } from "./net.js";
import { openLobby } from "./lobby.js";
import "./endings.js";
import "./layout.js";
import "./view3d.js";

// ------------------------------------------------------------------ start

setLang(LANGS.includes(localStorage.getItem("nineball.lang")) ? localStorage.getItem("nineball.lang") : (navigator.language || "en").slice(0, 2));
$("lang").value = lang();
drawSpin();
requestAnimationFrame(tick);
const target = readHash();
if (target) join(target.match, target.token || null);
else openLobby();
window.addEventListener("hashchange", () => { const h = readHash(); if (h && h.match !== S.match) join(h.match, h.token || null); });
export { positionAt };
