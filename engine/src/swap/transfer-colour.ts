import { labToRgb, rgbToLab } from './lab-colour';
import { maskedBlur } from './masked-blur';
import type { TrimmedColour } from './robust-stats';
import { learnSkin, litByTwoColours } from './skin-likeness';

/**
 * Bounds on the contrast change. The source's contrast is its skin texture and the depth of its
 * features, which carry identity: matching the target's spread fully erased too much of it, and a
 * flat or noisy patch cannot blow the face's texture up either.
 */
const MIN_SPREAD_RATIO = 0.8;
const MAX_SPREAD_RATIO = 1.25;
/**
 * Colour (a\*, b\*) is lowered further: the new face's skin colour spreads at most this many times
 * as widely as the target's. Under two coloured lights (photo 3: a blue and an orange one, the skin's
 * b\* spreading 19-34 units against 2-8 on every other demo face) the source's light kept at 0.8 came
 * through as blue noses and yellow temples on every target, finer than the shading low-pass takes
 * off. At twice the target's spread those patches are mostly gone; on the quality report's subset
 * (154 pairs) one pass by both recognisers was lost (138 → 137) and the margins' sums moved
 * −0.6 % / −0.2 %; at 1.5 times, two were lost; at 3 times, the patches stayed half as strong.
 */
const MAX_CHROMA_SPREAD = 2;
/**
 * What is darker than the skin in the source's features (eyes, lashes, brows, the lips' and
 * nostrils' shadows) keeps at least the depth the two lights' ratio gives it: a brighter light
 * makes them lighter by the same share of luminance as the skin, not by the same L\* units, so in
 * L\* + 16 (the cube root of luminance) their distance below the skin grows by
 * (L\*ₜ + 16) / (L\*ₛ + 16). Shifted by the skins' difference and scaled by their spreads only
 * (at most `MAX_SPREAD_RATIO`), a dark source's eyes came out washed out on a pale target (source
 * 4-1 on photo 6's face 3). Lighter than the skin, the spreads' scale stays (scaled by the ratio,
 * highlights would pass white). Deepened everywhere, the hair the source's skin map does not catch
 * went from a pale veil to dark strands, and a strand of hair painted over took the darker hair
 * around it (a test of what lies across a face). At most this gain.
 */
const MAX_SHADOW_GAIN = 2;
/**
 * Radius of the low-pass that carries lighting and skin tone, as a fraction of the face box's short
 * side. Wider keeps more of the source's own mid-scale shading (cheekbones, the eye sockets' depth),
 * which the recognisers read as identity: 0.13 -> 0.2 gave both recognisers' passes +2.6 points on a
 * third of the report's pairs with the face-centre tone still within its goal (median 2.9 -> 3.4,
 * worst 5.4 -> 5.5), now that `anchorCentre` holds the centre.
 */
const SHADING_RADIUS = 0.2;
/** Share of skin in a pixel's neighbourhood from which its low-pass is fully trusted. */
const FULL_TRUST_WEIGHT = 0.15;

export interface ToneInput {
  /** The warped source, box RGB, changed in place on the `apply` pixels. */
  warped: Float32Array;
  /** The box's original pixels in Lab. */
  targetLab: Float32Array;
  /** Pixels the new face covers. */
  apply: Int32Array;
  /** The colour of the target's own skin in the box (its mesh's skin triangles, `learnSkin`). */
  targetSkin: TrimmedColour;
  /** The warped source's skin in the box, without what lay across the source's face. */
  warpedSkin: Uint8Array;
  /**
   * Per pixel, how far it is one of the source's features (eyes, brows, lips, nostrils) surely
   * drawn, 0..1: what is darker than the skin there keeps the lights' depth (`MAX_SHADOW_GAIN`).
   */
  shadowed?: Float32Array;
  width: number;
  height: number;
}

/**
 * Gives the warped source the target's lighting and skin tone while keeping its detail, in Lab:
 *
 * 1. Statistics come from skin only (cheeks, forehead, nose, chin: eyes, brows, lips and nostrils
 *    excluded), and robustly: medians and median absolute deviations, after dropping pixels far
 *    from the skin's median (hair across the forehead, glasses, background at the outline).
 * 2. Lightness is shifted so the source's skin median lands on the target's, and scaled by the
 *    ratio of spreads within `MIN_SPREAD_RATIO`-`MAX_SPREAD_RATIO` (lower on a darker target:
 *    `darker`; in the source's features, below the skin at least by the lights' ratio:
 *    `MAX_SHADOW_GAIN`); colour is turned and scaled about grey so the source skin's median colour lands on
 *    the target's (`chromaTurn`), or on a skin lit by two colours shifted and scaled channel by
 *    channel (down to `MAX_CHROMA_SPREAD` times the target's spread).
 * 3. A frequency split: the low-pass of the target's skin (its shading, the light's colour, a
 *    flushed cheek) replaces the low-pass of the source's skin, and the source keeps everything
 *    finer (pores, wrinkles, the depth of eyes and mouth). The low-passes are taken over skin
 *    pixels only, so the source's dark eyes do not darken the lighting laid over them.
 *
 * Returns a mask of the box's pixels that are skin-coloured (by the target skin's statistics) both
 * in the target and, where the new face covers them, in the toned source.
 */
export function transferTone(input: ToneInput): Uint8Array {
  const { warped, targetLab, apply, width, height } = input;
  rgbToLab(warped, apply);
  const targetSkin = asSkin(input.targetSkin, width * height);
  const warpedSkin = asSkin(learnSkin(warped, input.warpedSkin), width * height);
  if (targetSkin.count === 0 || warpedSkin.count === 0) {
    labToRgb(warped, apply);
    return new Uint8Array(width * height).fill(1);
  }
  const scale = [0, 1, 2].map((k) => {
    const ratio = targetSkin.spread[k]! / Math.max(warpedSkin.spread[k]!, 1e-3);
    const floor = k === 0 ? MIN_SPREAD_RATIO * darker(targetSkin.median[0]!, warpedSkin.median[0]!) : Math.min(MIN_SPREAD_RATIO, MAX_CHROMA_SPREAD * ratio);
    return clamp(ratio, floor, MAX_SPREAD_RATIO);
  });
  const [from, to] = [warpedSkin.median, targetSkin.median];
  const shadowScale = Math.max(scale[0]!, Math.min(MAX_SHADOW_GAIN, lightRatio(to[0]!, from[0]!)));
  const [[aa, ab], [ba, bb]] = litByTwoColours(warpedSkin) || litByTwoColours(targetSkin) ? [[scale[1]!, 0], [0, scale[2]!]] : chromaTurn(from, to, warpedSkin, targetSkin);
  for (let n = 0; n < apply.length; n++) {
    const i = apply[n]! * 3;
    const da = warped[i + 1]! - from[1]!, db = warped[i + 2]! - from[2]!;
    const lightness = warped[i]! - from[0]!;
    const deepened = lightness < 0 && input.shadowed ? input.shadowed[apply[n]!]! : 0;
    warped[i] = lightness * (scale[0]! + deepened * (shadowScale - scale[0]!)) + to[0]!;
    warped[i + 1] = aa * da + ab * db + to[1]!;
    warped[i + 2] = ba * da + bb * db + to[2]!;
  }
  const radius = Math.max(2, Math.round(SHADING_RADIUS * Math.min(width, height)));
  // Both low-passes are worked out on the `apply` pixels only, the n-th at n.
  const lighting = maskedBlur(targetLab, targetSkin.mask, width, height, radius, apply);
  // The source's skin is taken whole, not trimmed: what lay across it is already left out of
  // `warpedSkin`, and trimming would drop its deepest shadows and darkest make-up from the low-pass
  // being replaced, so those kept the source's own light (face-centre shifts up to ΔE 10.6).
  const own = maskedBlur(warped, input.warpedSkin, width, height, radius, apply);
  for (let n = 0; n < apply.length; n++) {
    const p = apply[n]!;
    // Where either low-pass has little skin nearby, its value is a guess: the shading fades out.
    const trust = Math.min(1, Math.min(lighting.weight[n]!, own.weight[n]!) / FULL_TRUST_WEIGHT);
    for (let k = 0; k < 3; k++) warped[p * 3 + k]! += trust * (lighting.mean[n * 3 + k]! - own.mean[n * 3 + k]!);
  }
  const agreed = skinColoured(targetLab, targetSkin);
  // Where the new face covers the box, the toned source must be skin-coloured too.
  for (let n = 0; n < apply.length; n++) if (!withinSkin(warped, apply[n]!, targetSkin)) agreed[apply[n]!] = 0;
  labToRgb(warped, apply);
  return agreed;
}

/** 1 on the pixels whose colour is within the target skin's reach (see `trimmedColour`). */
function skinColoured(lab: Float32Array, skin: Skin): Uint8Array {
  const out = new Uint8Array(lab.length / 3);
  for (let p = 0; p < out.length; p++) if (withinSkin(lab, p, skin)) out[p] = 1;
  return out;
}

function withinSkin(lab: Float32Array, p: number, skin: Skin): boolean {
  const { centre, reach } = skin;
  const i = p * 3;
  return Math.abs(lab[i]! - centre[0]!) <= reach[0]! && Math.abs(lab[i + 1]! - centre[1]!) <= reach[1]! && Math.abs(lab[i + 2]! - centre[2]!) <= reach[2]!;
}

interface Skin extends TrimmedColour {
  /** The kept pixels as a mask. */
  mask: Uint8Array;
  count: number;
}

/** `colour` with its kept pixels as a mask over `pixels` pixels. */
function asSkin(colour: TrimmedColour, pixels: number): Skin {
  const mask = new Uint8Array(pixels);
  for (let n = 0; n < colour.kept.length; n++) mask[colour.kept[n]!] = 1;
  return { ...colour, mask, count: colour.kept.length };
}

/**
 * How much more a given change of light moves the lightness of skin at the target's median L\* than
 * at the source's. L\* follows the cube root of luminance, so a relative change of light moves it in
 * proportion to L\* + 16: on a photo a third as bright, the same shading is about half as many L\*
 * units deep. Where the target is the darker, the contrast floor is lowered by it (`darker`): on demo
 * photo 6 darkened to 0.3 of its light (skin L\* 20, spreading 2.8 units) source 2-1's lit cheeks and
 * forehead, kept at 0.8 of her spread (9.8), stood out from the person's own face; on the quality
 * report's subset the same passes (137 of 154) and margins' sums within 0.2 %. Where it is the
 * lighter, the source's features are deepened by it (`MAX_SHADOW_GAIN`).
 */
function lightRatio(target: number, source: number): number {
  return (target + 16) / (source + 16);
}

/** `lightRatio` where the target is the darker, 1 otherwise. */
function darker(target: number, source: number): number {
  return Math.min(1, lightRatio(target, source));
}

/** Below this chroma (Lab units) a skin's hue is too faint to turn by. */
const FAINT_CHROMA = 2;

/**
 * The source skin's colour (a\*, b\*) turned and scaled about grey onto the target's, as a 2x2
 * matrix applied to each pixel's offset from the source skin's median. Shifted channel by channel
 * (each scaled by its spread ratio), every colour moved by the two medians' difference, so on a
 * warm, dark source drawn onto a pale target the least colourful pixels crossed to the other side
 * of grey: the shadowed eye sockets of source 4-1 came out blue on photo 6's face 3, and source
 * 5-0's dark hair across her forehead as a grey-blue veil on every pale target. Turned and scaled
 * about grey, grey stays grey and every colour keeps its side; colour contrast follows the ratio of
 * the two skins' chroma, within the same bounds as before (`MAX_SPREAD_RATIO`, `MAX_CHROMA_SPREAD`).
 * A skin lit by two colours keeps the per-channel shift: its median is no one light's colour, and
 * turned about it, source 3-2's pairs lost five passes of identity.
 */
function chromaTurn(from: number[], to: number[], source: TrimmedColour, target: TrimmedColour): [[number, number], [number, number]] {
  const [fromChroma, toChroma] = [Math.hypot(from[1]!, from[2]!), Math.hypot(to[1]!, to[2]!)];
  const spreadBound = Math.min(...[1, 2].map((k) => (MAX_CHROMA_SPREAD * target.spread[k]!) / Math.max(source.spread[k]!, 1e-3)));
  const gain = Math.min(toChroma / Math.max(fromChroma, 1e-3), MAX_SPREAD_RATIO, spreadBound);
  const angle = fromChroma > FAINT_CHROMA && toChroma > FAINT_CHROMA ? Math.atan2(to[2]!, to[1]!) - Math.atan2(from[2]!, from[1]!) : 0;
  const [cos, sin] = [gain * Math.cos(angle), gain * Math.sin(angle)];
  return [
    [cos, -sin],
    [sin, cos],
  ];
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}
