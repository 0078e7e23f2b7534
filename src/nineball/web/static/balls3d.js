// The balls in 3D: canvas textures (the page's colours, numbers in white discs, the 9 striped,
// the cue ball white with small marks so its spin shows), positions from the engine's pieces
// (anim.js, never re-simulated), orientation integrated from the pieces' angular velocity, and
// a pocketed ball dropping into its pocket below the cloth.
import * as THREE from "three";
import { heightAt, positionAt, SINK, spinAt } from "./anim.js";
import { COLOURS } from "./state.js";

const TEX_W = 512; const TEX_H = 256;
const STEP = 1 / 120; // s: the longest step of the orientation's integration

// An equirectangular picture of ball `id`: on the sphere, u goes round the local y axis and
// u = 0.25 on the equator faces local +z (up, for a ball in its resting orientation).
function ballTexture(id) {
  const c = document.createElement("canvas"); c.width = TEX_W; c.height = TEX_H;
  const g = c.getContext("2d");
  const striped = id === 9;
  g.fillStyle = striped || id === 0 ? "#f8f8f0" : COLOURS[id]; g.fillRect(0, 0, TEX_W, TEX_H);
  if (striped) { g.fillStyle = COLOURS[9]; g.fillRect(0, TEX_H * 0.27, TEX_W, TEX_H * 0.46); }
  const rad = TEX_H / Math.PI; // pixels per radian, both ways on the equator
  if (id === 0) { // six small red marks, on the axes
    g.fillStyle = "#c8102e";
    for (const u of [0, 0.25, 0.5, 0.75, 1]) { g.beginPath(); g.arc(u * TEX_W, TEX_H / 2, 0.09 * rad, 0, 2 * Math.PI); g.fill(); }
    g.fillRect(0, 0, TEX_W, 0.09 * rad); g.fillRect(0, TEX_H - 0.09 * rad, TEX_W, 0.09 * rad);
  } else {
    for (const u of [0.25, 0.75]) { // the number on two opposite sides, black in a white disc
      const x = u * TEX_W; const y = TEX_H / 2; const r = 0.36 * rad;
      g.fillStyle = "#fff"; g.beginPath(); g.arc(x, y, r, 0, 2 * Math.PI); g.fill();
      g.strokeStyle = "#000"; g.lineWidth = r * 0.1; g.stroke();
      g.fillStyle = "#000"; g.font = `bold ${Math.round(r * 1.3)}px sans-serif`;
      g.textAlign = "center"; g.textBaseline = "middle";
      g.fillText(String(id), x, y + r * 0.06); // upright seen from the head of the table
      if (id === 6 || id === 9) g.fillRect(x - r * 0.38, y + r * 0.6, r * 0.76, r * 0.09); // 6 or 9
    }
  }
  const tex = new THREE.CanvasTexture(c);
  tex.colorSpace = THREE.SRGBColorSpace; tex.anisotropy = 2;
  return tex;
}

export class Balls {
  constructor(R, group, holes) {
    this.R = R; this.holes = holes; this.meshes = new Map(); this.quats = new Map();
    this.geo = new THREE.SphereGeometry(R, 32, 20);
    this.ring = new THREE.Mesh(new THREE.RingGeometry(R * 1.25, R * 1.55, 32), new THREE.MeshBasicMaterial({ color: 0x3bff6b }));
    this.ring.visible = false; group.add(this.ring);
    for (let id = 0; id <= 9; id++) {
      const mat = new THREE.MeshPhongMaterial({ map: ballTexture(id), shininess: 80, specular: 0x444444 });
      const m = new THREE.Mesh(this.geo, mat);
      m.castShadow = true; m.visible = false;
      // at rest, the number faces up and reads upright from the head of the table
      group.add(m); this.meshes.set(String(id), m);
    }
    this.w = [0, 0, 0]; this.axis = new THREE.Vector3(); this.dq = new THREE.Quaternion();
    this.lastT = null; this.lastAnim = null;
  }

  hideAll() { for (const m of this.meshes.values()) m.visible = false; }

  // At rest: the layout, the cue ball where cuePosition says (or hidden), a dragged ball, and
  // the ring round a ball being placed ({pos, ok}: red where the server said no).
  still(layout, inHand, cue, drag, ring) {
    this.lastAnim = null;
    for (const [id, m] of this.meshes) {
      let p = layout[id] ?? null;
      if (id === "0" && inHand) p = cue;
      if (drag && String(drag.ball) === id) p = drag.pos;
      m.visible = !!p;
      if (p) m.position.set(p[0], p[1], this.R);
    }
    this.ring.visible = !!(ring && ring.pos);
    if (this.ring.visible) {
      this.ring.material.color.set(ring.ok === false ? 0xff3b3b : 0x3bff6b);
      this.ring.position.set(ring.pos[0], ring.pos[1], 0.0008);
    }
  }

  // During a shot: every ball at time t, turned by its angular velocity since the last frame.
  shot(anim) {
    this.ring.visible = false;
    const trajectory = anim.msg.trajectory; const t = anim.t;
    if (this.lastAnim !== anim || this.lastT === null || t < this.lastT) { this.lastAnim = anim; this.lastT = t; }
    const t0 = this.lastT; this.lastT = t;
    for (const [id, m] of this.meshes) {
      const ball = trajectory.balls[id];
      if (!ball) { m.visible = false; continue; }
      const [x, y] = positionAt(ball.pieces, t);
      let z = this.R + heightAt(ball.pieces, t);
      let px = x; let py = y; let shown = !(ball.off_table_at != null && t >= ball.off_table_at);
      if (ball.pocketed_at !== null && ball.pocketed_at !== undefined && t >= ball.pocketed_at) {
        const k = Math.min((t - ball.pocketed_at) / SINK, 1);
        const h = this.holes[ball.pocket];
        if (h) { px = x + (h.x - x) * k; py = y + (h.y - y) * k; }
        z = this.R - k * 3.2 * this.R; // down through the hole, below the cloth
        shown = k < 1;
      }
      m.visible = shown;
      if (!shown) continue;
      m.position.set(px, py, z);
      this.turn(m, ball.pieces, t0, t);
    }
  }

  // q <- exp(w dt) q, with w(t) = w0 + aw (t - t0) from the pieces, in steps of at most STEP.
  turn(m, pieces, from, to) {
    const span = to - from;
    if (span <= 0) return;
    const n = Math.min(Math.ceil(span / STEP), 240);
    const h = span / n;
    for (let k = 0; k < n; k++) {
      const w = spinAt(pieces, from + (k + 0.5) * h, this.w);
      const size = Math.hypot(w[0], w[1], w[2]);
      if (size < 1e-9) continue;
      this.axis.set(w[0] / size, w[1] / size, w[2] / size);
      this.dq.setFromAxisAngle(this.axis, size * h);
      m.quaternion.premultiply(this.dq);
    }
    m.quaternion.normalize();
  }
}
