import type { RgbImage } from '../../src/faces/decode-image';
import type { Box } from '../../src/faces/face-order';

/** The pixels of `region` of `image`, as an image of their own. */
export function cut(image: RgbImage, region: Box): RgbImage {
  const rgb = new Uint8Array(region.width * region.height * 3);
  for (let row = 0; row < region.height; row++) {
    const from = ((region.y + row) * image.width + region.x) * 3;
    rgb.set(image.rgb.subarray(from, from + region.width * 3), row * region.width * 3);
  }
  return { rgb, width: region.width, height: region.height };
}

/** A pixel counts as left as it was when every channel is within this many levels of what it was (JPEG and H.264 noise stay within it). */
const KEPT_WITHIN = 12;

/** Share of `pixels` (indices into RGB buffers) left as they were: every channel of `after` within `within` levels of `before`. */
export function keptShare(after: Uint8Array, before: Uint8Array, pixels: number[], within = KEPT_WITHIN): number {
  const kept = pixels.filter((p) => Math.abs(after[p * 3]! - before[p * 3]!) <= within && Math.abs(after[p * 3 + 1]! - before[p * 3 + 1]!) <= within && Math.abs(after[p * 3 + 2]! - before[p * 3 + 2]!) <= within);
  return kept.length / pixels.length;
}
