/**
 * Per pixel of a `width` x `height` box, the front-facing triangle of `mesh` (points in the box's
 * coordinates) that covers it, or -1; where two triangles share an edge, the later one. One map
 * serves the warp and the masks drawn on the same mesh: rasterising the mesh once per mask, each
 * pixel through a callback, was a tenth of a video frame's swap.
 */
export function triangleMap(mesh: Float32Array, triangles: Uint16Array, width: number, height: number, weights = barycentricWeights(mesh, triangles)): Int16Array {
  const map = new Int16Array(width * height).fill(-1);
  forEachSpan(mesh, triangles, width, height, weights, (t, from, to) => map.fill(t, from, to));
  return map;
}

/**
 * Per pixel of the box, the bitwise or of `flags` over every front-facing triangle that covers it
 * (0 where none does): a pixel on the edge between two triangles has both triangles' flags.
 */
export function triangleFlags(mesh: Float32Array, triangles: Uint16Array, flags: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height);
  forEachSpan(mesh, triangles, width, height, barycentricWeights(mesh, triangles), (t, from, to) => {
    for (let p = from; p < to; p++) out[p]! |= flags[t]!;
  });
  return out;
}

/**
 * Visits, row by row, the runs of pixels [from, to) inside each front-facing triangle (in
 * triangle order). Triangles wound against the mesh's dominant winding face away from the camera
 * (turned out of view by the head's pose) are skipped, so hidden parts of the face never cover
 * visible ones.
 */
function forEachSpan(mesh: Float32Array, triangles: Uint16Array, width: number, height: number, weights: Float64Array, visit: (triangle: number, from: number, to: number) => void): void {
  const eps = -1e-4;
  for (let t = 0; t < triangles.length / 3; t++) {
    const k = t * 6;
    const x0 = weights[k]!, y0 = weights[k + 1]!, w1x = weights[k + 2]!, w1y = weights[k + 3]!, w2x = weights[k + 4]!, w2y = weights[k + 5]!;
    if (Number.isNaN(w1x)) continue;
    const a = triangles[t * 3]! * 2, b = triangles[t * 3 + 1]! * 2, c = triangles[t * 3 + 2]! * 2;
    const top = Math.max(0, Math.ceil(Math.min(mesh[a + 1]!, mesh[b + 1]!, mesh[c + 1]!)));
    const bottom = Math.min(height - 1, Math.floor(Math.max(mesh[a + 1]!, mesh[b + 1]!, mesh[c + 1]!)));
    const left = Math.max(0, Math.ceil(Math.min(mesh[a]!, mesh[b]!, mesh[c]!)));
    const right = Math.min(width - 1, Math.floor(Math.max(mesh[a]!, mesh[b]!, mesh[c]!)));
    for (let y = top; y <= bottom; y++) {
      // A triangle's pixels on a row are one run.
      let from = -1;
      let x = left;
      for (; x <= right; x++) {
        const u = (x - x0) * w1x + (y - y0) * w1y;
        const v = (x - x0) * w2x + (y - y0) * w2y;
        const inside = u >= eps && v >= eps && u + v <= 1 - eps;
        if (inside && from < 0) from = x;
        else if (!inside && from >= 0) break;
      }
      if (from >= 0) visit(t, y * width + from, y * width + x);
    }
  }
}

/**
 * Per triangle, six numbers: its first corner (x0, y0) and the gradients of its barycentric
 * weights towards the second and third corners, so a pixel (x, y) has u = (x - x0) w1x +
 * (y - y0) w1y and v = (x - x0) w2x + (y - y0) w2y. NaN for triangles facing away (see
 * `triangleMap`).
 */
export function barycentricWeights(mesh: Float32Array, triangles: Uint16Array): Float64Array {
  const out = new Float64Array((triangles.length / 3) * 6).fill(Number.NaN);
  const winding = Math.sign(totalSignedArea(mesh, triangles));
  for (let t = 0; t < triangles.length / 3; t++) {
    const a = triangles[t * 3]! * 2, b = triangles[t * 3 + 1]! * 2, c = triangles[t * 3 + 2]! * 2;
    const x0 = mesh[a]!, y0 = mesh[a + 1]!;
    const x1 = mesh[b]!, y1 = mesh[b + 1]!;
    const x2 = mesh[c]!, y2 = mesh[c + 1]!;
    const area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
    if (area * winding <= 1e-3) continue;
    out.set([x0, y0, (y2 - y0) / area, -(x2 - x0) / area, -(y1 - y0) / area, (x1 - x0) / area], t * 6);
  }
  return out;
}

/** A mask from a triangle map: 1 on the pixels whose triangle `selected` flags. */
export function maskOf(map: Int16Array, selected: Uint8Array): Uint8Array {
  const mask = new Uint8Array(map.length);
  for (let p = 0; p < map.length; p++) if (map[p]! >= 0 && selected[map[p]!]) mask[p] = 1;
  return mask;
}

/** A mask of the box: 1 on the pixels of the front-facing triangles `selected` flags. */
export function paintTriangles(mesh: Float32Array, triangles: Uint16Array, selected: Uint8Array, width: number, height: number): Uint8Array {
  return maskOf(triangleMap(mesh, triangles, width, height), selected);
}

/** Twice the summed signed area of the mesh's triangles: its sign is the mesh's winding. */
export function totalSignedArea(mesh: Float32Array, triangles: Uint16Array): number {
  let sum = 0;
  for (let t = 0; t < triangles.length; t += 3) {
    const a = triangles[t]! * 2, b = triangles[t + 1]! * 2, c = triangles[t + 2]! * 2;
    sum += (mesh[b]! - mesh[a]!) * (mesh[c + 1]! - mesh[a + 1]!) - (mesh[c]! - mesh[a]!) * (mesh[b + 1]! - mesh[a + 1]!);
  }
  return sum;
}
