import type { RgbImage } from '../../src/faces/decode-image';
import type { Box } from '../../src/faces/face-order';
import { rgbToLab } from '../../src/swap/lab-colour';

export type Lab = [number, number, number];

/** CIE76 colour difference. */
export const deltaE = (a: Lab, b: Lab) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

function labOf(image: RgbImage, pixels: number[]): Float32Array {
  const rgb = new Float32Array(pixels.length * 3);
  pixels.forEach((p, n) => rgb.set(image.rgb.subarray(p * 3, p * 3 + 3), n * 3));
  rgbToLab(rgb, Int32Array.from(pixels, (_, n) => n));
  return rgb;
}

function meanLab(image: RgbImage, pixels: number[]): Lab {
  const rgb = labOf(image, pixels);
  let [l, a, b] = [0, 0, 0];
  for (let n = 0; n < pixels.length; n++) [l, a, b] = [l + rgb[n * 3]!, a + rgb[n * 3 + 1]!, b + rgb[n * 3 + 2]!];
  const count = Math.max(1, pixels.length);
  return [l / count, a / count, b / count];
}

/** Mean Lab of a face's centre: its box's middle half across, 40-85 % of the way down (cheeks, nose, mouth). */
export function faceCentreLab(image: RgbImage, box: Box): Lab {
  const pixels: number[] = [];
  for (let y = Math.round(box.y + 0.4 * box.height); y < box.y + 0.85 * box.height; y++) {
    for (let x = Math.round(box.x + 0.25 * box.width); x < box.x + 0.75 * box.width; x++) pixels.push(y * image.width + x);
  }
  return meanLab(image, pixels);
}

/** Whether an RGB colour falls in the usual skin range of YCbCr chroma, for any skin tone (Chai & Ngan). */
function looksLikeSkin(r: number, g: number, b: number): boolean {
  const cb = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
  const cr = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
  const y = 0.299 * r + 0.587 * g + 0.114 * b;
  return y > 40 && cb >= 77 && cb <= 127 && cr >= 133 && cr <= 173;
}

/** How far (ΔE) from the face centre's own colour a ring pixel may be and still count as that person's skin. */
const OWN_SKIN_REACH = 25;

/**
 * Mean Lab of the person's own skin just outside the swap: pixels in a ring around the face box
 * (out to 25 % of its size on each side: forehead above, neck below, ears and temples beside),
 * which a swap never writes, that are skin-coloured and within `OWN_SKIN_REACH` of the original
 * face centre's colour (`faceColour`; blonde hair and beige walls pass a skin-colour test).
 * Null when less than 3 % of the ring is such skin (hair and a collar all round).
 */
export function skinRingLab(image: RgbImage, box: Box, faceColour: Lab): Lab | null {
  const grow = 0.25 * Math.min(box.width, box.height);
  const [left, top] = [Math.max(0, Math.round(box.x - grow)), Math.max(0, Math.round(box.y - grow))];
  const right = Math.min(image.width, Math.round(box.x + box.width + grow));
  const bottom = Math.min(image.height, Math.round(box.y + box.height + grow));
  const ring: number[] = [];
  for (let y = top; y < bottom; y++) {
    for (let x = left; x < right; x++) {
      if (x >= box.x && x < box.x + box.width && y >= box.y && y < box.y + box.height) continue;
      const p = y * image.width + x;
      if (looksLikeSkin(image.rgb[p * 3]!, image.rgb[p * 3 + 1]!, image.rgb[p * 3 + 2]!)) ring.push(p);
    }
  }
  const lab = labOf(image, ring);
  const own: number[] = [];
  ring.forEach((_, n) => {
    if (deltaE([lab[n * 3]!, lab[n * 3 + 1]!, lab[n * 3 + 2]!], faceColour) <= OWN_SKIN_REACH) own.push(n);
  });
  const area = (right - left) * (bottom - top) - box.width * box.height;
  if (own.length < 0.03 * area) return null;
  const sum = [0, 0, 0];
  for (const n of own) for (let k = 0; k < 3; k++) sum[k]! += lab[n * 3 + k]!;
  return [sum[0]! / own.length, sum[1]! / own.length, sum[2]! / own.length];
}
