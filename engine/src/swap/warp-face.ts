import type { Box } from '../faces/face-order';
import type { FaceTexture } from './prepared-source';
import { rasteriseMesh } from './rasterise-mesh';

/** The source face drawn over the target face's box, before any colour work. */
export interface WarpedFace {
  /** RGB as floats 0..255, 3 per pixel of the box; meaningful where `covered` is 1. */
  rgb: Float32Array;
  /** 1 where a front-facing mesh triangle of the target was painted. */
  covered: Uint8Array;
  /** `targetMesh` in the box's coordinates. */
  mesh: Float32Array;
}

/**
 * Per-triangle affine warp: each front-facing triangle of the target face's mesh is filled with
 * the pixels of the same triangle of the source face, sampled bilinearly.
 */
export function warpFace(source: FaceTexture, targetMesh: Float32Array, box: Box, triangles: Uint16Array): WarpedFace {
  const { width, height } = box;
  const rgb = new Float32Array(width * height * 3);
  const covered = new Uint8Array(width * height);
  const mesh = toBox(targetMesh, box);
  const from = source.mesh;
  rasteriseMesh(mesh, triangles, width, height, (triangle, pixel, u, v) => {
    // The same barycentric weights on the source triangle give the sampling position.
    const a = triangles[triangle * 3]! * 2, b = triangles[triangle * 3 + 1]! * 2, c = triangles[triangle * 3 + 2]! * 2;
    const sx = from[a]! + u * (from[b]! - from[a]!) + v * (from[c]! - from[a]!);
    const sy = from[a + 1]! + u * (from[b + 1]! - from[a + 1]!) + v * (from[c + 1]! - from[a + 1]!);
    sampleBilinear(source, sx, sy, rgb, pixel * 3);
    covered[pixel] = 1;
  });
  return { rgb, covered, mesh };
}

/** Mesh points moved into a box's coordinates. */
export function toBox(mesh: Float32Array, box: Box): Float32Array {
  const local = new Float32Array(mesh.length);
  for (let i = 0; i < local.length; i += 2) {
    local[i] = mesh[i]! - box.x;
    local[i + 1] = mesh[i + 1]! - box.y;
  }
  return local;
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
