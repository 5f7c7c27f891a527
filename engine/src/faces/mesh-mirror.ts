/**
 * For each mesh point, its mirror image across the face's vertical centre line (points on the
 * line map to themselves), found from Human's UV map of the mesh: the point whose texture
 * coordinate is nearest to (1 - u, v).
 */
export function meshMirror(uv: readonly (readonly [number, number])[]): Uint16Array {
  const mirror = new Uint16Array(uv.length);
  uv.forEach(([u, v], i) => {
    let best = i;
    let bestDistance = Infinity;
    uv.forEach(([u2, v2], j) => {
      const d = (1 - u - u2) ** 2 + (v - v2) ** 2;
      if (d < bestDistance) {
        best = j;
        bestDistance = d;
      }
    });
    mirror[i] = best;
  });
  return mirror;
}

/**
 * How far a face is turned, from -1 to 1: the share of the mesh's projected area on the face's
 * own right half minus that on its left half. A face turned towards its left shows more of its
 * right half. `side` gives each triangle's half (-1 left, 1 right, 0 on the centre line).
 */
export function meshTurn(mesh: Float32Array, triangles: Uint16Array, side: Int8Array): number {
  let right = 0;
  let left = 0;
  for (let t = 0; t < triangles.length; t += 3) {
    const s = side[t / 3]!;
    if (s === 0) continue;
    const a = triangles[t]! * 2, b = triangles[t + 1]! * 2, c = triangles[t + 2]! * 2;
    const area = Math.abs((mesh[b]! - mesh[a]!) * (mesh[c + 1]! - mesh[a + 1]!) - (mesh[c]! - mesh[a]!) * (mesh[b + 1]! - mesh[a + 1]!));
    if (s > 0) right += area;
    else left += area;
  }
  return right + left > 0 ? (right - left) / (right + left) : 0;
}

/** Each triangle's half of the face by the mean u of its corners in the UV map. */
export function triangleSides(triangles: Uint16Array, uv: readonly (readonly [number, number])[]): Int8Array {
  const side = new Int8Array(triangles.length / 3);
  for (let t = 0; t < triangles.length; t += 3) {
    const u = (uv[triangles[t]!]![0] + uv[triangles[t + 1]!]![0] + uv[triangles[t + 2]!]![0]) / 3;
    side[t / 3] = Math.abs(u - 0.5) < 0.01 ? 0 : u > 0.5 ? 1 : -1;
  }
  return side;
}
