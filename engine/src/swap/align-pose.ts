/** A face mesh in 3D: x, y pairs in pixels and each point's depth in the same units. */
export interface MeshPoints {
  mesh: Float32Array;
  depth: Float32Array;
}

/**
 * `from`'s points turned, scaled and moved onto `to` by the similarity transform in 3D that fits
 * the points where `fit` is set best (least squares; Horn's closed form with unit quaternions), as
 * x, y pairs: the `from` face seen in `to`'s pose. A frontal face aligned on a profile in the
 * image plane keeps its far eye beside the near one, out over the background; turned in depth,
 * its far side is squeezed behind the nose as the profile's own is.
 */
export function alignInPose(from: MeshPoints, to: MeshPoints, fit: (point: number) => boolean): Float32Array {
  const n = from.depth.length;
  const a = centre(from, fit);
  const b = centre(to, fit);
  // S[i][j] = sum over the fitted points of a_i * b_j, both centred.
  const s = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  let norm = 0;
  for (let p = 0; p < n; p++) {
    if (!fit(p)) continue;
    const pa = point(from, p, a), pb = point(to, p, b);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) s[i * 3 + j]! += pa[i]! * pb[j]!;
    norm += pa[0]! ** 2 + pa[1]! ** 2 + pa[2]! ** 2;
  }
  const [xx, xy, xz, yx, yy, yz, zx, zy, zz] = s as [number, number, number, number, number, number, number, number, number];
  // The unit quaternion of the best rotation is the eigenvector of N's largest eigenvalue.
  const q = largestEigenvector([
    [xx + yy + zz, yz - zy, zx - xz, xy - yx],
    [yz - zy, xx - yy - zz, xy + yx, zx + xz],
    [zx - xz, xy + yx, -xx + yy - zz, yz + zy],
    [xy - yx, zx + xz, yz + zy, -xx - yy + zz],
  ]);
  const r = rotation(q);
  let along = 0;
  for (let p = 0; p < n; p++) {
    if (!fit(p)) continue;
    const pa = point(from, p, a), pb = point(to, p, b);
    const ra = turn(r, pa);
    along += ra[0]! * pb[0]! + ra[1]! * pb[1]! + ra[2]! * pb[2]!;
  }
  const scale = norm > 0 ? along / norm : 1;
  const out = new Float32Array(n * 2);
  for (let p = 0; p < n; p++) {
    const ra = turn(r, point(from, p, a));
    out[p * 2] = b[0]! + scale * ra[0]!;
    out[p * 2 + 1] = b[1]! + scale * ra[1]!;
  }
  return out;
}

/** `from` mapped by the similarity transform in the image plane that best fits it onto `to` (least squares). */
export function alignInPlane(from: Float32Array, to: Float32Array): Float32Array {
  const n = from.length / 2;
  let fx = 0, fy = 0, tx = 0, ty = 0;
  for (let i = 0; i < n; i++) {
    fx += from[i * 2]!;
    fy += from[i * 2 + 1]!;
    tx += to[i * 2]!;
    ty += to[i * 2 + 1]!;
  }
  fx /= n; fy /= n; tx /= n; ty /= n;
  // With centred points a (from) and b (to), the best b ~ [[p, -q], [q, p]] a has
  // p = sum(a.b) / |a|^2 and q = sum(a x b) / |a|^2.
  let dot = 0, cross = 0, norm = 0;
  for (let i = 0; i < n; i++) {
    const ax = from[i * 2]! - fx, ay = from[i * 2 + 1]! - fy;
    const bx = to[i * 2]! - tx, by = to[i * 2 + 1]! - ty;
    dot += ax * bx + ay * by;
    cross += ax * by - ay * bx;
    norm += ax * ax + ay * ay;
  }
  const p = dot / norm, q = cross / norm;
  const out = new Float32Array(from.length);
  for (let i = 0; i < n; i++) {
    const ax = from[i * 2]! - fx, ay = from[i * 2 + 1]! - fy;
    out[i * 2] = tx + p * ax - q * ay;
    out[i * 2 + 1] = ty + q * ax + p * ay;
  }
  return out;
}

function centre(points: MeshPoints, fit: (point: number) => boolean): number[] {
  const c = [0, 0, 0];
  let count = 0;
  for (let p = 0; p < points.depth.length; p++) {
    if (!fit(p)) continue;
    c[0]! += points.mesh[p * 2]!;
    c[1]! += points.mesh[p * 2 + 1]!;
    c[2]! += points.depth[p]!;
    count++;
  }
  return c.map((v) => v / Math.max(1, count));
}

function point(points: MeshPoints, p: number, c: number[]): number[] {
  return [points.mesh[p * 2]! - c[0]!, points.mesh[p * 2 + 1]! - c[1]!, points.depth[p]! - c[2]!];
}

function turn(r: number[], v: number[]): number[] {
  return [0, 1, 2].map((i) => r[i * 3]! * v[0]! + r[i * 3 + 1]! * v[1]! + r[i * 3 + 2]! * v[2]!);
}

/** The rotation matrix (row-major) of the unit quaternion (w, x, y, z). */
function rotation([w, x, y, z]: number[]): number[] {
  const [ww, xx, yy, zz] = [w! * w!, x! * x!, y! * y!, z! * z!];
  return [
    ww + xx - yy - zz, 2 * (x! * y! - w! * z!), 2 * (x! * z! + w! * y!),
    2 * (y! * x! + w! * z!), ww - xx + yy - zz, 2 * (y! * z! - w! * x!),
    2 * (z! * x! - w! * y!), 2 * (z! * y! + w! * x!), ww - xx - yy + zz,
  ];
}

/**
 * The unit eigenvector of the largest eigenvalue of a symmetric 4 x 4 matrix, by cyclic Jacobi
 * rotations (a few sweeps reach float precision at this size; a linear algebra package for one
 * 4 x 4 matrix per swap would be the heavier part).
 */
function largestEigenvector(matrix: number[][]): number[] {
  const m = matrix.map((row) => row.slice());
  const v: number[][] = [0, 1, 2, 3].map((i) => [0, 1, 2, 3].map((j) => (i === j ? 1 : 0)));
  for (let sweep = 0; sweep < 12; sweep++) {
    let off = 0;
    for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) off += m[i]![j]! ** 2;
    if (off < 1e-18 * (1 + m.reduce((sum, row, i) => sum + row[i]! ** 2, 0))) break;
    for (let p = 0; p < 4; p++) {
      for (let q = p + 1; q < 4; q++) {
        const apq = m[p]![q]!;
        if (apq === 0) continue;
        const theta = (m[q]![q]! - m[p]![p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1), s = t * c;
        for (let k = 0; k < 4; k++) {
          const mkp = m[k]![p]!, mkq = m[k]![q]!;
          m[k]![p] = c * mkp - s * mkq;
          m[k]![q] = s * mkp + c * mkq;
        }
        for (let k = 0; k < 4; k++) {
          const mpk = m[p]![k]!, mqk = m[q]![k]!;
          m[p]![k] = c * mpk - s * mqk;
          m[q]![k] = s * mpk + c * mqk;
        }
        for (let k = 0; k < 4; k++) {
          const vkp = v[k]![p]!, vkq = v[k]![q]!;
          v[k]![p] = c * vkp - s * vkq;
          v[k]![q] = s * vkp + c * vkq;
        }
      }
    }
  }
  let best = 0;
  for (let i = 1; i < 4; i++) if (m[i]![i]! > m[best]![best]!) best = i;
  return v.map((row) => row[best]!);
}
