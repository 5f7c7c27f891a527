/**
 * How far from the skin's hue (the angle of its a\*, b\* in Lab) a colour may lie and still be skin,
 * in spreads of the skin's own hues, with a floor in degrees. Shading and light move skin's
 * lightness and chroma more than its hue, and fair hair lies apart from fair skin mostly in hue:
 * photo 4's face 3's blonde strands across her cheek (hue about 82°, against 53-65° for her cheek,
 * nose and lit forehead) lay within the reach of a\* and of b\* each, and came through as pale
 * streaks on every face she was swapped into. Judged by hue too, they are painted over; on all 462
 * pairs of the quality report identity by both recognisers 378 → 382.
 */
const HUE_REACH = { spreads: 1.5, floor: (6 * Math.PI) / 180 };
/** Chroma (Lab units) below which a colour's hue is not judged: greys, white walls and deep shadows have no steady hue. */
const MIN_CHROMA = 12;

export interface SkinHue {
  /** Median hue of the skin, in radians. */
  median: number;
  /** How far from it (radians) a hue is still fully skin. */
  reach: number;
  /** The skin's median lightness (L\*): only lighter pixels are judged by hue. */
  lightness: number;
}

/** The hue of the `kept` pixels of a Lab buffer that have chroma enough (`MIN_CHROMA`); null when too few do (a grey or black-and-white face). */
export function skinHue(lab: Float32Array, kept: Int32Array, lightness: number): SkinHue | null {
  const hues = new Float64Array(kept.length);
  let count = 0;
  for (let n = 0; n < kept.length; n++) {
    const i = kept[n]! * 3;
    if (Math.hypot(lab[i + 1]!, lab[i + 2]!) >= MIN_CHROMA) hues[count++] = Math.atan2(lab[i + 2]!, lab[i + 1]!);
  }
  if (count < 16) return null;
  const median = middle(hues.subarray(0, count));
  for (let n = 0; n < count; n++) hues[n] = angleBetween(hues[n]!, median);
  const spread = 1.4826 * middle(hues.subarray(0, count));
  return { median, reach: Math.max(HUE_REACH.spreads * spread, HUE_REACH.floor), lightness };
}

/**
 * How far pixel `p`'s hue lies from the skin's, in reaches; 0 where its chroma is too low to judge,
 * and where it is darker than the skin's median: fair hair is lighter than the skin it crosses, while
 * a shadow's hue drifts (judged there too, the shaded chin of photo 6's face 2 was painted over on
 * every face she was swapped into).
 */
export function hueDistance(lab: Float32Array, p: number, hue: SkinHue): number {
  const a = lab[p * 3 + 1]!, b = lab[p * 3 + 2]!;
  if (lab[p * 3]! < hue.lightness || Math.hypot(a, b) < MIN_CHROMA) return 0;
  return angleBetween(Math.atan2(b, a), hue.median) / hue.reach;
}

function angleBetween(a: number, b: number): number {
  const d = Math.abs(a - b);
  return d > Math.PI ? 2 * Math.PI - d : d;
}

/** The median of some values (sorted in place). */
function middle(values: Float64Array): number {
  values.sort();
  return values[values.length >> 1]!;
}
