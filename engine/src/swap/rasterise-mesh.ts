/**
 * Visits every pixel of a `width` x `height` box inside a front-facing triangle of `mesh` (points
 * in the box's coordinates), with the pixel's barycentric weights (u, v) towards the triangle's
 * second and third corners. Triangles wound against the mesh's dominant winding face away from
 * the camera (turned out of view by the head's pose) and are skipped, so hidden parts of the face
 * never cover visible ones.
 */
export function rasteriseMesh(
  mesh: Float32Array,
  triangles: Uint16Array,
  width: number,
  height: number,
  visit: (triangle: number, pixel: number, u: number, v: number) => void,
): void {
  const winding = Math.sign(totalSignedArea(mesh, triangles));
  for (let t = 0; t < triangles.length; t += 3) {
    const a = triangles[t]! * 2, b = triangles[t + 1]! * 2, c = triangles[t + 2]! * 2;
    const x0 = mesh[a]!, y0 = mesh[a + 1]!;
    const x1 = mesh[b]!, y1 = mesh[b + 1]!;
    const x2 = mesh[c]!, y2 = mesh[c + 1]!;
    const area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
    if (area * winding <= 1e-3) continue;
    // Barycentric weights are affine in (x, y).
    const w1x = (y2 - y0) / area, w1y = -(x2 - x0) / area;
    const w2x = -(y1 - y0) / area, w2y = (x1 - x0) / area;
    const top = Math.max(0, Math.ceil(Math.min(y0, y1, y2)));
    const bottom = Math.min(height - 1, Math.floor(Math.max(y0, y1, y2)));
    const left = Math.max(0, Math.ceil(Math.min(x0, x1, x2)));
    const right = Math.min(width - 1, Math.floor(Math.max(x0, x1, x2)));
    const eps = -1e-4;
    for (let y = top; y <= bottom; y++) {
      for (let x = left; x <= right; x++) {
        const u = (x - x0) * w1x + (y - y0) * w1y;
        const v = (x - x0) * w2x + (y - y0) * w2y;
        if (u < eps || v < eps || u + v > 1 - eps) continue;
        visit(t / 3, y * width + x, u, v);
      }
    }
  }
}

/** A mask of the box: 1 on the pixels of the front-facing triangles `selected` flags. */
export function paintTriangles(mesh: Float32Array, triangles: Uint16Array, selected: Uint8Array, width: number, height: number): Uint8Array {
  const mask = new Uint8Array(width * height);
  rasteriseMesh(mesh, triangles, width, height, (triangle, pixel) => {
    if (selected[triangle]) mask[pixel] = 1;
  });
  return mask;
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
