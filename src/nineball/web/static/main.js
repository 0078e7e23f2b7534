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

// A language picked before the modules ran (they wait for the string catalogs) is the person's
// choice: the select shows its first option until someone changes it. Otherwise the saved one,
// or the browser's.
const picked = $("lang").selectedIndex > 0 ? $("lang").value : null;
const saved = localStorage.getItem("nineball.lang");
setLang(picked || (LANGS.includes(saved) ? saved : (navigator.language || "en").slice(0, 2)));
if (picked) localStorage.setItem("nineball.lang", picked);
$("lang").value = lang();
drawSpin();
requestAnimationFrame(tick);
const target = readHash();
if (target) join(target.match, target.token || null);
else openLobby();
window.addEventListener("hashchange", () => { const h = readHash(); if (h && h.match !== S.match) join(h.match, h.token || null); });
export { positionAt };
