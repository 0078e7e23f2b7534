// The shot as the engine computed it: per ball, pieces [t0, t1, x0, y0, vx, vy, ax, ay, z0, vz,
// az, wx, wy, wz, awx, awy, awz] of constant-acceleration motion. Nothing is simulated here:
// x(t) = x0 + vx dt + ax dt^2 / 2 (z: the height above the cloth, for a ball in flight), and the
// angular velocity w(t) = w0 + aw dt (rad/s, table frame).

export function positionAt(pieces, t) {
  let piece = pieces[0];
  for (const p of pieces) {
    if (p[0] <= t) piece = p;
    else break;
  }
  const dt = Math.max(t - piece[0], 0);
  return [piece[2] + piece[4] * dt + (piece[6] * dt * dt) / 2, piece[3] + piece[5] * dt + (piece[7] * dt * dt) / 2];
}

// How high the ball's centre is above where it sits on the cloth (m).
export function heightAt(pieces, t) {
  let piece = pieces[0];
  for (const p of pieces) {
    if (p[0] <= t) piece = p;
    else break;
  }
  if (piece.length < 11) return 0;
  const dt = Math.max(t - piece[0], 0);
  return Math.max(0, piece[8] + piece[9] * dt + (piece[10] * dt * dt) / 2);
}

// The angular velocity (rad/s) at time t, written into out ([wx, wy, wz]): no allocation.
export function spinAt(pieces, t, out) {
  let piece = pieces[0];
  for (const p of pieces) {
    if (p[0] <= t) piece = p;
    else break;
  }
  if (piece.length < 17) { out[0] = 0; out[1] = 0; out[2] = 0; return out; }
  const dt = Math.max(t - piece[0], 0);
  out[0] = piece[11] + piece[14] * dt; out[1] = piece[12] + piece[15] * dt; out[2] = piece[13] + piece[16] * dt;
  return out;
}

export const LIFT = 0.25; // m: a ball this high is drawn twice its size (closer to the eye)

export const SINK = 0.35; // s: a pocketed ball sinks into its pocket, then goes to the tray

// Every ball's drawing state at time t: {id: {x, y, scale, gone}}.
export function frame(trajectory, t, pocketCentres) {
  const out = {};
  for (const [id, ball] of Object.entries(trajectory.balls)) {
    let [x, y] = positionAt(ball.pieces, t);
    let scale = 1 + heightAt(ball.pieces, t) / LIFT;
    let gone = ball.off_table_at != null && t >= ball.off_table_at;
    if (ball.pocketed_at !== null && t >= ball.pocketed_at) {
      const k = Math.min((t - ball.pocketed_at) / SINK, 1);
      const [cx, cy] = pocketCentres[ball.pocket];
      x += (cx - x) * k;
      y += (cy - y) * k;
      scale = 1 - 0.6 * k;
      gone = k >= 1;
    }
    out[id] = { x, y, scale, gone };
  }
  return out;
}
