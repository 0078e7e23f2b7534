// The 3D scene: the renderer on its own canvas laid where the 2D canvas is (the 2D canvas stays
// above it, transparent, and keeps taking the pointer, so stroke.js works unchanged), the
// table, balls and cue, and the mapping between the pointer and the table (a ray cast onto the
// plane of the balls' centres). A frame is drawn only when something it shows has changed.
import { aidLevel } from "./aid.js";
import * as THREE from "three";
import { $, canShoot, cuePosition, layoutCanvas, myTurn, perf, S, strokeView } from "./state.js";
import { buildTable } from "./table3d.js";
import { Balls } from "./balls3d.js";
import { Cameras } from "./camera3d.js";
import { Cue } from "./cue3d.js";

// Drawn on the CPU (SwiftShader), every pixel costs: no multisampling, at most SOFT_WIDTH
// pixels across (the browser scales the picture up), a smaller shadow map. With a GPU:
// antialiased, the pixel ratio capped at MAX_RATIO.
const MAX_RATIO = 1.5;
const SOFT_WIDTH = 640;
const SHADOW = { gpu: 1024, soft: 512 }; // px: the one shadow map

window.__THREE__ = window.__THREE__ ?? THREE.REVISION;

export function createScene(overlay, wrap, mode, soft) {
  const renderer = new THREE.WebGLRenderer({ antialias: !soft, powerPreference: "high-performance" });
  const ratio = (w) => (soft ? Math.min(1, SOFT_WIDTH / w) : Math.min(window.devicePixelRatio || 1, MAX_RATIO));
  renderer.shadowMap.enabled = true; renderer.shadowMap.type = THREE.PCFShadowMap;
  renderer.setClearColor(0x161a18);
  const el = renderer.domElement;
  el.id = "table3d"; el.setAttribute("aria-hidden", "true");
  el.style.display = "none"; el.style.width = "100%";
  wrap.insertBefore(el, overlay);

  const scene = new THREE.Scene();
  const hemi = new THREE.HemisphereLight(0xfff4e0, 0x8a8478, 1.6);
  scene.add(hemi);
  const lamp = new THREE.DirectionalLight(0xffffff, 1.6);
  lamp.castShadow = true;
  lamp.shadow.mapSize.setScalar(soft ? SHADOW.soft : SHADOW.gpu);
  lamp.shadow.bias = -0.0005; lamp.shadow.normalBias = 0.002;
  scene.add(lamp); scene.add(lamp.target);

  let table = null; let group = null; let balls = null; let cue = null; let cams = null;
  let shown = false; let dirty = true;
  const sig = new Array(25).fill(undefined);
  const ray = new THREE.Raycaster(); const ndc = new THREE.Vector2();
  const plane = new THREE.Plane(new THREE.Vector3(0, 0, 1), 0); const hit = new THREE.Vector3();
  const v = new THREE.Vector3();
  const ringAt = { pos: null, ok: null };
  let camMode = mode;

  function build() { // for the table of this match (S.table), once per table
    if (group) {
      scene.remove(group);
      group.traverse((o) => {
        if (o.geometry) o.geometry.dispose();
        if (o.material) { if (o.material.map) o.material.map.dispose(); o.material.dispose(); }
      });
    }
    table = S.table; group = new THREE.Group(); scene.add(group);
    const holes = buildTable(table, group);
    balls = new Balls(table.radius, group, holes);
    cue = new Cue(table.radius, group);
    if (!cams) cams = new Cameras(table, overlay, camMode);
    else cams.T = table;
    plane.constant = -table.radius; // the plane of the balls' centres
    lamp.position.set(table.width / 2 + 0.4, table.length / 2 + 0.6, 2.6);
    lamp.target.position.set(table.width / 2, table.length / 2, 0);
    const cam = lamp.shadow.camera; const half = table.length / 2 + 0.3;
    cam.left = -half; cam.right = half; cam.top = half; cam.bottom = -half; cam.near = 0.5; cam.far = 5;
    cam.updateProjectionMatrix();
    dirty = true;
  }

  // The canvas fills the table's box (the page's layout sizes it for each screen), the 2D canvas
  // over it, as large, transparent, taking the pointer.
  function fit() {
    const box = el.parentElement;
    const w = box.clientWidth; const h = box.clientHeight;
    if (w === 0 || h === 0) return false;
    if (overlay.style.width !== `${w}px` || overlay.style.height !== `${h}px`) {
      overlay.style.width = `${w}px`; overlay.style.height = `${h}px`;
    }
    const size = renderer.getSize(v);
    if (Math.round(size.x) !== w || Math.round(size.y) !== h || renderer.getPixelRatio() !== ratio(w)) {
      renderer.setPixelRatio(ratio(w)); renderer.setSize(w, h, true); dirty = true;
    }
    return true;
  }

  function show(on) {
    shown = on;
    el.style.display = on ? "block" : "none";
    overlay.style.position = on ? "absolute" : "";
    overlay.style.left = on ? "0" : ""; overlay.style.top = on ? "0" : "";
    overlay.style.opacity = on ? "0" : "";
    if (!on) { overlay.style.width = ""; layoutCanvas(); } // the 2D canvas' own size again
    dirty = true;
  }

  // Whether what the frame shows has changed since the last one drawn (no allocation).
  let diff = false;
  function put(k, x) { if (sig[k] !== x) { sig[k] = x; diff = true; } }
  function changed(view) {
    diff = false;
    const d = S.drag;
    put(0, S.layout); put(1, S.cue); put(2, S.pendingCue); put(3, S.inHand); put(4, d); put(5, d?.pos);
    put(6, d?.ok); put(7, S.aim); put(8, S.pull); put(9, S.preview); put(10, S.remoteAim);
    put(11, S.analysis); put(12, S.state); put(13, S.placeOk); put(14, $("power").value);
    put(15, $("elevation").value); put(16, S.side); put(17, S.height); put(18, aidLevel());
    put(19, view === null); put(20, view ? view.aim : null); put(21, S.table); put(22, S.mode); put(23, S.anim); put(24, S.anim ? S.anim.t : null);
    return diff;
  }

  function render() {
    if (!shown || !S.table) return;
    if (S.table !== table) build();
    if (!fit()) return;
    const now = performance.now();
    const view = strokeView();
    if (!S.anim) {
      // the behind-the-cue camera follows the aim, except while the pointer aims (the camera
      // would turn under it) or a ball is dragged
      const cueAt = view ? view.cue : cuePosition();
      if (S.mode === "score") cams.aim = null; // the scorekeeper clicks pockets and balls: from above
      else if (cueAt && !S.drag) cams.follow(cueAt, view ? view.aim : S.aim, (pointer.over || pointer.down) && !S.aimLocked, view ? view.elevation : 0);
    }
    const moving = cams.update(el.clientWidth / el.clientHeight, !!S.anim);
    const striking = cue.update(view, S.anim, now, perf.sentAt);
    if (!(changed(view) || dirty || moving || striking)) return; // a paused shot is not drawn again
    dirty = false;
    if (S.anim) {
      balls.shot(S.anim);
      cue.hideAid();
    } else {
      const drag = S.drag && S.drag.pos ? S.drag : null;
      const dragCue = !!(drag && drag.ball === 0);
      let ring = null; // [x, y] and whether the server said no, as the 2D table rings it
      if (drag) ring = drag;
      else if (S.inHand && myTurn() && cuePosition()) { ringAt.pos = cuePosition(); ringAt.ok = S.placeOk; ring = ringAt; }
      balls.still(S.layout, S.inHand || dragCue, cuePosition(), drag, ring);
      if (S.mode === "score") { cue.hideAid(); }
      else if (S.analysis && S.analysis.shots) cue.analysis(S.analysis.shots);
      else if (view && view.who === "me" && canShoot() && !S.drag && aidLevel() !== "off") cue.aid(view.cue, view.aim, aidLevel() === "full" ? S.preview : null, S.layout);
      else cue.hideAid();
    }
    renderer.render(scene, cams.camera);
  }

  // Pointer -> table (m) on the plane of the balls' centres; null in the free orbit (the drag
  // turns the camera) or off the plane.
  function pick(ev) {
    if (!cams || cams.mode === "orbit") return null;
    const r = el.getBoundingClientRect();
    ndc.set(((ev.clientX - r.left) / r.width) * 2 - 1, -((ev.clientY - r.top) / r.height) * 2 + 1);
    ray.setFromCamera(ndc, cams.camera);
    if (!ray.ray.intersectPlane(plane, hit)) return null;
    return [hit.x, hit.y];
  }
  function toClient(x, y) {
    const r = el.getBoundingClientRect();
    if (!cams) return [r.left, r.top];
    v.set(x, y, S.table ? S.table.radius : 0).project(cams.camera);
    return [r.left + ((v.x + 1) / 2) * r.width, r.top + ((1 - v.y) / 2) * r.height];
  }
  function setCamera(m) { camMode = m; if (cams) cams.setMode(m); dirty = true; }

  // Where the pointer is: a mouse over the table, or a finger on it, aims (the camera holds).
  // A move counts as well as an entry: a mouse already over the table when what covered it went
  // away (the lobby's Start button, a dialog) gets no pointerenter.
  const pointer = { over: false, down: false };
  const overTable = (ev) => { if (ev.pointerType === "mouse") pointer.over = true; };
  overlay.addEventListener("pointerenter", overTable);
  overlay.addEventListener("pointermove", overTable);
  overlay.addEventListener("pointerleave", () => { pointer.over = false; });
  overlay.addEventListener("pointerdown", () => { pointer.down = true; });
  for (const type of ["pointerup", "pointercancel"]) window.addEventListener(type, () => { pointer.down = false; });
  window.addEventListener("resize", () => { dirty = true; });
  document.addEventListener("input", () => { dirty = true; });

  return { render, pick, toClient, show, setCamera, renderer, scene, lamp, get camera() { return cams?.camera; }, get cameras() { return cams; }, get balls() { return balls; }, get cue() { return cue; } };
}
