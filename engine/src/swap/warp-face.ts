import type { Box } from '../faces/face-order';
import type { FaceTexture } from './prepared-source';
import { rasteriseMesh } from './rasterise-mesh';

/** The source face drawn over the target face's box, before any colour work. */
export interface WarpedFace {
  /** RGB as floats 0..255, 3 per pixel of the box; meaningful where `covered` is 1. */
  rgb: Float32Array;
  /** 1 where a front-facing mesh triangle of the target was painted. */
  covered: Uint8Array;
  /** Per pixel, how far what was drawn there is the source's own face (`FaceTexture.likeness`), 0..1. */
  confidence: Float32Array;
  /** `targetMesh` in the box's coordinates. */
  mesh: Float32Array;
}

/** The two views of the source: the one to draw, and the other (mirrored, or as photographed). */
export interface WarpSources {
  primary: FaceTexture;
  secondary: FaceTexture;
}

/**
 * Per-triangle affine warp: each front-facing triangle of the target face's mesh is filled with
 * the pixels of the same triangle of the source face, sampled bilinearly, from the primary view;
 * where the primary's pixel is not the face's own skin (hair or a hand across one cheek) and the
 * secondary's is, the secondary's takes its place as far as it is skin.
 */
export function warpFace(sources: WarpSources, targetMesh: Float32Array, box: Box, triangles: Uint16Array): WarpedFace {
  const { width, height } = box;
  const { primary, secondary } = sources;
  const rgb = new Float32Array(width * height * 3);
  const other = new Float32Array(3);
  const covered = new Uint8Array(width * height);
  const confidence = new Float32Array(width * height);
  const mesh = toBox(targetMesh, box);
  rasteriseMesh(mesh, triangles, width, height, (triangle, pixel, u, v) => {
    // The same barycentric weights on the source triangle give the sampling position.
    const a = triangles[triangle * 3]!, b = triangles[triangle * 3 + 1]!, c = triangles[triangle * 3 + 2]!;
    const own = sampleAt(primary, a, b, c, u, v, rgb, pixel * 3);
    if (own >= 1) {
      confidence[pixel] = 1;
    } else {
      const seen = sampleAt(secondary, a, b, c, u, v, other, 0);
      const mix = (1 - own) * seen;
      for (let k = 0; k < 3; k++) rgb[pixel * 3 + k]! += mix * (other[k]! - rgb[pixel * 3 + k]!);
      confidence[pixel] = (1 - mix) * own + mix * seen;
    }
    covered[pixel] = 1;
  });
  return { rgb, covered, confidence, mesh };
}

/** Samples `texture` at barycentric (u, v) of its triangle (a, b, c) into `out` at `at`; returns the likeness there (0 off the photo). */
function sampleAt(texture: FaceTexture, a: number, b: number, c: number, u: number, v: number, out: Float32Array, at: number): number {
  const from = texture.mesh;
  const sx = from[a * 2]! + u * (from[b * 2]! - from[a * 2]!) + v * (from[c * 2]! - from[a * 2]!);
  const sy = from[a * 2 + 1]! + u * (from[b * 2 + 1]! - from[a * 2 + 1]!) + v * (from[c * 2 + 1]! - from[a * 2 + 1]!);
  sampleBilinear(texture, sx, sy, out, at);
  // A point of the mesh beyond the photo's edge has no pixels of its own: the clamped sample is the edge's.
  if (sx < -0.5 || sy < -0.5 || sx > texture.width - 0.5 || sy > texture.height - 0.5) return 0;
  const x = Math.min(Math.max(Math.round(sx), 0), texture.width - 1);
  const y = Math.min(Math.max(Math.round(sy), 0), texture.height - 1);
  return texture.likeness[y * texture.width + x]! / 255;
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
