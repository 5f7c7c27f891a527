import { meshTurn } from '../faces/mesh-mirror';
import type { MeshTopology } from '../faces/mesh-topology';
import { indicesOf } from './mask-indices';
import { blurMap, maskedBlur } from './masked-blur';
import { trimmedColour, type TrimmedColour } from './robust-stats';
import { hueDistance, skinHue } from './skin-hue';
import { triangleFlags } from './rasterise-mesh';
import { keepThinOccluders } from './thin-occluders';
import { findForeignColour, foreignness, lighterFromValley, withoutForeign, type ForeignColour } from './foreign-colour';
import { floodFill } from './flood-fill';

/**
 * Skin statistics ignore pixels further than this many spreads from the skin's median: a strand of
 * hair, a glasses frame, the background at the outline.
 */
const TRIM_SPREADS = 2.5;
/**
 * How far from the skin's median a colour may lie and still be fully skin, in spreads per channel,
 * with a floor in Lab units. Lightness is given more room than colour: a shadow across a cheek
 * darkens skin without changing its hue, where hair, a hand or the background differ in hue.
 */
const LIGHTNESS_REACH = { spreads: 3, floor: 12 };
const COLOUR_REACH = { spreads: 2.5, floor: 4 };
/**
 * Lighter than the skin, less room: light makes skin lighter only in small highlights, while a pale
 * wall behind a face seen near profile lies across its outline (photo 2's face 0, drawn as skin,
 * left a white patch across every target's eyes).
 */
const LIGHTER_REACH = { spreads: 2, floor: 8 };
/** Beyond `FADE` reaches a colour counts as not skin at all; in between, partly. */
const FADE = 1.5;
/**
 * Radius over which the distances from the skin's colour are averaged before they are scored, as a
 * share of the box's short side (judged pixels only). Scored pixel by pixel, a blurry JPEG's 8 px
 * blocks gave partly-skin patches with blocky edges, and the swapped face's edge showed the blocks.
 * A pixel clearly not skin keeps its own distance, so a thin strand of hair is not averaged away.
 */
const DISTANCE_SMOOTHING = 0.02;
/** How far into follow-only pixels (see `skinLikeness`) what is not skin is followed, as a share of the box's short side. */
const FOLLOW_REACH = 0.05;
/**
 * How far darker-than-skin pixels of `FollowOnly.darkFurther` (the brows' zone) are followed. Hair
 * falling across a brow's end and the temple beside it came through up to 5 % in as hard-edged dark
 * wedges on every target of source 6-0; her eyes lie below that zone, and a pale wall (a profile's far
 * eye) is lighter than the skin.
 */
const DARK_FOLLOW_REACH = 0.12;
/**
 * From this turn (`meshTurn`; the quality report's profile bucket) a source's far half is judged as
 * fully as its skin, features too: the mesh lays them beyond the silhouette, where nothing of the
 * face is left to keep. On photo 2's face 0 the far eye and brow lie on the wall beyond her nose,
 * and the wall came through as a pale patch between every target's eyes.
 */
const PROFILE_TURN = 0.5;
/**
 * A skin whose colour spreads more than this (a\* or b\*, Lab units) is lit by two colours:
 * photo 3's faces, 19-34 in b\*, where the other demo faces reach at most 8.3.
 */
const TWO_LIGHTS_SPREAD = 12;

/** Whether a skin's colour spreads so widely it is lit by two colours (see `TWO_LIGHTS_SPREAD`). */
export function litByTwoColours(skin: TrimmedColour): boolean {
  return Math.max(skin.spread[1]!, skin.spread[2]!) > TWO_LIGHTS_SPREAD;
}
/** Radius over which the skin's colour around a pixel is taken (see `followedLight`), as a share of the box's short side. */
const FOLLOWED_LIGHT_RADIUS = 0.15;
/** Share of skin pixels around a pixel below which the face's one skin colour stands in for the skin around it. */
const FOLLOWED_LIGHT_MIN_SHARE = 0.02;
/**
 * Half the width up to which a line clearly not skin counts as thin (see `keepThinOccluders`), as a
 * share of the box's short side: a glasses frame's rims, up to about 5 % of the face across.
 */
const THIN_HALF_WIDTH = 0.025;
/**
 * How far across a thin line must reach to be kept, as a share of the box's short side: a frame's
 * rims and bridge reach across the face, while a target's own brow end or eyeliner wing that
 * touches the hair beside it (photo 6's face 1) is shorter, and kept in front it cost that face's
 * swaps their brow (identity by both on all pairs 379 → 375 with no minimum).
 */
const THIN_LENGTH = 0.2;
/**
 * `THIN_LENGTH` for the follow at a face's own resolution (`leaveOutThinLines`). There, hair at a
 * temple comes apart into strands that run 20-40 % of the face as thin lines, and they were kept
 * alone in front while the fair hair around them took the new face: a hard-edged dark streak at
 * photo 1's face 0's temple (the before-and-after picture), black blocky marks at photo 6's face 2's.
 * A frame's rims, round the eyes, reach further: the 22 demo faces kept their drawn frame as
 * before (median 100 %, worst 85 %); on all 462 pairs, identity by both 386 → 385 (one result
 * of source 2-1's, whose hair comes across as a veil, no longer found), margins' sums −0.4 % /
 * −0.6 %. At 0.3 of the face the marks at photo 6's face 2's temple stayed in part.
 */
const FINE_THIN_LENGTH = 0.4;
/**
 * A line darker than this share of the skin's lightness (L\*) is clearly not skin for the follow of
 * thin lines, however widely the face's lightness spreads: on a face lit brightly on one side and
 * shaded on the other, or with hair among its skin, the spread is so wide that a black glasses
 * frame passed for a shadow (a frame drawn across each of the 22 demo faces: 1-14 % of it kept on
 * eight of them, 80-99 % with this). Such lines are followed on their own, and kept in front only
 * when they reach across half the face (`DARK_LINE_LENGTH`) and into the middle of its skin
 * (`DARK_LINE_INWARD`, as shares of the box's short side): followed as other lines are, the darkest
 * strands of hair at the face's sides (photo 4's face 0) and in a fringe (photo 2's face 1) stayed
 * as black cracks in the new face.
 */
const DARK_LINE_SHARE = 0.4;
const DARK_LINE_LENGTH = 0.5;
const DARK_LINE_INWARD = 0.12;
/**
 * How far a very dark line kept in front is carried on into the eyes' and lips' contours (dark
 * pixels only), as a share of the box's short side: a frame's rims cross the contour ring below and
 * beside the eye, and were lost there on a face near profile (photo 5's face 1: 84 % of a drawn
 * frame kept, 86 % with this). Twice as far, the target's own dark lash lines and eye make-up
 * beside the rims stayed behind the lenses (photo 1's face 0: the eyes' pixels the new face changed
 * 90 → 83 %; 88 % at this reach).
 */
const DARK_LINE_CARRY = 0.02;
/**
 * A pixel of a foreign colour (`foreignness`) counts as not skin at all from halfway between the
 * valley that parts it from the skin and its mean: from the valley on, the fingers of a hand laid
 * across the face stayed in front only in part, the new face showing through them (photo 5's face 0,
 * the colour judged on her skin alone: 56 % of the hand kept, 81 % with this).
 */
const FOREIGN_SHARPNESS = 2;
/**
 * Pixels past a foreign colour's valley joined through such pixels (`floodFill`) to pixels of it
 * counted fully not skin (from halfway, `FOREIGN_SHARPNESS`) count as not skin at all: the
 * fingers' sides and the hand's top, which the face's light and shade move towards the skin,
 * stayed in front only in part, the new face's eye and brow showing through them (the 22 demo
 * faces with a hand laid across each: median 90 → 97 % of it kept, photo 6's face 1 66 → 83 %,
 * photo 6's face 3 77 → 94 %; the MP4 zoom with a hand 62 → 80 % at the median). Not for a colour darker than the skin by more
 * than this (L\*, from the valley to its mean: `lighterFromValley`): the face's own eyes, brows,
 * lips and shade lie partway towards such a colour, and joined to it (the MP4 pan's hair across
 * her cheek, 20 L\* darker; the hands found on the demo faces 1 L\* darker at most) they were
 * left out with it, 15 of the pan's frames left nearly as they were.
 */
const JOIN_DARKER = 8;
/** Radius of the blur that softens the map's edges, as a share of the box's short side. */
const SOFTEN = 0.015;

/** Pixels judged only where what is not skin comes into them (see `skinLikeness`). */
export interface FollowOnly {
  pixels: Uint8Array;
  /** Among them, those followed up to `DARK_FOLLOW_REACH` where darker than the skin. */
  darkFurther?: Uint8Array;
}

export interface FaceJudging {
  /** Widens (above 1) how far from the skin's colour a pixel may be and still count as skin. */
  tolerance: number;
  /**
   * How the features (eyes, brows, lips, nostrils) are judged. `outline`: those at the outline
   * (`MeshTopology.outlineFeatures`, where hair falls over a brow's outer end) as fully as the
   * skin, the others not at all; for a target, what is judged not skin stays in front of the new
   * face. `entered`: every feature, but only as far as what is not skin comes into it across the
   * skin beside it (`FOLLOW_REACH`; dark hair further into the brows' zone), and on a face seen
   * near profile those of the far half fully (`PROFILE_TURN`). A source's judged pixels are
   * painted over, and judged fully its own brow tails (identity) were lost on faces turned away;
   * not judged, the black hair across source 6-1's brow end came through as a dark
   * patch on every target's temple, and on photo 2's face 0, seen in profile, the mesh's far eye
   * and brow lie on the wall beyond her nose, which came through as a white patch across every
   * target's eyes.
   */
  features: 'outline' | 'entered';
  /** Judge each pixel against the skin's colour around it on a face lit by two colours (see `followedLight`). */
  followLight?: boolean;
  /**
   * Judge each pixel's hue too (`skinHue`), on a face lit by one colour. For sources only: fair
   * hair is told from fair skin by its hue, and painted over; on targets, what is kept in front
   * costs the new face its identity (judged so, photo 4's face 3 kept her blonde strands in front,
   * and all 462 pairs of the quality report lost 5 passes by both recognisers).
   */
  hue?: boolean;
  /**
   * Leave out long thin lines far lighter or darker than the skin that run on from what is left out
   * across the face, features too, but not into the eyes and lips (`MeshTopology.openings`) nor,
   * unless very dark, the brows (`MeshTopology.browLines`), and reach below the eyes' corners: a
   * glasses frame on a target (see `followThinLines`).
   */
  thinOccluders?: boolean;
  /**
   * Look for a second colour among the skin that is not it (`findForeignColour`: another person's
   * hand laid across a target's face), learn the skin without it and leave it out wherever it lies
   * on the face, features too. For targets: a hand's pixels among a face's learnt skin widened its
   * reach so far that the whole hand passed for skin (22 demo faces with a hand laid across each:
   * median 31 % of it kept in front, worst 12 %), and judged only where the skin is, a hand over
   * an eye's corner, a brow or the mouth's corner was drawn over there (43-97 % of it kept on the
   * faces where it was found; 83-100 % judged over the features too).
   */
  foreignColour?: boolean;
  /** With `foreignColour`: the colour found on the same person's frame before, taken while it is still there (`findForeignColour`). */
  rememberedColour?: ForeignColour | null;
}

/** The colour of a face's skin, learnt robustly from the `learnFrom` pixels of a Lab buffer (`trimmedColour`). */
export function learnSkin(lab: Float32Array, learnFrom: Uint8Array): TrimmedColour {
  return trimmedColour(lab, indicesOf(learnFrom), TRIM_SPREADS);
}

/**
 * `skinLikeness` of a face in its box, learnt from its mesh's plain-skin triangles and judged on
 * every triangle that is not a feature, and on features as `judging` says. Also returns the skin's
 * colour it learnt (the tone transfer reads the same statistics) and the foreign colour it found, if any.
 */
export function faceSkinLikeness(
  lab: Float32Array,
  mesh: Float32Array,
  topology: MeshTopology,
  width: number,
  height: number,
  judging: FaceJudging,
): { likeness: Float32Array; skin: TrimmedColour; foreign: ForeignColour | null } {
  const flags = judgingFlags(topology, judging.features, judging.features === 'entered' ? farHalf(mesh, topology) : 0);
  const covered = triangleFlags(mesh, topology.triangles, flags, width, height);
  const withBit = (bit: number) => covered.map((f) => (f & bit ? 1 : 0));
  const plainSkin = withBit(SKIN);
  const face = withBit(FACE);
  const beyondOutline = judging.foreignColour ? face.map((inside) => 1 - inside) : null;
  const found = judging.foreignColour ? findForeignColour(lab, plainSkin, noseBridge(mesh, width, height), judging.rememberedColour, beyondOutline) : null;
  const skin = learnSkin(lab, found?.skin ?? plainSkin);
  const followOnly = judging.features === 'entered' ? { pixels: withBit(FOLLOW_ONLY), darkFurther: withBit(BROW) } : undefined;
  const thin = judging.thinOccluders ? { openings: withBit(OPENING), browLines: withBit(BROW_LINE), belowEyes: withBit(BELOW_EYES) } : undefined;
  const options = { tolerance: judging.tolerance, foreign: found?.foreign, followOnly, followLight: judging.followLight, hue: judging.hue, thin };
  return { likeness: skinLikeness(lab, skin, withBit(JUDGE), face, width, height, options), skin, foreign: found?.foreign ?? null };
}

/**
 * The colour of a face's skin in its box, learnt from its mesh's plain-skin triangles without the
 * `foreign` colour `faceSkinLikeness` found on another grid of the same face: the colour is told
 * apart once, so the skin map and the tone learn the same skin (searched for again on this grid, a
 * hand found on one could be missed on the other).
 */
export function faceSkin(lab: Float32Array, mesh: Float32Array, topology: MeshTopology, width: number, height: number, foreign: ForeignColour | null): TrimmedColour {
  const plainSkin = triangleFlags(mesh, topology.triangles, topology.skin, width, height);
  return learnSkin(lab, foreign ? withoutForeign(lab, plainSkin, foreign) : plainSkin);
}

/** The mesh's points down the nose bridge (MediaPipe's), from between the eyes to above the tip. */
const NOSE_BRIDGE = [168, 6, 197, 195, 5];

/** The pixels at and beside the nose bridge's points (3 × 3 each, within the box). */
function noseBridge(mesh: Float32Array, width: number, height: number): number[] {
  const pixels: number[] = [];
  for (const point of NOSE_BRIDGE) {
    const [x, y] = [Math.round(mesh[point * 2]!), Math.round(mesh[point * 2 + 1]!)];
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) if (x + dx >= 0 && y + dy >= 0 && x + dx < width && y + dy < height) pixels.push((y + dy) * width + x + dx);
    }
  }
  return pixels;
}

/** Bits of `judgingFlags`. */
const [FACE, JUDGE, SKIN, FOLLOW_ONLY, BROW, OPENING, BROW_LINE, BELOW_EYES] = [1, 2, 4, 8, 16, 32, 64, 128];

/** The half of the face (a `MeshTopology.sides` value) turned away, on a face seen near profile; 0 otherwise. */
function farHalf(mesh: Float32Array, topology: MeshTopology): number {
  const turn = meshTurn(mesh, topology.triangles, topology.sides);
  return Math.abs(turn) < PROFILE_TURN ? 0 : turn > 0 ? -1 : 1;
}

/** Per triangle, which of the masks `faceSkinLikeness` paints it into; the features of the `far` half (if not 0) are judged fully. */
function judgingFlags(topology: MeshTopology, features: FaceJudging['features'], far: number): Uint8Array {
  return topology.skin.map((skin, t) => {
    let bits = FACE | (skin ? SKIN : 0) | thinBits(topology, t);
    if (!topology.features[t] || (far !== 0 && topology.sides[t] === far)) bits |= JUDGE;
    else if (features === 'entered') bits |= JUDGE | FOLLOW_ONLY | (topology.brows[t] ? BROW : 0);
    else if (topology.outlineFeatures[t]) bits |= JUDGE;
    return bits;
  });
}

/**
 * How much each pixel of a face box looks like that face's own skin, 0..1, given the skin's colour
 * (`learnSkin`: median and spread, in Lab, of the mesh's plain-skin triangles). The pixels of
 * `judge` (the rest of the face, features excluded) are scored by their distance
 * from it (averaged over the judged pixels nearby unless clearly not skin); every other pixel
 * scores 1. The swap uses it to leave out what lies across a face and is not that face: a strand
 * of hair, a hand, the background inside the mesh's outline. Those come in across the face's
 * outline, so only off-skin patches that reach outside `face` count; a shadow, a mole or make-up
 * within the face is part of it. `tolerance` widens (above 1) how far
 * from the skin's colour a pixel may be and still count. Pixels of `followOnly` (judged too) are
 * left out only near a patch that reaches outside through other pixels (see
 * `keepReachingOutside`): a brow's outer end lies at the outline, and is left out only where hair
 * falling across the skin beside it comes into it; dark hair is followed further into
 * `followOnly.darkFurther`. With `followLight`, a face lit by two colours is judged against the
 * skin's colour around each pixel (`followedLight`); with `hue`, a face lit by one colour by its
 * hue too (`skinHue`); with `foreign`, every pixel of `face` (features too) by how far it lies
 * towards that colour as well. With `thin`, long thin lines clearly lighter or darker than the skin that run
 * on from what is left out are left out too, through every pixel but the eyes' and lips' contours
 * and the brows of `thin` (see `followThinLines`).
 */
export function skinLikeness(
  lab: Float32Array,
  learnt: TrimmedColour,
  judge: Uint8Array,
  face: Uint8Array,
  width: number,
  height: number,
  { tolerance = 1, foreign, followOnly, followLight = false, hue: judgeHue = false, thin }: { tolerance?: number; foreign?: ForeignColour; followOnly?: FollowOnly; followLight?: boolean; hue?: boolean; thin?: Omit<ThinMasks, 'face'> } = {},
): Float32Array {
  const likeness = new Float32Array(width * height).fill(1);
  // A foreign colour is looked for over the whole face: a hand lies over an eye or the mouth as well as the skin.
  const judgedAll = foreign ? face : judge;
  const judged = indicesOf(judgedAll);
  const one = robustSkin(learnt);
  if (!one) return likeness;
  const followed = followLight && litByTwoColours(learnt) ? followedLight(lab, learnt, width, height) : null;
  const skin = followed?.skin ?? one;
  // The skin's colour a pixel is judged against: the face's one colour, or the colour around it.
  const centre = (p: number, k: number) => (followed ? followed.colour[p * 3 + k]! : skin.median[k]!);
  // Under two lights the skin's hue spreads as widely as its colour; the colour around each pixel judges it there.
  const hue = judgeHue && !followed ? skinHue(lab, learnt.kept, learnt.median[0]!) : null;
  const distances = new Float32Array(width * height);
  // Each pixel's foreignness, kept for the join (see `JOIN_DARKER`) when the colour is not far darker than the skin.
  const towards = foreign && lighterFromValley(foreign) > -JOIN_DARKER ? new Float32Array(width * height) : null;
  for (let n = 0; n < judged.length; n++) {
    const p = judged[n]!;
    let distance = 0;
    if (judge[p]) {
      const lighter = lab[p * 3]! - centre(p, 0);
      distance = Math.abs(lighter) / (tolerance * (lighter > 0 ? skin.lighterReach : skin.reach[0]!));
      for (let k = 1; k < 3; k++) distance = Math.max(distance, Math.abs(lab[p * 3 + k]! - centre(p, k)) / (tolerance * skin.reach[k]!));
      if (hue) distance = Math.max(distance, hueDistance(lab, p, hue) / tolerance);
    }
    if (foreign) {
      const share = foreignness(lab, p, foreign);
      if (towards) towards[p] = share;
      distance = Math.max(distance, FOREIGN_SHARPNESS * FADE * share);
    }
    distances[p] = distance;
  }
  if (towards) {
    const joined = floodFill(towards.length, width, (p) => judgedAll[p] === 1 && towards[p]! >= 1 / FOREIGN_SHARPNESS, (p) => judgedAll[p] === 1 && towards[p]! > 0);
    for (let p = 0; p < joined.length; p++) if (joined[p]) distances[p] = Math.max(distances[p]!, FADE);
  }
  // Follow-only pixels are left out of the averaging, or the halo it spreads from them onto the skin around would reach outside for them.
  const averaged = followOnly ? judgedAll.map((j, p) => j & (1 - followOnly.pixels[p]!)) : judgedAll;
  const steps = (share: number) => Math.max(1, Math.round(share * Math.min(width, height)));
  const smoothed = blurMap(distances, width, height, steps(DISTANCE_SMOOTHING), averaged);
  for (let n = 0; n < judged.length; n++) {
    const p = judged[n]!;
    const distance = distances[p]! >= FADE ? distances[p]! : smoothed[p]!;
    likeness[p] = distance <= 1 ? 1 : distance >= FADE ? 0 : 1 - (distance - 1) / (FADE - 1);
  }
  const follow = followOnly && {
    pixels: followOnly.pixels,
    reach: steps(FOLLOW_REACH),
    dark: followOnly.darkFurther?.map((f, p) => (f && lab[p * 3]! < centre(p, 0) ? 1 : 0)),
    darkReach: steps(DARK_FOLLOW_REACH),
  };
  keepReachingOutside(likeness, face, width, height, follow);
  if (thin) followThinLines(likeness, lab, (p) => centre(p, 0), skin, { face, ...thin }, width, height);
  return soften(likeness, width, height);
}

/**
 * The follow of long thin lines (`keepThinOccluders`) over a face's likeness map: the lines are
 * told by lightness alone (lips and make-up differ from the skin in colour, a frame in lightness),
 * against the skin's lightness at each pixel, within `masks.face` but not its eyes' and lips'
 * contours nor the brows themselves; very dark lines once more on their own (`DARK_LINE_SHARE`),
 * through the brows too, and carried a little way into the contours (`DARK_LINE_CARRY`). Either
 * is left out only when it reaches below the line through the eyes' corners (`masks.belowEyes`):
 * a frame's rims go round the eyes, while a thin arched brow that runs into the hair at the temple
 * stays above them. Photo 6's face 1's brow, longer than `THIN_LENGTH`, was kept in front of every
 * face swapped into her (identity by both on all pairs 376 → 378, a drawn frame kept as before).
 */
function followThinLines(likeness: Float32Array, lab: Float32Array, skinLightness: (p: number) => number, skin: SkinReach, masks: ThinMasks, width: number, height: number, thinLength = THIN_LENGTH): void {
  const clearly = new Uint8Array(width * height);
  const dark = new Uint8Array(width * height);
  const darkInOpenings = new Uint8Array(width * height);
  for (let p = 0; p < clearly.length; p++) {
    if (!masks.face[p]) continue;
    const isDark = lab[p * 3]! < DARK_LINE_SHARE * skinLightness(p) ? 1 : 0;
    if (masks.openings[p]) {
      darkInOpenings[p] = isDark;
      continue;
    }
    dark[p] = isDark;
    if (masks.browLines[p]) continue;
    const lighter = lab[p * 3]! - skinLightness(p);
    clearly[p] = Math.abs(lighter) / (lighter > 0 ? skin.lighterReach : skin.reach[0]!) >= FADE ? 1 : 0;
  }
  const side = Math.min(width, height);
  const halfWidth = Math.max(1, THIN_HALF_WIDTH * side);
  const reaching = masks.belowEyes;
  keepThinOccluders(likeness, clearly, masks.face, width, height, { halfWidth, length: thinLength * side, reaching });
  const carry = { pixels: darkInOpenings, reach: Math.max(1, Math.round(DARK_LINE_CARRY * side)) };
  keepThinOccluders(likeness, dark, masks.face, width, height, { halfWidth, length: DARK_LINE_LENGTH * side, inward: DARK_LINE_INWARD * side, reaching, carry });
}

/**
 * `thinOccluders` again, at a face box's own resolution, over a likeness map enlarged from a coarser
 * grid (`faceSkinLikeness` on `workingGrid` cells): on the grid a glasses frame on a face over 160
 * px is half as wide and blended with the skin beside it, and was mostly lost (a frame drawn across
 * each of the 22 demo faces: 41 % of it kept at the median, 84 % with this). Lines clearly lighter
 * or darker than the skin count from `FINE_THIN_LENGTH`.
 */
export function leaveOutThinLines(likeness: Float32Array, lab: Float32Array, learnt: TrimmedColour, mesh: Float32Array, topology: MeshTopology, width: number, height: number): void {
  const skin = robustSkin(learnt);
  if (!skin) return;
  const bits = topology.openings.map((_, t) => FACE | thinBits(topology, t));
  const flags = triangleFlags(mesh, topology.triangles, bits, width, height);
  const withBit = (bit: number) => flags.map((f) => (f & bit ? 1 : 0));
  const masks = { face: withBit(FACE), openings: withBit(OPENING), browLines: withBit(BROW_LINE), belowEyes: withBit(BELOW_EYES) };
  followThinLines(likeness, lab, () => skin.median[0]!, skin, masks, width, height, FINE_THIN_LENGTH);
}

/** Where thin lines are followed (see `followThinLines`): within `face`, never into `openings`, into `browLines` only very dark ones. */
interface ThinMasks {
  face: Uint8Array;
  openings: Uint8Array;
  browLines: Uint8Array;
  /** A line is left out only when it reaches in here (`MeshTopology.belowEyes`). */
  belowEyes: Uint8Array;
}

/** A triangle's bits for the follow of thin lines (`ThinMasks`). */
function thinBits(topology: MeshTopology, t: number): number {
  return (topology.openings[t] ? OPENING : 0) | (topology.browLines[t] ? BROW_LINE : 0) | (topology.belowEyes[t] ? BELOW_EYES : 0);
}

/** Follow-only pixels and how far they are followed, in steps (see `keepReachingOutside`). */
interface Following {
  pixels: Uint8Array;
  reach: number;
  /** Follow-only pixels followed on past `reach`, up to `darkReach`. */
  dark: Uint8Array | undefined;
  darkReach: number;
}

/**
 * Resets to 1 every off-skin patch (4-connected pixels below 1) that touches no pixel outside
 * `face`. Follow-only pixels neither count as touching the outside nor carry the patch on:
 * they are left out only within `reach` steps of a patch that reaches outside through other
 * pixels (dark ones in the brows' zone within `darkReach`). Hair across a brow's end, or the
 * wall beyond a profile's silhouette over the far eye the mesh lays there, is left out where it
 * comes in, while the near eye beside it is kept.
 */
function keepReachingOutside(likeness: Float32Array, face: Uint8Array, width: number, height: number, follow: Following | undefined): void {
  const reached = new Uint8Array(likeness.length);
  const queue = new Int32Array(likeness.length);
  let tail = 0;
  const offSkin = (p: number) => likeness[p]! < 1 && !reached[p];
  const visit = (q: number, accepts: (q: number) => boolean) => {
    if (!offSkin(q) || !accepts(q)) return;
    reached[q] = 1;
    queue[tail++] = q;
  };
  // The unreached off-skin 4-neighbours of `p` that `accepts` takes join the queue (no array per pixel: this runs on every video frame).
  const spread = (p: number, accepts: (q: number) => boolean) => {
    const x = p % width;
    if (x > 0) visit(p - 1, accepts);
    if (x < width - 1) visit(p + 1, accepts);
    if (p >= width) visit(p - width, accepts);
    if (p + width < likeness.length) visit(p + width, accepts);
  };
  for (let p = 0; p < likeness.length; p++) {
    if (!offSkin(p) || follow?.pixels[p]) continue;
    const x = p % width, y = (p - x) / width;
    const atEdge = x === 0 || y === 0 || x === width - 1 || y === height - 1;
    if (atEdge || !face[p - 1] || !face[p + 1] || !face[p - width] || !face[p + width]) {
      reached[p] = 1;
      queue[tail++] = p;
    }
  }
  const notFollowOnly = (q: number) => !follow?.pixels[q];
  for (let head = 0; head < tail; head++) spread(queue[head]!, notFollowOnly);
  if (follow) {
    const { pixels, reach, dark, darkReach } = follow;
    const isFollowOnly = (q: number) => pixels[q] === 1;
    const isDark = (q: number) => dark![q] === 1;
    // Breadth first from the whole patch, one step further into the follow-only pixels per round;
    // past `reach`, on through dark ones only, from the patch's front where it is dark or not yet follow-only.
    let from = 0;
    for (let step = 0; step < (dark ? Math.max(reach, darkReach) : reach) && from < tail; step++) {
      const end = tail;
      for (let head = from; head < end; head++) {
        const p = queue[head]!;
        if (step < reach) spread(p, isFollowOnly);
        else if (dark![p] || !pixels[p]) spread(p, isDark);
      }
      from = end;
    }
  }
  for (let p = 0; p < likeness.length; p++) if (likeness[p]! < 1 && !reached[p]) likeness[p] = 1;
}

/** A skin's colour, and how far from it (lighter: `lighterReach`) a colour is still fully skin. */
interface SkinReach {
  median: number[];
  reach: number[];
  lighterReach: number;
}

/** The skin's median colour and reaches, or null with too few skin pixels to tell. */
function robustSkin({ kept, median, spread }: TrimmedColour): SkinReach | null {
  return kept.length < 16 ? null : reaches(median, spread);
}

/** How far from `median` a colour is still fully skin, for a skin of `spread` per channel. */
function reaches(median: number[], spread: number[]): SkinReach {
  const reach = spread.map((s, k) => {
    const { spreads, floor } = k === 0 ? LIGHTNESS_REACH : COLOUR_REACH;
    return Math.max(spreads * s, floor);
  });
  return { median, reach, lighterReach: Math.max(LIGHTER_REACH.spreads * spread[0]!, LIGHTER_REACH.floor) };
}

/**
 * The skin's colour around each pixel (a low-pass of the learnt skin pixels over
 * `FOLLOWED_LIGHT_RADIUS`; the face's one colour where hardly any skin is near), and the reaches
 * of the skin's spread about it. On a face lit by two colours, one colour for the whole face
 * spreads so wide that hair passes for skin: photo 3's face 2's dark hair across one cheek was
 * drawn as a brown sheet over every target's cheek. Judged against the skin beside it, the hair
 * is left out and painted over. Only for such faces: on the others, the subset's identity by both
 * recognisers fell 135 → 132 (the skin around a pixel is stricter than the face's spread), where
 * for photo 3's sources alone it held (135).
 */
function followedLight(lab: Float32Array, learnt: TrimmedColour, width: number, height: number): { colour: Float32Array; skin: SkinReach } {
  const learnFrom = new Uint8Array(width * height);
  for (let n = 0; n < learnt.kept.length; n++) learnFrom[learnt.kept[n]!] = 1;
  const around = maskedBlur(lab, learnFrom, width, height, Math.max(2, Math.round(FOLLOWED_LIGHT_RADIUS * Math.min(width, height))));
  const colour = around.mean;
  for (let p = 0; p < around.weight.length; p++) {
    if (around.weight[p]! < FOLLOWED_LIGHT_MIN_SHARE) for (let k = 0; k < 3; k++) colour[p * 3 + k] = learnt.median[k]!;
  }
  const residual = new Float32Array(lab.length);
  for (let i = 0; i < residual.length; i++) residual[i] = lab[i]! - colour[i]!;
  return { colour, skin: reaches(learnt.median, trimmedColour(residual, learnt.kept, TRIM_SPREADS).spread) };
}

function soften(map: Float32Array, width: number, height: number): Float32Array {
  const radius = Math.max(1, Math.round(SOFTEN * Math.min(width, height)));
  const mean = blurMap(map, width, height, radius);
  // The minimum widens what is not skin by the blur's reach, so the fade lies on the skin side.
  for (let p = 0; p < map.length; p++) mean[p] = Math.min(map[p]!, mean[p]!);
  return mean;
}
