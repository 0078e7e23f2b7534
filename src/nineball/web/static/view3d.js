// The 3D table: whether it is shown (the 2D/3D toggle, remembered), its camera buttons, and the
// fallback to the 2D canvas where WebGL2 or the three.js files are missing. The scene itself is
// in scene3d.js, loaded only when the 3D view can run (it imports three.js).
import { t } from "./i18n.js";
import { setView } from "./draw.js";
import { $, canvas, S, setPicker } from "./state.js";

const KEY_VIEW = "nineball.view"; // "3d" | "2d"
const KEY_CAMERA = "nineball.camera"; // "aim" | "top" | "orbit"
const CAMERAS = ["aim", "top", "orbit"];
const to2d = window.nbToClient; // the 2D canvas' mapping, kept for when 3D is off

let scene = null; // the scene3d module's view, once loaded
let failed = false; // no WebGL2 or no three.js: 2D only
let want3d = localStorage.getItem(KEY_VIEW) !== "2d";
let camera = CAMERAS.includes(localStorage.getItem(KEY_CAMERA)) ? localStorage.getItem(KEY_CAMERA) : "aim";
window.nbView = "2d";

// Whether a WebGL2 context can be made here (three.js needs WebGL2): null if not, else whether
// it is drawn on the CPU (SwiftShader, as headless browsers and machines without a GPU do).
function webgl2() {
  try {
    const probe = document.createElement("canvas");
    const gl = probe.getContext("webgl2");
    if (!gl) return null;
    const info = gl.getExtension("WEBGL_debug_renderer_info");
    const name = String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
    const lose = gl.getExtension("WEBGL_lose_context");
    if (lose) lose.loseContext();
    return { soft: /swiftshader|llvmpipe|software/i.test(name) };
  } catch { return null; }
}

// The scorekeeper's marks are drawn on the 2D table: it keeps the 2D view.
function active() { return scene !== null && want3d && S.mode !== "score"; }
let shownOn = false;

function applyMode() {
  const on = active();
  shownOn = on;
  window.nbView = on ? "3d" : "2d";
  if (scene) scene.show(on);
  setPicker(on ? (ev) => scene.pick(ev) : null);
  window.nbToClient = on ? (x, y) => scene.toClient(x, y) : to2d;
  labels();
}

function labels() {
  const tools = $("view-tools");
  tools.setAttribute("aria-label", t("viewTools"));
  const dim = $("view-dim");
  dim.textContent = active() ? t("view2d") : t("view3d");
  dim.disabled = failed || S.mode === "score";
  for (const b of tools.querySelectorAll("button.cam")) {
    b.hidden = !active();
    b.setAttribute("aria-pressed", String(b.dataset.cam === camera));
  }
  const notice = $("view-notice");
  notice.hidden = !failed;
  notice.textContent = failed ? t("no3d") : "";
}

function fallBack(why) {
  failed = true; scene = null;
  if (why) console.warn("3D view unavailable:", why);
  applyMode();
}

async function load() {
  const gl = webgl2();
  if (!gl) { fallBack("no WebGL2 context"); return; }
  try {
    const mod = await import("./scene3d.js");
    scene = mod.createScene(canvas, $("table-wrap"), camera, gl.soft);
    window.nb3d = scene; // for tests and tools
  } catch (err) {
    fallBack(err);
    return;
  }
  applyMode();
}

$("view-dim").addEventListener("click", () => {
  if (failed) return;
  want3d = !want3d;
  localStorage.setItem(KEY_VIEW, want3d ? "3d" : "2d");
  if (want3d && !scene) load(); else applyMode();
});
for (const b of $("view-tools").querySelectorAll("button.cam")) {
  b.addEventListener("click", () => {
    camera = b.dataset.cam; localStorage.setItem(KEY_CAMERA, camera);
    if (scene) scene.setCamera(camera);
    labels();
  });
}
document.addEventListener("langchange", labels);

// draw.js asks each frame: the 3D view draws it when it is on.
setView(() => {
  if (active() !== shownOn) applyMode(); // the mode changed (to or from the scorekeeper)
  if (!shownOn) return false;
  scene.render();
  return true;
});

labels();
if (want3d) load();

export { active as view3dActive };
