/**
 * Opacity of the swapped face: 0 outside `inside`, rising to 1 over `width` pixels measured
 * inwards from the region's edge (the face outline, and the mouth interior kept from the target),
 * so no hard seam is left where the new face meets the original pixels (distances: `distanceInside`).
 */
export function featherMask(inside: Uint8Array, boxWidth: number, boxHeight: number, width: number): Float32Array {
  const alpha = chamfer(inside, boxWidth, boxHeight);
  for (let p = 0; p < alpha.length; p++) {
    const t = Math.min(1, alpha[p]! / 3 / width);
    alpha[p] = t * t * (3 - 2 * t);
  }
  return alpha;
}

/** Per pixel of the box, its distance in pixels from the nearest pixel outside `inside` (0 outside). */
export function distanceInside(inside: Uint8Array, boxWidth: number, boxHeight: number): Float32Array {
  const distance = chamfer(inside, boxWidth, boxHeight);
  for (let p = 0; p < distance.length; p++) distance[p]! /= 3;
  return distance;
}

/** Distances from outside `inside`, in thirds of a pixel, by a two-pass 3-4 chamfer transform. */
function chamfer(inside: Uint8Array, boxWidth: number, boxHeight: number): Float32Array {
  const far = 1e6;
  const distance = new Float32Array(inside.length);
  for (let p = 0; p < inside.length; p++) distance[p] = inside[p] ? far : 0;
  for (let y = 0; y < boxHeight; y++) {
    for (let x = 0; x < boxWidth; x++) {
      const p = y * boxWidth + x;
      if (!inside[p]) continue;
      let d = distance[p]!;
      if (x > 0) d = Math.min(d, distance[p - 1]! + 3);
      if (y > 0) {
        d = Math.min(d, distance[p - boxWidth]! + 3);
        if (x > 0) d = Math.min(d, distance[p - boxWidth - 1]! + 4);
        if (x < boxWidth - 1) d = Math.min(d, distance[p - boxWidth + 1]! + 4);
      }
      distance[p] = d;
    }
  }
  for (let y = boxHeight - 1; y >= 0; y--) {
    for (let x = boxWidth - 1; x >= 0; x--) {
      const p = y * boxWidth + x;
      if (!inside[p]) continue;
      let d = distance[p]!;
      if (x < boxWidth - 1) d = Math.min(d, distance[p + 1]! + 3);
      if (y < boxHeight - 1) {
        d = Math.min(d, distance[p + boxWidth]! + 3);
        if (x < boxWidth - 1) d = Math.min(d, distance[p + boxWidth + 1]! + 4);
        if (x > 0) d = Math.min(d, distance[p + boxWidth - 1]! + 4);
      }
      distance[p] = d;
    }
  }
  return distance;
}
