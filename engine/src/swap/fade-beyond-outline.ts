import type { Face } from '../faces/detect-faces';
import type { Box } from '../faces/face-order';
import { OUTLINE_EXTENSION } from './extend-outline';
import { distanceInside } from './feather-mask';
import { paintTriangles } from './rasterise-mesh';
import { toBox } from './warp-face';
import { enlargeValues, toGrid, workingGrid } from './working-grid';

/**
 * Opacity of the new face over the band a swap reaches beyond the face's own outline
 * (`extendOutline`), per pixel of the region's `box`: 1 inside the mesh's outline, falling smoothly
 * to 0 over the band's full width (`OUTLINE_EXTENSION` of the face size) outside it. The band takes
 * in the hairline, and hair the colour of skin (light brown, blonde) is not told from skin there:
 * drawn at full opacity up to the band's edge, the source's forehead ended in a hard line across
 * the target's hair. Faded, the forehead passes into the hairline. Worked out on the swap's
 * working grid (`workingGrid`), with cells of at least 2 pixels, and enlarged: a ramp a tenth of the
 * face wide loses nothing on cells that size, and at full resolution it took a 157x164 box 0.62 ms
 * instead of 0.34, on every video frame.
 */
export function fadeBeyondOutline(face: Face, box: Box, triangles: Uint16Array): Float32Array {
  const grid = workingGrid(box.width, box.height, { smallestFactor: 2 });
  const all = new Uint8Array(triangles.length / 3).fill(1);
  const beyond = paintTriangles(toGrid(toBox(face.mesh, box), grid), triangles, all, grid.width, grid.height);
  for (let p = 0; p < beyond.length; p++) beyond[p] = 1 - beyond[p]!;
  const band = Math.max(1, (OUTLINE_EXTENSION * Math.min(face.box.width, face.box.height)) / grid.factor);
  const fade = distanceInside(beyond, grid.width, grid.height);
  for (let p = 0; p < fade.length; p++) {
    const t = Math.min(1, fade[p]! / band);
    fade[p] = 1 - t * t * (3 - 2 * t);
  }
  return enlargeValues(fade, 1, grid, box.width, box.height);
}
