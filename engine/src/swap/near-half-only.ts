import { blurMap } from './masked-blur';
import { maskOf } from './rasterise-mesh';

/**
 * How much of the new face each pixel of a target seen in profile may show: the triangles of the
 * face's far half keep `profile` (`seenInProfile`, 0..1) of the target's own pixels, fading in over
 * `fade` px of the near half beside them. A real profile shows its near half only, up to the
 * silhouette of its brow, nose, lips and chin; the mesh of one lays its squeezed far half along that
 * silhouette and out over what lies beyond, so drawn there the source's far eye sat on the wall
 * beside the nose and the nose's tip was cut off (photo 2's face 0, every pair).
 * `map` gives each pixel's triangle (-1: none), `sides` each triangle's half of the face, and
 * `turn` the target's mesh turn (`meshTurn`), whose sign tells which half is near.
 */
export function nearHalfOnly(map: Int16Array, sides: Int8Array, turn: number, profile: number, width: number, height: number, fade: number): Float32Array {
  const far = turn > 0 ? -1 : 1;
  const farHalf = maskOf(map, Uint8Array.from(sides, (side) => (side === far ? 1 : 0)));
  const shown = blurMap(Float32Array.from(farHalf), width, height, Math.max(1, Math.round(fade)));
  // Doubled, the blurred half is whole up to its own edge and fades out over the near side only.
  // A plain loop, as a video frame's face runs it: a typed array's `from` with a callback is slow.
  for (let p = 0; p < shown.length; p++) shown[p] = 1 - profile * Math.min(1, 2 * shown[p]!);
  return shown;
}
