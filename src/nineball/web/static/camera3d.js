// The 3D view's cameras: behind the cue (the default, following the aim), overhead, and a free
// orbit (OrbitControls, only in that mode). A change of camera, or a jump of the one in use
// (the cue ball moved, the aim locked elsewhere), is eased over EASE ms.
import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";

const EASE = 500; // ms
const UP = new THREE.Vector3(0, 0, 1);
const JUMP = 0.03; // m: a target that moves more than this in a frame is eased to

function ease(k) { return k < 0.5 ? 2 * k * k : 1 - 2 * (1 - k) * (1 - k); }

class Pose {
  constructor() { this.pos = new THREE.Vector3(); this.look = new THREE.Vector3(); this.up = new THREE.Vector3(0, 0, 1); }
  copy(o) { this.pos.copy(o.pos); this.look.copy(o.look); this.up.copy(o.up); return this; }
  far(o) { return this.pos.distanceTo(o.pos) > JUMP || this.look.distanceTo(o.look) > JUMP || this.up.distanceTo(o.up) > 0.05; }
}

export class Cameras {
  constructor(T, element, mode) {
    this.T = T; this.mode = mode;
    this.camera = new THREE.PerspectiveCamera(42, 16 / 9, 0.02, 30);
    this.camera.up.copy(UP);
    this.controls = new OrbitControls(this.camera, element);
    this.controls.enabled = false; this.controls.enableDamping = false;
    this.controls.target.set(T.width / 2, T.length / 2, 0);
    this.controls.maxPolarAngle = Math.PI * 0.48; this.controls.minDistance = 0.3; this.controls.maxDistance = 6;
    this.changed = false;
    this.controls.addEventListener("change", () => { this.changed = true; });
    this.now = new Pose(); this.target = new Pose(); this.last = new Pose(); this.from = new Pose();
    this.easing = null; // ms at which an ease began
    this.aim = null; // the aim the behind-the-cue camera follows: {cue: [x, y], aim}
    this.started = false;
  }

  setMode(mode) {
    if (mode === this.mode) return;
    this.mode = mode;
    this.controls.enabled = false;
    this.from.copy(this.now); this.easing = performance.now();
  }

  // The behind-the-cue camera follows this cue ball and aim; with `hold`, it keeps its aim
  // (the pointer is aiming: the camera would turn under it) unless the cue ball has moved.
  follow(cue, aim, hold, elevation = 0) {
    if (!cue) return;
    const moved = !this.aim || Math.abs(this.aim.cue[0] - cue[0]) > 1e-6 || Math.abs(this.aim.cue[1] - cue[1]) > 1e-6;
    if (!this.aim) this.aim = { cue: [0, 0], aim: 0, elevation: 0 };
    this.aim.cue[0] = cue[0]; this.aim.cue[1] = cue[1]; this.aim.elevation = elevation;
    if (!hold || moved) this.aim.aim = aim;
  }

  overhead(p, aspect) {
    const T = this.T; const wide = T.length + 0.34; const high = T.width + 0.34;
    const tan = Math.tan((this.camera.fov * Math.PI) / 360);
    let d = Math.max(high / 2 / tan, wide / 2 / (tan * aspect)) * 1.04;
    if (aspect < 1) d = Math.max(wide / 2 / tan, high / 2 / (tan * aspect)) * 1.04; // a tall screen: the table upright
    p.pos.set(T.width / 2, T.length / 2, d); p.look.set(T.width / 2, T.length / 2, 0);
    if (aspect < 1) p.up.set(0, 1, 0); else p.up.set(-1, 0, 0); // the head on the left, as in 2D
  }

  behind(p, aspect) {
    if (!this.aim) { this.overhead(p, aspect); return; }
    const [x, y] = this.aim.cue; const dx = Math.cos(this.aim.aim); const dy = Math.sin(this.aim.aim);
    // A tall screen (a phone held upright) sees the table down its length from higher up, looking
    // further ahead, so the cloth fills the screen rather than the room above it.
    const tall = aspect < 1;
    const back = tall ? 0.95 : 0.8;
    // above the cue, which rises behind the ball with its elevation
    const over = Math.tan(Math.min(this.aim.elevation, 1.2)) * back + 0.12;
    p.pos.set(x - dx * back, y - dy * back, Math.max(tall ? 0.8 : 0.3, over));
    const ahead = tall ? 0.5 : 0.45;
    p.look.set(x + dx * ahead, y + dy * ahead, 0);
    p.up.copy(UP);
  }

  orbitStart(p) { // where the free orbit begins: a three-quarter view from the foot's right corner
    const T = this.T;
    p.pos.set(T.width + 1.0, T.length + 1.1, 1.3); p.look.set(T.width / 2, T.length / 2, 0); p.up.copy(UP);
  }

  // Place the camera for this frame; true while it moves by itself (an ease in progress).
  update(aspect, frozen) {
    const cam = this.camera;
    if (cam.aspect !== aspect) { cam.aspect = aspect; cam.updateProjectionMatrix(); }
    if (this.mode === "orbit" && this.easing === null && this.started) {
      this.controls.enabled = true;
      this.controls.update();
      this.now.pos.copy(cam.position); this.now.look.copy(this.controls.target); this.now.up.copy(UP);
      const moved = this.changed; this.changed = false;
      return moved;
    }
    if (!frozen) {
      if (this.mode === "top") this.overhead(this.target, aspect);
      else if (this.mode === "aim") this.behind(this.target, aspect);
      else this.orbitStart(this.target);
      if (this.started && this.easing === null && this.target.far(this.last)) { this.from.copy(this.now); this.easing = performance.now(); }
      this.last.copy(this.target);
    }
    let moving = false;
    if (!this.started) { this.started = true; this.now.copy(this.target); moving = true; }
    else if (this.easing !== null) {
      moving = true; // the last step of an ease is drawn too
      const k = Math.min((performance.now() - this.easing) / EASE, 1); const e = ease(k);
      this.now.pos.lerpVectors(this.from.pos, this.target.pos, e);
      this.now.look.lerpVectors(this.from.look, this.target.look, e);
      this.now.up.lerpVectors(this.from.up, this.target.up, e).normalize();
      if (k >= 1) {
        this.easing = null;
        if (this.mode === "orbit") { this.controls.target.copy(this.target.look); cam.up.copy(UP); }
      }
    } else this.now.copy(this.target);
    cam.position.copy(this.now.pos); cam.up.copy(this.now.up); cam.lookAt(this.now.look);
    cam.updateMatrixWorld();
    return moving;
  }
}
