import { labToRgb, rgbToLab } from './lab-colour';
import { indicesOf } from './mask-indices';

/**
 * How far (in a\* and b\*) from the box's one colour a pixel may lie and still count as that colour:
 * a greyscale JPEG's colour noise stays within 1-2 units, while the least colourful skin among the
 * demo photos (photo 2's overexposed profile) spreads 3.5 units in a\* alone.
 */
const SAME_HUE = 4;
/** Share of a box's pixels that may lie further (a coloured speck, a compression artefact) for it to count as one colour still. */
const STRAYS = 0.01;

/**
 * The (a\*, b\*) every pixel of a Lab box shares when the box is in one colour (a black-and-white
 * photo, stored in one channel or three, or a sepia one), or null. The skin's median `hue` is
 * checked against every pixel, and the check stops at the first strays past `STRAYS`: on a colour
 * photo it ends within a few pixels.
 */
export function monochromeHue(lab: Float32Array, hue: readonly number[]): [number, number] | null {
  const [a, b] = [hue[1]!, hue[2]!];
  const pixels = lab.length / 3;
  const allowed = Math.floor(STRAYS * pixels);
  let strays = 0;
  for (let p = 0; p < pixels; p++) {
    if (Math.abs(lab[p * 3 + 1]! - a) <= SAME_HUE && Math.abs(lab[p * 3 + 2]! - b) <= SAME_HUE) continue;
    if (++strays > allowed) return null;
  }
  return [a, b];
}

/**
 * Gives the `covered` pixels of an RGB box (changed in place) the one `hue`, keeping their
 * lightness. The tone transfer keeps most of the source's colour detail (make-up, lips, the light's
 * tint: see `transferTone`), which on a black-and-white photo came out as a coloured face.
 */
export function takeHue(rgb: Float32Array, covered: Uint8Array, hue: [number, number]): void {
  const pixels = indicesOf(covered);
  rgbToLab(rgb, pixels);
  for (let n = 0; n < pixels.length; n++) {
    rgb[pixels[n]! * 3 + 1] = hue[0];
    rgb[pixels[n]! * 3 + 2] = hue[1];
  }
  labToRgb(rgb, pixels);
}
