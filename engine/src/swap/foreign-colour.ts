import { indicesOf } from './mask-indices';
import { trimmedColour } from './robust-stats';

/**
 * Lightness counts half against colour when two colours are told apart: light and shade move a
 * face's lightness across it far more than its colour.
 */
const LIGHTNESS_WEIGHT = 0.5;
/** The second colour must hold at least this share of the skin's pixels. */
const MIN_SHARE = 0.08;
/**
 * How clearly the two colours must stand apart: Ashman's D (their means' distance over their
 * spreads, √2·|μ₁ − μ₂| / √(σ₁² + σ₂²)), and their means' distance in weighted Lab units. The 22
 * demo faces' own skin reaches D 2.6-4.4 when cut in two (one colour, skewed by light and shade),
 * but for photo 2's face 0 (6.6: a pale patch, 5 % of her skin's pixels) and photo 6's face 1
 * (6.1: her black hair); with another person's hand laid across it, 2.8-9.3.
 */
const MIN_SEPARATION = 4.4;
const MIN_GAP = 8;
/**
 * Between the two colours the pixels must thin out to this share of the lesser colour's peak (a
 * valley between two colours, not one colour's long tail): 0.01-0.16 where a hand was found, 0.25
 * and more on the demo faces' own skin but for the same two faces (0.08, 0.09).
 */
const MAX_DIP = 0.2;
/**
 * Hair and shade differ from skin by being darker and greyer together (lightness and b\* moving
 * the same way along the axis the colours part on); another person's hand is lighter and greyer,
 * or darker and yellower, or differs in hue alone. A second colour whose axis has lightness and
 * b\* moving together more than this (the product of their shares of the unit axis) is hair or
 * shade, left to the skin's reach: kept in front as foreign, the black hair on photo 6's face 1's
 * skin (and her brows' outer ends, of its colour) cost her 21 pairs two passes by both recognisers
 * and a fifth of their faceres margins' sum.
 */
const MAX_SHADE_LIKE = 0.2;
/**
 * Split more evenly than this share, which colour is the skin is told by the nose bridge (a hand
 * rests on a cheek, a chin or a mouth): a hand laid across photo 5's face 1 covered more of her
 * skin than was left. Otherwise the lesser colour is the foreign one (the nose bridge's highlight
 * is as pale as a pale hand on photo 1's face 1).
 */
const EVEN_SHARE = 0.4;
/**
 * A colour far greyer than the skin, at about its lightness, is another colour too, though it
 * parts from the skin with no valley between: the quality report's hand (chroma about 11, at the
 * skin's lightness) passed for the skin of pale or widely lit faces (photo 5's face 3, 17 % of it
 * kept in front; photo 4's face 3, 21 %). Looked for only on a skin at least `GREYER_SKIN_CHROMA`
 * colourful (photo 2's faces, chroma 7-11, are as grey as that hand; the hand across a face of
 * chroma 18-21 takes its median down to 13.8-17.9: photo 3's face 2, photo 6's faces 1 and 3), as the
 * pixels under `GREYER_CHROMA_SHARE` of the skin's chroma within `GREYER_LIGHTNESS` spreads of its
 * lightness, either way (shade is darker and keeps the skin's hue; shine is lighter: from 1.5
 * spreads, photo 5's face 2's pale shine was taken, and stayed in front as a white patch), when
 * they are at least `MIN_SHARE` of the skin's pixels and not darker and greyer together
 * (`MAX_SHADE_LIKE`: photo 5's face 4's brown hair across her cheek was taken, and her eyes behind
 * a drawn glasses frame kept).
 */
const GREYER_SKIN_CHROMA = 13;
const GREYER_CHROMA_SHARE = 0.55;
const GREYER_LIGHTNESS = 1;
/**
 * Failing that, such pixels from `GREYER_LIGHTNESS` to this many spreads lighter than the skin,
 * when their colour also lies beyond the face's outline (`BEYOND_SHARE` of the pixels there, within
 * a spread of its lightness): a hand comes in across the outline, while shine stays on the face.
 * The report's hand, 1.6 spreads lighter than photo 1's face 0's narrowly spread skin: 5 % and more
 * of the pixels beyond her outline; photo 5's face 2's shine, as lighter and greyer: 0.2 % at
 * 1920 px, up to 0.5 % on a 640x360 pan over the photo (where her pale window lies beside her).
 */
const GREYER_LIGHTER = 2.5;
const BEYOND_SHARE = 0.02;
/** Spreads from the median beyond which a pixel is left out of the skin's statistics (`trimmedColour`) when judging greyer colours. */
const GREYER_TRIM = 2.5;
/** Fewer skin pixels than this are too few to tell two colours apart by. */
const MIN_PIXELS = 50;
/** Histogram bins across the pixels' spread along the axis (1st to 99th percentile), for the valley. */
const BINS = 40;

/** A second colour among a face's skin pixels: where along the axis it parts from the skin, and where its own middle lies. */
export interface ForeignColour {
  /** The weighted Lab point positions along the axis are measured from, and the axis (a unit vector, lightness weighted). */
  origin: [number, number, number];
  axis: [number, number, number];
  /** The valley between skin and foreign colour (halfway to it, for a greyer colour), and the foreign colour's mean, along the axis. */
  split: number;
  centre: number;
}

/**
 * Looks for a second colour among the `learnFrom` pixels of a face's Lab buffer that is not its
 * skin: another person's hand laid across it. Shade or hair among the skin is not taken for one
 * (see the constants). The pixels are cut in two along the axis their colours
 * spread most on (lightness weighted, `LIGHTNESS_WEIGHT`) by two means, and the cut kept only when
 * the two stand clearly apart with a valley between them; failing that, a colour far greyer than
 * the skin is looked for (`searchGreyerColour`; `beyond`, the pixels beyond the face's outline,
 * tells a hand lighter than the skin from shine). `anchor` (pixel indices: the nose bridge)
 * tells which is the skin when the two are about even. Returns the skin's pixels without the
 * foreign colour, and the colour, or null. Not found, a colour `remembered` from the same person's
 * frame before is taken while it is still there (`stillThere`): on a pan over a pale face with a
 * hand laid across it, detected on every frame as a GIF is, the search found the hand on 3 frames
 * of 12 and the hand flickered off and on; carried, it stayed in front on 4 more.
 */
export function findForeignColour(
  lab: Float32Array,
  learnFrom: Uint8Array,
  anchor: number[],
  remembered: ForeignColour | null = null,
  beyond: Uint8Array | null = null,
): { skin: Uint8Array; foreign: ForeignColour } | null {
  const found = searchForeignColour(lab, learnFrom, anchor, beyond);
  if (found || !remembered || !stillThere(lab, learnFrom, remembered)) return found;
  return { skin: withoutForeign(lab, learnFrom, remembered), foreign: remembered };
}

/**
 * Whether a foreign colour found on a frame before is still among the `learnFrom` pixels: at least
 * `MIN_SHARE` of them lie halfway or more from its valley to its mean. The skin's own tail reaches
 * past the valley, rarely that far.
 */
function stillThere(lab: Float32Array, learnFrom: Uint8Array, foreign: ForeignColour): boolean {
  const indices = indicesOf(learnFrom);
  let beyond = 0;
  for (let n = 0; n < indices.length; n++) if (foreignness(lab, indices[n]!, foreign) >= 0.5) beyond++;
  return indices.length >= MIN_PIXELS && beyond >= MIN_SHARE * indices.length;
}

function searchForeignColour(lab: Float32Array, learnFrom: Uint8Array, anchor: number[], beyond: Uint8Array | null): { skin: Uint8Array; foreign: ForeignColour } | null {
  return searchTwoColours(lab, learnFrom, anchor) ?? searchGreyerColour(lab, learnFrom, beyond);
}

/**
 * A colour far greyer than the skin among the `learnFrom` pixels (see `GREYER_SKIN_CHROMA`), as a
 * foreign colour on the axis from the skin's median to the greyer pixels' mean, parting from the
 * skin halfway along it; with `beyond` (the pixels beyond the face's outline), also a lighter one
 * that lies there too (`GREYER_LIGHTER`).
 */
function searchGreyerColour(lab: Float32Array, learnFrom: Uint8Array, beyond: Uint8Array | null): { skin: Uint8Array; foreign: ForeignColour } | null {
  const indices = indicesOf(learnFrom);
  if (indices.length < MIN_PIXELS) return null;
  const skin = trimmedColour(lab, indices, GREYER_TRIM);
  const [lightness, a, b] = skin.median as [number, number, number];
  const chroma = Math.hypot(a, b);
  if (chroma < GREYER_SKIN_CHROMA) return null;
  const spread = skin.spread[0]!;
  const greyerThan = GREYER_CHROMA_SHARE * chroma;
  const near = lightness + GREYER_LIGHTNESS * spread;
  let mean = greyerMean(lab, indices, greyerThan, lightness - GREYER_LIGHTNESS * spread, near);
  if (!mean && beyond) {
    const lighter = greyerMean(lab, indices, greyerThan, near, lightness + GREYER_LIGHTER * spread);
    const around = lighter && greyerMean(lab, indicesOf(beyond), greyerThan, lighter[0] / LIGHTNESS_WEIGHT - spread, lighter[0] / LIGHTNESS_WEIGHT + spread, BEYOND_SHARE);
    if (around) mean = lighter;
  }
  if (!mean) return null;
  const origin: [number, number, number] = [LIGHTNESS_WEIGHT * lightness, a, b];
  const towards = mean.map((v, k) => v - origin[k]!);
  const distance = Math.hypot(...towards);
  const axis = towards.map((v) => v / distance) as [number, number, number];
  if (axis[0] * axis[2] >= MAX_SHADE_LIKE) return null;
  const foreign: ForeignColour = { origin, axis, split: distance / 2, centre: distance };
  return { skin: withoutForeign(lab, learnFrom, foreign), foreign };
}

/**
 * The weighted Lab mean of the pixels of `indices` with chroma under `greyerThan` and lightness
 * from `from` to `to`, when they are at least `minShare` of them; otherwise null.
 */
function greyerMean(lab: Float32Array, indices: Int32Array, greyerThan: number, from: number, to: number, minShare = MIN_SHARE): [number, number, number] | null {
  let [sumL, sumA, sumB, count] = [0, 0, 0, 0];
  for (let n = 0; n < indices.length; n++) {
    const i = indices[n]! * 3;
    if (lab[i]! < from || lab[i]! > to || Math.hypot(lab[i + 1]!, lab[i + 2]!) >= greyerThan) continue;
    sumL += lab[i]!;
    sumA += lab[i + 1]!;
    sumB += lab[i + 2]!;
    count++;
  }
  return count > 0 && count >= minShare * indices.length ? [(LIGHTNESS_WEIGHT * sumL) / count, sumA / count, sumB / count] : null;
}

function searchTwoColours(lab: Float32Array, learnFrom: Uint8Array, anchor: number[]): { skin: Uint8Array; foreign: ForeignColour } | null {
  const indices = indicesOf(learnFrom);
  const n = indices.length;
  if (n < MIN_PIXELS) return null;
  const origin = weightedMean(lab, indices);
  const axis = principalAxis(lab, indices, origin);
  const along = (p: number) => positionAlong(lab, p, origin, axis);
  const positions = new Float32Array(n);
  for (let i = 0; i < n; i++) positions[i] = along(indices[i]!);
  const [p1, p10, p90, p99] = quantiles(positions, [0.01, 0.1, 0.9, 0.99]) as [number, number, number, number];
  const [low, high] = twoMeans(positions, p10, p90);
  if (high.mean - low.mean < MIN_GAP) return null;
  const separation = (Math.SQRT2 * (high.mean - low.mean)) / Math.hypot(low.spread, high.spread);
  if (separation < MIN_SEPARATION || axis[0] * axis[2] >= MAX_SHADE_LIKE) return null;
  const split = valleyBetween(positions, [p1, p99], low.mean, high.mean);
  if (split === null) return null;
  let lowCount = 0;
  for (let i = 0; i < n; i++) if (positions[i]! < split) lowCount++;
  const lesser = Math.min(lowCount, n - lowCount) / n;
  if (lesser < MIN_SHARE) return null;
  const anchorLow = anchor.filter((p) => along(p) < split).length > anchor.length / 2;
  const foreignLow = lesser >= EVEN_SHARE ? !anchorLow : lowCount < n - lowCount;
  const skin = Uint8Array.from(learnFrom);
  for (let i = 0; i < n; i++) if (positions[i]! < split === foreignLow) skin[indices[i]!] = 0;
  return { skin, foreign: { origin, axis, split, centre: foreignLow ? low.mean : high.mean } };
}

/** The `learnFrom` pixels of a Lab buffer on the skin's side of a foreign colour's valley (found on another grid of the same face). */
export function withoutForeign(lab: Float32Array, learnFrom: Uint8Array, foreign: ForeignColour): Uint8Array {
  return learnFrom.map((learn, p) => (learn && foreignness(lab, p, foreign) === 0 ? 1 : 0));
}

/** How much lighter (L\*; below 0, darker) a foreign colour's mean lies than the valley that parts it from the skin. */
export function lighterFromValley(foreign: ForeignColour): number {
  return ((foreign.centre - foreign.split) * foreign.axis[0]) / LIGHTNESS_WEIGHT;
}

/** How far a pixel lies towards a foreign colour: 0 at the valley between it and the skin (or on the skin's side), 1 at its mean. */
export function foreignness(lab: Float32Array, p: number, foreign: ForeignColour): number {
  return Math.max(0, (positionAlong(lab, p, foreign.origin, foreign.axis) - foreign.split) / (foreign.centre - foreign.split));
}

function positionAlong(lab: Float32Array, p: number, origin: number[], axis: number[]): number {
  const i = p * 3;
  return (LIGHTNESS_WEIGHT * lab[i]! - origin[0]!) * axis[0]! + (lab[i + 1]! - origin[1]!) * axis[1]! + (lab[i + 2]! - origin[2]!) * axis[2]!;
}

function weightedMean(lab: Float32Array, indices: Int32Array): [number, number, number] {
  let [l, a, b] = [0, 0, 0];
  for (let n = 0; n < indices.length; n++) {
    const i = indices[n]! * 3;
    l += lab[i]!;
    a += lab[i + 1]!;
    b += lab[i + 2]!;
  }
  return [(LIGHTNESS_WEIGHT * l) / indices.length, a / indices.length, b / indices.length];
}

/**
 * The direction the pixels' (weighted) colours spread most along: the covariance's leading
 * eigenvector, by power iteration. Plain loops with the sums in locals: this runs on every video frame.
 */
function principalAxis(lab: Float32Array, indices: Int32Array, origin: number[]): [number, number, number] {
  const [o0, o1, o2] = origin as [number, number, number];
  let [ll, la, lb, aa, ab, bb] = [0, 0, 0, 0, 0, 0];
  for (let n = 0; n < indices.length; n++) {
    const i = indices[n]! * 3;
    const [l, a, b] = [LIGHTNESS_WEIGHT * lab[i]! - o0, lab[i + 1]! - o1, lab[i + 2]! - o2];
    ll += l * l;
    la += l * a;
    lb += l * b;
    aa += a * a;
    ab += a * b;
    bb += b * b;
  }
  let axis: [number, number, number] = [1, 1, 1];
  for (let step = 0; step < 20; step++) {
    const next = [ll * axis[0] + la * axis[1] + lb * axis[2], la * axis[0] + aa * axis[1] + ab * axis[2], lb * axis[0] + ab * axis[1] + bb * axis[2]] as const;
    const length = Math.hypot(...next) || 1;
    axis = [next[0] / length, next[1] / length, next[2] / length];
  }
  return axis;
}

/** Two means of values on a line (Lloyd's iterations from `fromLow` and `fromHigh`), each with its spread (standard deviation). */
function twoMeans(values: Float32Array, fromLow: number, fromHigh: number): [{ mean: number; spread: number }, { mean: number; spread: number }] {
  let [low, high] = [fromLow, fromHigh];
  for (let step = 0; step < 20; step++) {
    const cut = (low + high) / 2;
    let [sumLow, countLow, sumHigh] = [0, 0, 0];
    for (let n = 0; n < values.length; n++) {
      const x = values[n]!;
      if (x < cut) {
        sumLow += x;
        countLow++;
      } else sumHigh += x;
    }
    if (countLow === 0 || countLow === values.length) break;
    const next = [sumLow / countLow, sumHigh / (values.length - countLow)] as const;
    if (next[0] === low && next[1] === high) break;
    [low, high] = next;
  }
  const cut = (low + high) / 2;
  let [squaresLow, countLow, squaresHigh] = [0, 0, 0];
  for (let n = 0; n < values.length; n++) {
    const x = values[n]!;
    if (x < cut) {
      squaresLow += (x - low) ** 2;
      countLow++;
    } else squaresHigh += (x - high) ** 2;
  }
  return [
    { mean: low, spread: Math.sqrt(squaresLow / Math.max(1, countLow)) },
    { mean: high, spread: Math.sqrt(squaresHigh / Math.max(1, values.length - countLow)) },
  ];
}

/** Resolution of the histogram `quantiles` reads, in bins across the values' range. */
const QUANTILE_BINS = 1024;

/** The values at the given shares of their order, to `QUANTILE_BINS` of their range: one pass into a histogram instead of a sort (a video frame's target runs this). */
function quantiles(values: Float32Array, shares: number[]): number[] {
  let [min, max] = [Infinity, -Infinity];
  for (let n = 0; n < values.length; n++) [min, max] = [Math.min(min, values[n]!), Math.max(max, values[n]!)];
  const width = (max - min) / QUANTILE_BINS || 1;
  const counts = new Uint32Array(QUANTILE_BINS);
  for (let n = 0; n < values.length; n++) counts[Math.min(QUANTILE_BINS - 1, Math.floor((values[n]! - min) / width))]!++;
  return shares.map((share) => {
    const wanted = share * values.length;
    let [seen, bin] = [0, 0];
    while (bin < QUANTILE_BINS - 1 && seen + counts[bin]! <= wanted) seen += counts[bin++]!;
    return min + (bin + 0.5) * width;
  });
}

/**
 * Where the pixels thin out most between two means (a histogram of `BINS` bins from `from` to `to`, the
 * 1st to 99th percentile, smoothed over three), when they thin out there to `MAX_DIP` of the lesser
 * peak on either side; otherwise null.
 */
function valleyBetween(positions: Float32Array, [from, to]: [number, number], low: number, high: number): number | null {
  const binWidth = (to - from) / BINS;
  if (!(binWidth > 0)) return null;
  const counts = new Float32Array(BINS);
  for (let i = 0; i < positions.length; i++) {
    const bin = Math.floor((positions[i]! - from) / binWidth);
    if (bin >= 0 && bin < BINS) counts[bin]!++;
  }
  const density = counts.map((_, b) => ((counts[b - 1] ?? 0) + counts[b]! + (counts[b + 1] ?? 0)) / 3);
  const binOf = (x: number) => Math.max(0, Math.min(BINS - 1, Math.floor((x - from) / binWidth)));
  let valley = binOf(low);
  for (let b = valley; b <= binOf(high); b++) if (density[b]! < density[valley]!) valley = b;
  const lesserPeak = Math.min(Math.max(...density.subarray(0, valley + 1)), Math.max(...density.subarray(valley)));
  return density[valley]! <= MAX_DIP * lesserPeak ? from + (valley + 0.5) * binWidth : null;
}
