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
