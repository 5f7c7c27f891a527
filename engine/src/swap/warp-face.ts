import type { Box } from '../faces/face-order';
import type { FaceTexture } from './prepared-source';
import { maskedBlur } from './masked-blur';
import { barycentricWeights, totalSignedArea, triangleMap } from './rasterise-mesh';
import { warpPixels } from './warp-pixels';

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
  /** Per pixel, the triangle of `mesh` drawn there, or -1 (see `triangleMap`). */
  map: Int16Array;
  /**
   * Per pixel, 1 where the source triangle drawn there is about as large as the target's (for the
   * face's scale), falling to 0 where a sliver of the source was stretched over a large triangle;
   * null when every triangle drawn is fully sharp (most pairs turned alike).
   */
  sharpness: Float32Array | null;
}

/** The two views of the source: the one to draw, and the other (mirrored, or as photographed). */
export interface WarpSources {
  primary: FaceTexture;
  secondary: FaceTexture;
}

/**
 * Per-triangle affine warp: each front-facing triangle of the target face's mesh is filled with
 * the pixels of the same triangle of the source face, sampled bilinearly, from the primary view,
 * or from the secondary where that one shows it better:
 * - where the primary is stretched (see `STRETCH_FROM`) and the secondary less so, by how much
 *   sharper it is, and as far as its pixel is skin: a turned source's far side is a sliver, and
 *   its mirrored near side shows the same part of the face whole (the target's own skin stayed
 *   there before, and with it some of the target's identity);
 * - where the primary's pixel is not the face's own skin (hair or a hand across one cheek), as far
 *   as the secondary's is skin and sharp there. The secondary often shows the far side squeezed
 *   near the outline: where hair covers one cheek of photo 6's face 1, her other cheek, mirrored
 *   and stretched, left stripes across photo 3's face 1.
 * What the secondary draws is first brought to the primary's light (`mixMatched`). How far it takes
 * over is judged on both views' sharpness faded across each triangle from its corners
 * (`pointSharpness`), so it has no triangle's edges: with the secondary's stepping at them, light
 * angular patches lay beside the eyes of every target of source 6-1; with the primary's, the other
 * view's patch beside a turned source's far eye ended in a straight edge (a light shard by the eye
 * on every target of source 5-4).
 */
export function warpFace(sources: WarpSources, targetMesh: Float32Array, box: Box, triangles: Uint16Array): WarpedFace {
  const { width, height } = box;
  const { primary, secondary } = sources;
  const mesh = toBox(targetMesh, box);
  const bySharpness = triangleSharpness(primary.mesh, mesh, triangles);
  const ownSharpness = pointSharpness(bySharpness, triangles, mesh.length / 2);
  const otherSharpness = pointSharpness(triangleSharpness(secondary.mesh, mesh, triangles), triangles, mesh.length / 2);
  const weights = barycentricWeights(mesh, triangles);
  const map = triangleMap(mesh, triangles, width, height, weights);
  const { rgb, covered, confidence, sharpness, other } = warpPixels({ map, weights, triangles, width, height, bySharpness, ownSharpness, otherSharpness, primary, secondary });
  if (other.mixed.length > 0) mixMatched(rgb, other.rgb, other.mixes, other.both, other.mixed, width, height);
  return { rgb, covered, confidence, mesh, map, sharpness };
}

/** Radius over which the two views' difference in light is averaged, as a share of the box's short side. */
const LIGHT_MATCH_RADIUS = 0.08;
/** Share of surely-skin pixels around a pixel from which the light difference there is fully trusted. */
const FULL_MATCH_WEIGHT = 0.15;

/**
 * Mixes the secondary view into `rgb` (the primary) on the `mixed` pixels by `mixes`, its light first
 * brought to the primary's: the secondary shows the other half of the face, lit otherwise (a lit
 * temple standing in for one in shadow came through as a pale patch, edged by what was left of the
 * hair it replaced). The difference is the two views' low-passed difference where both show skin,
 * spread over what is not (`maskedBlur`), and fades where no such skin is near.
 */
function mixMatched(rgb: Float32Array, otherRgb: Float32Array, mixes: Float32Array, both: Uint8Array, mixed: Int32Array, width: number, height: number): void {
  const difference = new Float32Array(rgb.length);
  for (let p = 0; p < both.length; p++) {
    if (!both[p]) continue;
    for (let k = 0; k < 3; k++) difference[p * 3 + k] = rgb[p * 3 + k]! - otherRgb[p * 3 + k]!;
  }
  const light = maskedBlur(difference, both, width, height, Math.max(2, Math.round(LIGHT_MATCH_RADIUS * Math.min(width, height))), mixed);
  for (let n = 0; n < mixed.length; n++) {
    const p = mixed[n]!;
    const mix = mixes[p]!;
    const trust = Math.min(1, light.weight[n]! / FULL_MATCH_WEIGHT);
    for (let k = 0; k < 3; k++) rgb[p * 3 + k]! += mix * (otherRgb[p * 3 + k]! + trust * light.mean[n * 3 + k]! - rgb[p * 3 + k]!);
  }
}

/**
 * A source triangle magnified by more than this in its most stretched direction, beyond the face's
 * own scale, is smeared over its target triangle: a frontal source's jaw and temples are seen
 * edge-on, a turned target shows its near side's full width, and the few source pixels across
 * them become streaks like a beard. From `STRETCH_FROM` the triangle fades out; at `STRETCH_TO`
 * it is gone.
 */
const STRETCH_FROM = 3;
const STRETCH_TO = 5;

/**
 * How far the warp magnifies the source triangle (a, b, c) in its most stretched direction: the
 * inverse of the smallest singular value of the affine map from the target triangle to the source's.
 * Infinite where the source shows the triangle from behind or edge-on.
 */
function stretchOf(source: Float32Array, target: Float32Array, a: number, b: number, c: number): number {
  const t1x = target[b * 2]! - target[a * 2]!, t1y = target[b * 2 + 1]! - target[a * 2 + 1]!, t2x = target[c * 2]! - target[a * 2]!, t2y = target[c * 2 + 1]! - target[a * 2 + 1]!;
  const s1x = source[b * 2]! - source[a * 2]!, s1y = source[b * 2 + 1]! - source[a * 2 + 1]!, s2x = source[c * 2]! - source[a * 2]!, s2y = source[c * 2 + 1]! - source[a * 2 + 1]!;
  const det = t1x * t2y - t2x * t1y;
  // The map M with M t1 = s1, M t2 = s2: M = S T^-1.
  const m11 = (s1x * t2y - s2x * t1y) / det, m12 = (s2x * t1x - s1x * t2x) / det;
  const m21 = (s1y * t2y - s2y * t1y) / det, m22 = (s2y * t1x - s1y * t2x) / det;
  const mDet = m11 * m22 - m12 * m21;
  if (!(mDet > 0)) return Infinity;
  const sum = m11 * m11 + m12 * m12 + m21 * m21 + m22 * m22;
  const smallest = Math.sqrt(Math.max(0, (sum - Math.sqrt(Math.max(0, sum * sum - 4 * mDet * mDet))) / 2));
  return smallest > 0 ? 1 / smallest : Infinity;
}

/** Per triangle, its sharpness (see `WarpedFace.sharpness`), the stretch measured against the face's own scale. */
function triangleSharpness(source: Float32Array, target: Float32Array, triangles: Uint16Array): Float32Array {
  const count = triangles.length / 3;
  const scale = Math.sqrt(Math.abs(totalSignedArea(source, triangles) / totalSignedArea(target, triangles)));
  const out = new Float32Array(count);
  for (let t = 0; t < count; t++) {
    const stretch = stretchOf(source, target, triangles[t * 3]!, triangles[t * 3 + 1]!, triangles[t * 3 + 2]!) * scale;
    out[t] = stretch <= STRETCH_FROM ? 1 : stretch >= STRETCH_TO ? 0 : (STRETCH_TO - stretch) / (STRETCH_TO - STRETCH_FROM);
  }
  return out;
}

/**
 * Per mesh point, the sharpness (`triangleSharpness`) of the least sharp triangle around it: read
 * at a pixel (`warpPixels`), a stretched triangle stays unsharp throughout, and its sharp
 * neighbours fade towards it instead of stepping at the shared edge.
 */
function pointSharpness(perTriangle: Float32Array, triangles: Uint16Array, points: number): Float32Array {
  const out = new Float32Array(points).fill(1);
  for (let t = 0; t < perTriangle.length; t++) {
    for (let k = 0; k < 3; k++) {
      const point = triangles[t * 3 + k]!;
      out[point] = Math.min(out[point]!, perTriangle[t]!);
    }
  }
  return out;
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
