import type { Box } from '../faces/face-order';
import type { FaceTexture } from './prepared-source';

/** The source face drawn over the target face's box, before any colour work. */
export interface WarpedFace {
  /** RGB as floats 0..255, 3 per pixel of the box; meaningful where `covered` is 1. */
  rgb: Float32Array;
  /** 1 where a front-facing mesh triangle of the target was painted. */
  covered: Uint8Array;
}

/**
 * Per-triangle affine warp: each triangle of the target face's mesh is filled with the pixels of
 * the same triangle of the source face, sampled bilinearly. Triangles that face away in the
 * target (wound against the face's dominant winding, i.e. turned out of view by the head's pose)
 * are skipped so that hidden parts of the face do not paint over visible ones.
 */
export function warpFace(source: FaceTexture, targetMesh: Float32Array, box: Box, triangles: Uint16Array): WarpedFace {
  const { width, height } = box;
  const rgb = new Float32Array(width * height * 3);
  const covered = new Uint8Array(width * height);
  const local = new Float32Array(targetMesh.length);
  for (let i = 0; i < local.length; i += 2) {
    local[i] = targetMesh[i]! - box.x;
    local[i + 1] = targetMesh[i + 1]! - box.y;
  }
  const winding = Math.sign(totalSignedArea(local, triangles));
  for (let t = 0; t < triangles.length; t += 3) {
    const a = triangles[t]! * 2;
    const b = triangles[t + 1]! * 2;
    const c = triangles[t + 2]! * 2;
    const x0 = local[a]!, y0 = local[a + 1]!;
    const x1 = local[b]!, y1 = local[b + 1]!;
    const x2 = local[c]!, y2 = local[c + 1]!;
    const area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
    if (area * winding <= 1e-3) continue;
    // Barycentric weights of the target triangle are affine in (x, y); the same weights on the
    // source triangle give the sampling position.
    const w1x = (y2 - y0) / area, w1y = -(x2 - x0) / area;
    const w2x = -(y1 - y0) / area, w2y = (x1 - x0) / area;
    const sx0 = source.mesh[a]!, sy0 = source.mesh[a + 1]!;
    const dsx1 = source.mesh[b]! - sx0, dsy1 = source.mesh[b + 1]! - sy0;
    const dsx2 = source.mesh[c]! - sx0, dsy2 = source.mesh[c + 1]! - sy0;
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
        const p = y * width + x;
        sampleBilinear(source, sx0 + u * dsx1 + v * dsx2, sy0 + u * dsy1 + v * dsy2, rgb, p * 3);
        covered[p] = 1;
      }
    }
  }
  return { rgb, covered };
}

function totalSignedArea(mesh: Float32Array, triangles: Uint16Array): number {
  let sum = 0;
  for (let t = 0; t < triangles.length; t += 3) {
    const a = triangles[t]! * 2, b = triangles[t + 1]! * 2, c = triangles[t + 2]! * 2;
    sum += (mesh[b]! - mesh[a]!) * (mesh[c + 1]! - mesh[a + 1]!) - (mesh[c]! - mesh[a]!) * (mesh[b + 1]! - mesh[a + 1]!);
  }
  return sum;
}

function sampleBilinear(image: FaceTexture, sx: number, sy: number, out: Float32Array, at: number): void {
  const x = Math.min(Math.max(sx, 0), image.width - 1.001);
  const y = Math.min(Math.max(sy, 0), image.height - 1.001);
  const ix = Math.floor(x), iy = Math.floor(y);
  const fx = x - ix, fy = y - iy;
  const i00 = (iy * image.width + ix) * 3;
  const i10 = i00 + 3;
  const i01 = i00 + image.width * 3;
  const i11 = i01 + 3;
  const src = image.rgb;
  for (let k = 0; k < 3; k++) {
    const top = src[i00 + k]! + (src[i10 + k]! - src[i00 + k]!) * fx;
    const bottom = src[i01 + k]! + (src[i11 + k]! - src[i01 + k]!) * fx;
    out[at + k] = top + (bottom - top) * fy;
  }
}
