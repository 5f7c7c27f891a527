import type { RgbImage } from '../faces/decode-image';
import type { Face } from '../faces/detect-faces';
import type { Box } from '../faces/face-order';
import type { MeshTopology } from '../faces/mesh-topology';
import { hiddenFarSide, seenInProfile } from '../faces/hidden-far-side';
import { meshTurn } from '../faces/mesh-mirror';
import { anchorCentre } from './anchor-centre';
import { blendFaceShape } from './face-shape';
import { enhanceFace } from './enhance-face';
import { extendOutline } from './extend-outline';
import { fadeBeyondOutline } from './fade-beyond-outline';
import { featherMask } from './feather-mask';
import { fillNotSkin } from './fill-not-skin';
import type { ForeignColour } from './foreign-colour';
import { poissonBlend } from './poisson-blend';
import type { PreparedSource } from './prepared-source';
import { indicesOf } from './mask-indices';
import { blurMap } from './masked-blur';
import { toLab } from './lab-colour';
import { faceSkin, faceSkinLikeness, leaveOutThinLines } from './skin-likeness';
import { dropSpecks } from './drop-specks';
import { monochromeHue, takeHue } from './monochrome';
import { nearHalfOnly } from './near-half-only';
import { matchSharpness } from './match-sharpness';
import { maskOf } from './rasterise-mesh';
import { transferTone } from './transfer-colour';
import { toBox, warpFace, type WarpedFace } from './warp-face';
import { enlargeValues, layBack, shrinkMask, shrinkValues, SKIN_MAP_CELLS, toGrid, workingGrid, type WorkingGrid } from './working-grid';

export interface SwapFaceOptions {
  /** The mesh's structure (`meshTopology()`). */
  topology: MeshTopology;
  /** Run the face enhancer over the swapped face. */
  enhance?: boolean;
  /**
   * Follow thin lines across a large target face (a glasses frame) at the face's own resolution
   * too, not only on its skin map's grid (`leaveOutThinLines`): about 9 ms more for a 240 px face.
   * Image swaps ask for it; video frames do not, for their frame rate.
   */
  fineOccluders?: boolean;
  /**
   * What is carried from one frame of a person to the next (video, GIF): the foreign colour (another
   * person's hand) found on their face, read and updated by each swap.
   */
  memory?: FaceMemory;
  /** When given, milliseconds spent in each step are added to it (for the bench). */
  timings?: Record<SwapStep, number>;
}

/** What `swapFaceInto` carries from one frame of a person to the next. */
export interface FaceMemory {
  foreign: ForeignColour | null;
}

export type SwapStep = 'warp' | 'colour' | 'blend' | 'enhance' | 'compose';

/** How far the face's inner proportions follow the source (see `blendFaceShape`). */
const SHAPE_STRENGTH = 1;
/**
 * How far in from the face's edge the Poisson blend's correction reaches (fading out), as a share
 * of the box's short side. Harmonic, the correction carried what the edge differed by (light on
 * the hair line, a jaw's shadow) into the middle of the face, which the tone transfer had already
 * lit as the target. Faded out over 35 % of the face, on the report's 462 pairs: the face-centre
 * tone from median 3.47 / worst 6.37 to 3.17 / 6.13, identity by both from 365 to 368 passes,
 * the seam ratio as it was (1.19 / 2.88). Over 15-25 % the report was as good, but the face the
 * detector found again on one open smile (photo 3's face 2) had its lips closed. With no blend at
 * all, 375 passes, but the forehead's top edge showed as a band (the seam ratio's worst 3.13).
 */
const BLEND_REACH = 0.35;
/** Width of the feathered edge, as a fraction of the face box's short side. */
const FEATHER_FRACTION = 0.04;
/**
 * Width of the feathered edge around the mouth's hole (the target's mouth interior), as a share of
 * the box's short side. At the outline's 4 % the target's own lips, which lie within that reach of
 * the opening, showed through the new ones (photo 1's face 0's red lipstick at the corners of every
 * new mouth). At 2 %, on the report's 462 pairs: identity by both 383 → 386, margins' sums +6 % /
 * +8 %, the seam ratio's worst as it was (1.86), the face-centre tone (the lips are in it) median
 * / worst 2.79 / 5.26 → 2.97 / 6.16. At 1 %, 387 passes, but the target's dark mouth interior
 * ringed the new lips with a hard line (2-1 ← 1-2) and the seam ratio's worst rose to 2.17.
 */
const MOUTH_FEATHER_FRACTION = 0.02;
/**
 * Radius of the blur over the map of the source's features surely drawn (`GridInput.shadowed`), as
 * a share of the grid's short side. The map is the features' triangles times the source's skin
 * confidence, which keeps a blurry JPEG's 8 px blocks where hair lies across a feature, and the
 * tone step deepens dark pixels by it: source 5-4's hair over her brow's end came out on 6-3's
 * temple as a dark patch with stepped edges. Softened, on the report's 462 pairs: identity by
 * both 385 → 386, faceres 429 → 431, margins' sums +1.4 % / +2.4 %, tone and seam as before.
 */
const SHADOWED_SOFTEN = 0.02;
/** Radius of the blur over the warp's sharpness map, as a share of the box's short side. */
const SHARPNESS_SOFTEN = 0.03;
/** Over how much of the near half a profile target's own far half fades into the new face, as a share of the box's short side. */
const FAR_HALF_FADE = 0.03;
/**
 * How far from its own skin's colour a target pixel may be and still be drawn over (see
 * `skinLikeness`); looser than for the source: a target's shadows and make-up should take the new
 * face, only what clearly is not skin (hair, a hand, glasses) stays in front.
 */
const OCCLUDER_TOLERANCE = 2;

/**
 * Replaces one face of a frame with the source face, in place, changing only pixels strictly
 * inside the box of the face's region (its mesh reaching out at the forehead and temples:
 * `extendOutline`). Works on raw RGB so still images, GIF frames and video frames share it.
 *
 * Steps: pick the source as photographed or mirrored, whichever is turned more like the target (the
 * other view stands in where the chosen one is not the source's skin: see `warpFace`); give the
 * target's mesh the source's inner proportions (the source turned in depth on a profile: see
 * `blendFaceShape`); warp the source onto that mesh, triangle by triangle, eyes included (they
 * carry much of the identity; the source's eyes land in the target's lid outline); soften it to the
 * target's blur where the target is the softer photo (`matchSharpness`); paint skin over what hid
 * the source's face (`fillNotSkin`); keep the target's mouth interior (a hole in the
 * triangulation); give it the target's lighting and skin tone (`transferTone`); Poisson-blend into
 * the target; bring the face's centre back within reach of the target's colour where the source's
 * detail left it far off (`anchorCentre`), these and the target's skin map on coarser grids for a
 * large face (`workingGrid`); on a photo in one colour (black and white, sepia), give the new face
 * that colour (`takeHue`); mix with a feathered mask that fades out across the band beyond the
 * face's outline (`fadeBeyondOutline`), leaves in front whatever lies across the target's face and
 * is not its skin, the target's own skin where a sliver of the source would be stretched into
 * streaks, and on a target seen in profile its own far half (`nearHalfOnly`); optionally enhance.
 */
export function swapFaceInto(frame: RgbImage, target: Face, source: PreparedSource, options: SwapFaceOptions): void {
  if (target.box.width < 3 || target.box.height < 3) return;
  const { topology } = options;
  const { box, mesh, depth } = extendOutline(target, frame, topology);
  const { width, height } = box;
  const step = stepTimer(options.timings);
  const turn = meshTurn(mesh, topology.triangles, topology.sides);
  const [primary, secondary] = Math.abs(source.mirrored.turn - turn) < Math.abs(source.face.turn - turn) ? [source.mirrored, source.face] : [source.face, source.mirrored];
  // Where either face is seen in profile, the source is turned in depth into the target's pose.
  const inPose = Math.max(hiddenFarSide(mesh, topology.rings), hiddenFarSide(primary.mesh, topology.rings));
  const shape = blendFaceShape({ mesh, depth }, primary, topology.rings, { strength: SHAPE_STRENGTH, inPose });
  const warped = warpFace({ primary, secondary }, shape, box, topology.triangles);
  const original = readBox(frame, box);
  const features = maskOf(warped.map, topology.features);
  matchSharpness(warped.rgb, confident(warped.covered.slice(), warped.confidence), original, features, width, height);
  const filled = fillNotSkin(warped.rgb, warped.confidence, warped.covered, width, height);
  step('warp');
  const warpedSkin = confident(maskOf(warped.map, topology.skin), warped.confidence);
  const grid = workingGrid(width, height);
  const coarse = onGrid(grid, { warped, warpedSkin, features, original }, width, height);
  // The target's skin map, on a grid of its own (`SKIN_MAP_CELLS`): what stays in front of the new face.
  const boxMesh = toBox(mesh, box);
  const skinGrid = workingGrid(width, height, { cells: SKIN_MAP_CELLS });
  const sameGrid = skinGrid.factor === grid.factor;
  const skinGridLab = sameGrid ? coarse.originalLab : toLab(skinGrid.factor === 1 ? original : shrinkValues(original, 3, width, height, skinGrid));
  const own = faceSkinLikeness(skinGridLab, toGrid(boxMesh, skinGrid), topology, skinGrid.width, skinGrid.height, {
    tolerance: OCCLUDER_TOLERANCE,
    features: 'outline',
    thinOccluders: true,
    foreignColour: true,
    rememberedColour: options.memory?.foreign,
  });
  if (options.memory) options.memory.foreign = own.foreign;
  dropSpecks(own.likeness, skinGrid.width, skinGrid.height);
  const skin = transferTone({
    warped: coarse.rgb,
    targetLab: coarse.originalLab,
    apply: indicesOf(coarse.covered),
    targetSkin: sameGrid ? own.skin : faceSkin(coarse.originalLab, toGrid(boxMesh, grid), topology, grid.width, grid.height, own.foreign),
    warpedSkin: coarse.warpedSkin,
    shadowed: coarse.shadowed,
    width: grid.width,
    height: grid.height,
  });
  step('colour');
  const gridRegion = blendRegion(coarse.covered, grid.width, grid.height);
  poissonBlend(coarse.rgb, coarse.original, gridRegion, skin, grid.width, grid.height, Math.max(2, BLEND_REACH * Math.min(grid.width, grid.height)));
  anchorCentre(coarse.rgb, { rgb: coarse.original, lab: coarse.originalLab }, gridRegion, grid.width, grid.height, faceOnGrid(target.box, box, grid));
  if (coarse.drawn) layBack(warped.rgb, { toned: coarse.rgb, drawn: coarse.drawn, covered: coarse.covered }, grid, width, height);
  // On a photo in one colour (black and white, sepia), the new face takes that colour.
  const hue = monochromeHue(coarse.originalLab, own.skin.median);
  if (hue) takeHue(warped.rgb, warped.covered, hue);
  // The opacity is worked out at full resolution: on the grid, the region's edge moved up to two
  // cells inwards, and the recognisers found fewer swaps closer to the source (76 % against 79 %).
  const region = grid.factor === 1 ? gridRegion : blendRegion(warped.covered, width, height);
  const side = Math.min(width, height);
  const alpha = featherMask(region, width, height, Math.max(2, FEATHER_FRACTION * side), Math.max(1, MOUTH_FEATHER_FRACTION * side));
  // Across the band beyond the face's own outline, the new face fades into the hairline.
  const band = fadeBeyondOutline(target, box, topology.triangles);
  for (let p = 0; p < alpha.length; p++) alpha[p]! *= band[p]!;
  // Where the source's face was hidden (hair, a hand, background) and no skin was near to fill it from, the target's own pixels stay.
  for (let p = 0; p < alpha.length; p++) alpha[p]! *= filled[p]!;
  // What lies across the target's face and is not its skin (hair, a hand, glasses) stays in front.
  const likeness = skinGrid.factor === 1 ? own.likeness : enlargeValues(own.likeness, 1, skinGrid, width, height);
  if (options.fineOccluders && skinGrid.factor > 1) leaveOutThinLines(likeness, toLab(original), own.skin, boxMesh, topology, width, height);
  for (let p = 0; p < alpha.length; p++) alpha[p]! *= likeness[p]!;
  // Where the source was stretched into streaks, the target's own skin stays; softened so no triangle's edge shows.
  if (warped.sharpness) {
    const sharpness = blurMap(warped.sharpness, width, height, Math.max(1, Math.round(SHARPNESS_SOFTEN * side)), warped.covered);
    for (let p = 0; p < alpha.length; p++) alpha[p]! *= sharpness[p]!;
  }
  // A target seen in profile shows its near half only; its silhouette and what lies beyond stay its own.
  const profile = seenInProfile(target.mesh, topology.rings);
  if (profile > 0) {
    const shown = nearHalfOnly(warped.map, topology.sides, turn, profile, width, height, FAR_HALF_FADE * side);
    for (let p = 0; p < alpha.length; p++) alpha[p]! *= shown[p]!;
  }
  step('blend');
  if (options.enhance) enhanceFace(warped.rgb, alpha, width, height);
  step('enhance');
  writeBox(frame, box, original, warped.rgb, alpha);
  step('compose');
}

/** The face's own box (the mesh's) inside the swapped `region`'s box, in cells of `grid`. */
function faceOnGrid(face: Box, region: Box, grid: WorkingGrid): Box {
  const x = (face.x - region.x) / grid.factor, y = (face.y - region.y) / grid.factor;
  return { x, y, width: face.width / grid.factor, height: face.height / grid.factor };
}

/** What the smooth steps read, on the working grid (see `workingGrid`). */
interface GridInput {
  /** The warped face: at full resolution, the warp's own buffer, changed in place. */
  rgb: Float32Array;
  /** The warped face as it was before those steps; null at full resolution. */
  drawn: Float32Array | null;
  covered: Uint8Array;
  warpedSkin: Uint8Array;
  /** Per cell, how far it is one of the source's features, surely drawn (see `ToneInput.shadowed`), softened (`SHADOWED_SOFTEN`). */
  shadowed: Float32Array;
  original: Float32Array;
  originalLab: Float32Array;
}

/** The smooth steps' input on `grid`: a cell is covered, or skin, when all its pixels are. */
function onGrid(grid: WorkingGrid, box: { warped: WarpedFace; warpedSkin: Uint8Array; features: Uint8Array; original: Float32Array }, width: number, height: number): GridInput {
  const { warped, warpedSkin, features, original } = box;
  // A plain loop: `Float32Array.from` with a callback cost a 1920 px face's swap about 4 ms.
  const drawnFeatures = new Float32Array(features.length);
  for (let p = 0; p < features.length; p++) if (features[p]) drawnFeatures[p] = warped.confidence[p]!;
  const onGridFeatures = grid.factor === 1 ? drawnFeatures : shrinkValues(drawnFeatures, 1, width, height, grid);
  const shadowed = blurMap(onGridFeatures, grid.width, grid.height, Math.max(1, Math.round(SHADOWED_SOFTEN * Math.min(grid.width, grid.height))));
  if (grid.factor === 1) return { rgb: warped.rgb, drawn: null, covered: warped.covered, warpedSkin, shadowed, original, originalLab: toLab(original) };
  const shrink = (values: Float32Array) => shrinkValues(values, 3, width, height, grid);
  const rgb = shrink(warped.rgb);
  const gridOriginal = shrink(original);
  return {
    rgb,
    drawn: Float32Array.from(rgb),
    covered: shrinkMask(warped.covered, width, height, grid),
    warpedSkin: shrinkMask(warpedSkin, width, height, grid),
    shadowed,
    original: gridOriginal,
    originalLab: toLab(gridOriginal),
  };
}

/** `mask` without the pixels drawn mostly from something that is not the source's skin. */
function confident(mask: Uint8Array, confidence: Float32Array): Uint8Array {
  for (let p = 0; p < mask.length; p++) if (confidence[p]! < 0.5) mask[p] = 0;
  return mask;
}

function stepTimer(timings: Record<SwapStep, number> | undefined): (name: SwapStep) => void {
  let last = performance.now();
  return (name) => {
    if (!timings) return;
    const now = performance.now();
    timings[name] += now - last;
    last = now;
  };
}

/**
 * The pixels the new face replaces: painted by the warp together with their four neighbours (so
 * the blend's gradients are defined), and not on the box's edge.
 */
function blendRegion(covered: Uint8Array, width: number, height: number): Uint8Array {
  const region = new Uint8Array(width * height);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const p = y * width + x;
      region[p] = covered[p]! & covered[p - 1]! & covered[p + 1]! & covered[p - width]! & covered[p + width]!;
    }
  }
  return region;
}

function readBox(frame: RgbImage, box: Face['box']): Float32Array {
  const out = new Float32Array(box.width * box.height * 3);
  for (let y = 0; y < box.height; y++) {
    const from = ((box.y + y) * frame.width + box.x) * 3;
    // `set` converts bytes to floats natively, several times faster than a loop in code.
    out.set(frame.rgb.subarray(from, from + box.width * 3), y * box.width * 3);
  }
  return out;
}

function writeBox(frame: RgbImage, box: Face['box'], original: Float32Array, swapped: Float32Array, alpha: Float32Array): void {
  // A clamped view rounds and clips as it stores: five times faster than rounding and clipping
  // each value in code (a 720p frame's face: 2.1 → 0.4 ms). It rounds exact halves to even.
  const out = new Uint8ClampedArray(frame.rgb.buffer, frame.rgb.byteOffset, frame.rgb.length);
  for (let y = 0; y < box.height; y++) {
    // Channels spelt out and the frame's index stepped, not worked out per pixel: a 720p frame's face is 150 000 pixels.
    for (let p = y * box.width, end = p + box.width, to = ((box.y + y) * frame.width + box.x) * 3; p < end; p++, to += 3) {
      const a = alpha[p]!;
      if (a === 0) continue;
      const i = p * 3;
      const r = original[i]!, g = original[i + 1]!, b = original[i + 2]!;
      out[to] = r + a * (swapped[i]! - r);
      out[to + 1] = g + a * (swapped[i + 1]! - g);
      out[to + 2] = b + a * (swapped[i + 2]! - b);
    }
  }
}
