// The table in 3D, from the server's table JSON (S.table, m): the cloth with its pocket holes,
// the cushions with the engine's nose lines, facings and rounded jaws, the wooden rails with
// their diamonds, and the pockets. The world frame is the table's: x across, y along, z up, the
// cloth at z = 0.
import * as THREE from "three";

export const CUSHION = 0.05; // m from the cushion's nose to the rail
export const WOOD = 0.1; // m of wooden rail beyond the cushion
export const NOSE = 0.037; // m: the cushion's height (its nose at about 0.64 of a ball's diameter)
const RAIL_TOP = 0.041; // m: the rail's top, a little above the cushion
const BODY = 0.2; // m of wood below the cloth
const DEPTH = 0.12; // m: how deep a pocket is drawn

// The holes of the pockets: centre (m) and radius, a little behind the mouth of each pocket.
export function pocketHoles(T) {
  const out = {};
  for (const [name, [cx, cy]] of Object.entries(T.pockets)) {
    const ox = cx <= 0 ? -1 : cx >= T.width ? 1 : 0;
    const oy = cy <= 0 ? -1 : cy >= T.length ? 1 : 0;
    const side = oy === 0;
    out[name] = side
      ? { x: cx + ox * 0.062, y: cy, r: 0.058 }
      : { x: cx + ox * 0.012, y: cy + oy * 0.012, r: 0.062 };
  }
  return out;
}

// The rectangle at distance c outside the nose lines, walked counter-clockwise, with each hole
// it meets cut in: `inward` true takes the holes out of the rectangle (the cloth), false adds
// them to it (the opening in the rails).
function contour(T, c, holes, inward) {
  const W = T.width; const L = T.length;
  const corners = [[W / 2, -c], [W + c, -c], [W + c, L + c], [-c, L + c], [-c, -c], [W / 2, -c]];
  const items = []; // perimeter points in order: {p, hole}
  for (let e = 0; e < corners.length - 1; e++) {
    const [ax, ay] = corners[e]; const [bx, by] = corners[e + 1];
    if (e > 0) items.push({ p: [ax, ay], hole: null });
    const hits = [];
    for (const h of holes) {
      // the edge a + s (b - a), 0 < s < 1, against the circle
      const dx = bx - ax; const dy = by - ay; const fx = ax - h.x; const fy = ay - h.y;
      const A = dx * dx + dy * dy; const B = 2 * (fx * dx + fy * dy); const C = fx * fx + fy * fy - h.r * h.r;
      const disc = B * B - 4 * A * C;
      if (disc <= 0) continue;
      for (const s of [(-B - Math.sqrt(disc)) / (2 * A), (-B + Math.sqrt(disc)) / (2 * A)]) {
        if (s > 0 && s < 1) hits.push({ s, p: [ax + s * dx, ay + s * dy], hole: h });
      }
    }
    hits.sort((u, v) => u.s - v.s);
    items.push(...hits);
  }
  const path = new THREE.Shape();
  path.moveTo(W / 2, -c);
  let inside = null;
  for (const it of items) {
    if (it.hole === null) { if (inside === null) path.lineTo(it.p[0], it.p[1]); continue; }
    if (inside === null) { path.lineTo(it.p[0], it.p[1]); inside = { hole: it.hole, p: it.p }; continue; }
    if (inside.hole !== it.hole) continue;
    const h = it.hole;
    const a0 = Math.atan2(inside.p[1] - h.y, inside.p[0] - h.x);
    const a1 = Math.atan2(it.p[1] - h.y, it.p[0] - h.x);
    // the arc through the table's side of the hole (inward) or through its far side
    let mid = Math.atan2(T.length / 2 - h.y, T.width / 2 - h.x);
    if (!inward) mid += Math.PI;
    const tau = 2 * Math.PI;
    const sweep = (((a1 - a0) % tau) + tau) % tau; const toMid = (((mid - a0) % tau) + tau) % tau;
    path.absarc(h.x, h.y, h.r, a0, a1, !(toMid < sweep));
    inside = null;
  }
  path.closePath();
  return path;
}

// A cushion: its nose (the engine's segment, between the tangent points of its jaws), the jaw
// at each end rounded as the engine has it, and the facing beyond it, out to the rail.
// A cushion's nose is square to the table (a facing is not); its normal points into the table.
function isNose(s) { return Math.abs(s[0] - s[2]) < 1e-9 || Math.abs(s[1] - s[3]) < 1e-9; }

function cushionShape(T, nose) {
  const [ax, ay, bx, by] = nose;
  let nx = 0; let ny = 0;
  if (Math.abs(ax - bx) < 1e-9) nx = ax < T.width / 2 ? 1 : -1; else ny = ay < T.length / 2 ? 1 : -1;
  const ox = -nx; const oy = -ny; // away from the table
  const near = (x, y, list, r) => {
    let best = null; let gap = Infinity;
    for (const j of list) { const d = Math.abs(Math.hypot(x - j[0], y - j[1]) - (r ?? j[2])); if (d < gap) { gap = d; best = j; } }
    return best;
  };
  const end = (px, py) => { // the jaw at this end of the nose and the facing leaving it
    const jaw = near(px, py, T.jaws);
    let facing = null; let start = null; let gap = 1e-4;
    for (const s of T.segments) {
      if (isNose(s)) continue; // a nose, not a facing
      for (const [u, v, w, z] of [[s[0], s[1], s[2], s[3]], [s[2], s[3], s[0], s[1]]]) {
        const d = Math.abs(Math.hypot(u - jaw[0], v - jaw[1]) - jaw[2]);
        if (d < gap && Math.hypot(u - px, v - py) < 4 * jaw[2]) { gap = d; facing = [u, v, w, z]; start = [u, v]; }
      }
    }
    if (!facing) return { jaw, tangent: [px, py], back: [px + ox * CUSHION, py + oy * CUSHION] };
    const dx = facing[2] - facing[0]; const dy = facing[3] - facing[1]; const n = Math.hypot(dx, dy);
    const behind = (start[0] - ax) * ox + (start[1] - ay) * oy;
    const s = (CUSHION - behind) / ((dx / n) * ox + (dy / n) * oy);
    return { jaw, tangent: start, back: [start[0] + (dx / n) * s, start[1] + (dy / n) * s] };
  };
  const A = end(ax, ay); const B = end(bx, by);
  const shape = new THREE.Shape();
  shape.moveTo(A.back[0], A.back[1]);
  shape.lineTo(A.tangent[0], A.tangent[1]);
  arc(shape, A.jaw, A.tangent, [ax, ay]);
  shape.lineTo(bx, by);
  arc(shape, B.jaw, [bx, by], B.tangent);
  shape.lineTo(B.back[0], B.back[1]);
  shape.closePath();
  return shape;
}

// The short way round a jaw from one tangent point to the other.
function arc(shape, jaw, from, to) {
  const a0 = Math.atan2(from[1] - jaw[1], from[0] - jaw[0]);
  const a1 = Math.atan2(to[1] - jaw[1], to[0] - jaw[0]);
  let d = a1 - a0;
  while (d > Math.PI) d -= 2 * Math.PI;
  while (d < -Math.PI) d += 2 * Math.PI;
  shape.absarc(jaw[0], jaw[1], jaw[2], a0, a0 + d, d < 0);
}

// A wood grain, drawn once: a canvas texture for the rails.
function woodTexture() {
  const c = document.createElement("canvas"); c.width = 256; c.height = 64;
  const g = c.getContext("2d");
  g.fillStyle = "#6b3f1f"; g.fillRect(0, 0, c.width, c.height);
  for (let k = 0; k < 60; k++) {
    g.strokeStyle = `rgba(${k % 2 ? "40,20,8" : "140,90,50"},${0.08 + (k % 5) * 0.03})`;
    g.lineWidth = 1 + (k % 3);
    const y = (k * 37) % c.height;
    g.beginPath(); g.moveTo(0, y);
    for (let x = 0; x <= c.width; x += 32) g.lineTo(x, y + Math.sin(x * 0.05 + k) * 2);
    g.stroke();
  }
  const tex = new THREE.CanvasTexture(c);
  tex.colorSpace = THREE.SRGBColorSpace; tex.wrapS = THREE.RepeatWrapping; tex.wrapT = THREE.RepeatWrapping;
  tex.repeat.set(6, 6);
  return tex;
}

// Everything of the table, added to `group`; answers the pocket holes.
export function buildTable(T, group) {
  const holes = pocketHoles(T);
  const list = Object.values(holes);
  const cloth = new THREE.MeshLambertMaterial({ color: 0x1f7a48 });
  const rubber = new THREE.MeshLambertMaterial({ color: 0x18683c });
  const wood = new THREE.MeshLambertMaterial({ color: 0xffffff, map: woodTexture() });
  const black = new THREE.MeshBasicMaterial({ color: 0x050505, side: THREE.DoubleSide });
  const ivory = new THREE.MeshBasicMaterial({ color: 0xe8dcc0 });
  const line = new THREE.LineBasicMaterial({ color: 0xffffff, transparent: true, opacity: 0.35 });

  const clothMesh = new THREE.Mesh(new THREE.ShapeGeometry(contour(T, CUSHION, list, true), 6), cloth);
  clothMesh.receiveShadow = true;
  group.add(clothMesh);

  for (const s of T.segments) {
    if (!isNose(s)) continue;
    const geo = new THREE.ExtrudeGeometry(cushionShape(T, s), { depth: NOSE, bevelEnabled: false, curveSegments: 6 });
    const mesh = new THREE.Mesh(geo, rubber);
    mesh.receiveShadow = true; mesh.castShadow = false;
    group.add(mesh);
  }

  const out = CUSHION + WOOD;
  const frame = new THREE.Shape();
  frame.moveTo(-out, -out); frame.lineTo(T.width + out, -out); frame.lineTo(T.width + out, T.length + out); frame.lineTo(-out, T.length + out); frame.closePath();
  frame.holes.push(contour(T, CUSHION, list, false));
  const rails = new THREE.Mesh(new THREE.ExtrudeGeometry(frame, { depth: RAIL_TOP + BODY, bevelEnabled: false, curveSegments: 10 }), wood);
  rails.position.z = -BODY; rails.receiveShadow = true;
  group.add(rails);

  // the pockets: black holes going down, closed at the bottom
  // (only their inside is drawn: from the table one sees into the hole, not its near wall)
  const well = new THREE.CylinderGeometry(1, 1, DEPTH + RAIL_TOP, 24, 1, true);
  const inside = new THREE.MeshBasicMaterial({ color: 0x050505, side: THREE.BackSide });
  const bottom = new THREE.CircleGeometry(1, 24);
  for (const h of list) {
    const w = new THREE.Mesh(well, inside); w.rotation.x = Math.PI / 2; w.scale.set(h.r - 0.0008, 1, h.r - 0.0008);
    w.position.set(h.x, h.y, (RAIL_TOP - DEPTH) / 2); group.add(w);
    const b = new THREE.Mesh(bottom, black); b.scale.setScalar(h.r); b.position.set(h.x, h.y, -DEPTH + 0.001); group.add(b);
    // the leather round the pocket, on the rail
    const ring = new THREE.Mesh(new THREE.RingGeometry(h.r, h.r + 0.014, 24, 1), black);
    ring.position.set(h.x, h.y, RAIL_TOP + 0.0008); group.add(ring);
  }

  // diamonds on the rails, as the 2D table has them
  const disc = new THREE.CircleGeometry(0.0055, 12);
  const mid = CUSHION + WOOD / 2;
  const put = (x, y) => { const d = new THREE.Mesh(disc, ivory); d.position.set(x, y, RAIL_TOP + 0.0005); group.add(d); };
  for (let k = 1; k < 8; k++) { if (k === 4) continue; put(-mid, (k * T.length) / 8); put(T.width + mid, (k * T.length) / 8); }
  for (let k = 1; k < 4; k++) { put((k * T.width) / 4, -mid); put((k * T.width) / 4, T.length + mid); }

  // the head string and the foot spot, faint on the cloth
  const string = new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(0, T.head_string, 0.0005), new THREE.Vector3(T.width, T.head_string, 0.0005)]);
  group.add(new THREE.Line(string, line));
  const spot = new THREE.Mesh(new THREE.CircleGeometry(0.006, 12), new THREE.MeshBasicMaterial({ color: 0xffffff, transparent: true, opacity: 0.5 }));
  spot.position.set(T.foot_spot[0], T.foot_spot[1], 0.0005); group.add(spot);

  // the floor, far below, to catch the eye in low views
  const floor = new THREE.Mesh(new THREE.PlaneGeometry(12, 12), new THREE.MeshLambertMaterial({ color: 0x2b2620 }));
  floor.position.set(T.width / 2, T.length / 2, -0.76); group.add(floor);
  return holes;
}
