// The cue in 3D, drawn from strokeView() (state.js): at its elevation, its axis through the
// contact point (side R, height R off the ball's centre), pulled back by power and by the pull
// gesture, tinted when it is the opponent's; on a shot it goes through to the ball in STRIKE ms.
// With it, the aiming aid: draw.js's firstPath, or the engine's own (S.preview) when there is one.
import * as THREE from "three";
import { firstPath, SHOT_COLOURS } from "./draw.js";

const STRIKE = 100; // ms: the cue's stroke through to the ball
const THROUGH = -0.004; // m: where the stroke ends, a few mm into the ball's surface
const WAIT = 3000; // ms: the longest the cue waits on the ball for the shot (then it goes)
const LENGTH = 1.47; // m
const POINTS = 256; // the most points of a drawn path
const LIFT = 0.0015; // m above the cloth for the lines drawn on it

// How far the tip stands off the ball: as the 2D cue, by the power slider and the pull-back.
export function backOff(power, pull) { return 0.012 + power * 0.15 + pull * 0.3; }

export class Cue {
  constructor(R, group) {
    this.R = R;
    this.group = new THREE.Group(); group.add(this.group);
    const part = (r0, r1, len, at, mat) => { // along +y, from `at` back to at - len (tip at y = 0)
      const m = new THREE.Mesh(new THREE.CylinderGeometry(r0, r1, len, 16, 1), mat);
      m.position.y = at - len / 2; m.castShadow = true; this.group.add(m); return m;
    };
    this.shaftMat = new THREE.MeshPhongMaterial({ color: 0xe6cf9c, shininess: 40 });
    this.buttMat = new THREE.MeshPhongMaterial({ color: 0x3a1c0c, shininess: 60 });
    part(0.0058, 0.0058, 0.008, 0, new THREE.MeshLambertMaterial({ color: 0x2f6fd0 })); // the chalked tip
    part(0.0062, 0.0062, 0.022, -0.008, new THREE.MeshPhongMaterial({ color: 0xf4f4ee })); // the ferrule
    part(0.0062, 0.0095, 0.74, -0.03, this.shaftMat);
    part(0.0095, 0.0145, LENGTH - 0.77, -0.77, this.buttMat);
    part(0.0146, 0.0146, 0.025, -LENGTH + 0.025, new THREE.MeshLambertMaterial({ color: 0x111111 })); // the bumper
    this.group.visible = false;
    this.dir = new THREE.Vector3(); this.y = new THREE.Vector3(0, 1, 0);
    this.last = { cue: [0, 0], aim: 0, elevation: 0, side: 0, height: 0, back: 0.1, who: "me", at: -1e9 };
    this.strike = null; // ms at which a stroke began
    this.struck = null; // ms at which it reached the ball (until the shot is over)
    this.seenAnim = null; this.sentSeen = null;

    // the aiming aid: dashed line to the ghost ball, the ghost, the object ball's line, paths
    this.dashed = new THREE.LineDashedMaterial({ color: 0xffffff, dashSize: 0.03, gapSize: 0.025, transparent: true, opacity: 0.75 });
    this.lines = [];
    for (let k = 0; k < 6; k++) {
      const geo = new THREE.BufferGeometry();
      geo.setAttribute("position", new THREE.BufferAttribute(new Float32Array(POINTS * 3), 3));
      const line = new THREE.Line(geo, k === 0 ? this.dashed : new THREE.LineBasicMaterial({ color: 0xffe678, transparent: true, opacity: 0.9 }));
      line.frustumCulled = false; line.visible = false; group.add(line); this.lines.push(line);
    }
    this.ghost = new THREE.Mesh(new THREE.SphereGeometry(R, 20, 12), new THREE.MeshBasicMaterial({ color: 0xffffff, transparent: true, opacity: 0.28, depthWrite: false }));
    this.ghost.visible = false; group.add(this.ghost);
  }

  // A path (a list of [x, y], or two points) into line k, dashed or not, in a colour.
  path(k, pts, colour) {
    const line = this.lines[k]; const a = line.geometry.attributes.position.array;
    const n = Math.min(pts.length, POINTS);
    for (let q = 0; q < n; q++) { a[3 * q] = pts[q][0]; a[3 * q + 1] = pts[q][1]; a[3 * q + 2] = LIFT; }
    line.geometry.attributes.position.needsUpdate = true; line.geometry.setDrawRange(0, n);
    line.geometry.computeBoundingSphere();
    if (k === 0) line.computeLineDistances();
    if (k > 0) line.material.color.set(colour);
    line.visible = n > 1;
  }

  hideAid() { for (const l of this.lines) l.visible = false; this.ghost.visible = false; }

  // The aid for the cue ball at `cue` aimed at `aim`, as draw.js draws it in 2D: the aim line,
  // the ghost ball and the object ball's line of departure; with `preview` (the Full level) the
  // engine's paths too, and its ghost where the engine has the contact.
  aid(cue, aim, preview, layout) {
    this.hideAid();
    const { ball, ghost } = firstPath(cue, aim);
    this.path(0, [cue, ghost]);
    this.ghost.position.set(ghost[0], ghost[1], this.R); this.ghost.visible = true;
    let k = 1;
    if (ball !== null) {
      const [bx, by] = layout[String(ball)];
      const ux = bx - ghost[0]; const uy = by - ghost[1]; const n = Math.hypot(ux, uy) || 1;
      this.path(k++, [[bx, by], [bx + (ux / n) * 0.4, by + (uy / n) * 0.4]], 0xffe678);
    }
    if (!preview) return;
    if (preview.ghost) this.ghost.position.set(preview.ghost[0], preview.ghost[1], this.R);
    for (const [id, pts] of Object.entries(preview.paths ?? {})) {
      if (k < this.lines.length) this.path(k++, pts, id === "0" ? 0xffffff : 0xffe678);
    }
  }

  // The computer's analysis: each shot's paths, in its colour.
  analysis(shots) {
    this.hideAid();
    let k = 1;
    shots.forEach((shot, i) => {
      for (const pts of Object.values(shot.paths)) {
        if (k < this.lines.length) this.path(k++, pts, new THREE.Color(SHOT_COLOURS[i % SHOT_COLOURS.length]).getHex());
      }
    });
  }

  // Place the cue for view v (a strokeView, or null). anim: the shot being shown, if any;
  // sentAt: when this page last sent a stroke (perf.sentAt). On Shoot the cue goes through to
  // the ball in STRIKE ms and waits there for the shot; a shot that comes while the cue was
  // showing (the opponent's) is struck the same way, the balls moving meanwhile.
  update(v, anim, now, sentAt) {
    const L = this.last;
    if (sentAt !== null && sentAt !== this.sentSeen) {
      this.sentSeen = sentAt;
      if (v) this.remember(v, now);
      this.strike = now; this.struck = null;
    }
    if (anim && anim !== this.seenAnim) {
      this.seenAnim = anim;
      if (!anim.replay && this.strike === null && this.struck === null && now - L.at < 1500) this.strike = now;
    }
    if (!anim && this.seenAnim) { this.seenAnim = null; this.struck = null; } // the shot is over
    if (this.strike !== null) {
      const k = (now - this.strike) / STRIKE;
      if (k < 1) { this.place(L, L.back * (1 - k) + THROUGH * k); return true; }
      this.strike = null; this.struck = now;
      this.place(L, THROUGH); // on the ball, until the shot comes
      return true;
    }
    if (this.struck !== null) {
      if (anim || now - this.struck > WAIT) { const was = this.group.visible; this.group.visible = false; return was; }
      this.place(L, THROUGH);
      return false;
    }
    if (!v) { this.group.visible = false; return false; }
    this.remember(v, now);
    this.place(L, L.back);
    return false;
  }

  remember(v, now) {
    const L = this.last;
    L.cue[0] = v.cue[0]; L.cue[1] = v.cue[1]; L.aim = v.aim; L.elevation = v.elevation;
    L.side = v.side; L.height = v.height; L.back = backOff(v.power, v.pull); L.who = v.who; L.at = now;
  }

  place(L, back) {
    const R = this.R; const ca = Math.cos(L.aim); const sa = Math.sin(L.aim);
    const ce = Math.cos(L.elevation); const se = Math.sin(L.elevation);
    this.dir.set(ca * ce, sa * ce, -se); // from the butt to the tip
    // the contact point: side R to the right of the aim, height R up (across the cue's axis)
    const s = L.side * R; const h = L.height * R;
    const rx = sa; const ry = -ca; // right of the aim
    const ux = ca * se; const uy = sa * se; const uz = ce; // up, square to the cue
    const px = L.cue[0] + rx * s + ux * h; const py = L.cue[1] + ry * s + uy * h; const pz = R + uz * h;
    const into = Math.sqrt(Math.max(R * R - s * s - h * h, 0)); // from that line's entry to its mid
    this.group.position.set(px - this.dir.x * (into + back), py - this.dir.y * (into + back), pz - this.dir.z * (into + back));
    this.group.quaternion.setFromUnitVectors(this.y, this.dir);
    this.shaftMat.color.set(L.who === "remote" ? 0x9fc4e8 : 0xe6cf9c);
    this.group.visible = true;
  }
}
