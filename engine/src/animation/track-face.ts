import type { RgbImage } from '../faces/decode-image';
import { meshExtent, type Face } from '../faces/detect-faces';
import { meshCentre } from './face-motion';

/** The face's box is compared at about this many pixels across. */
const MATCH_SIZE = 32;
/** How far the face may have moved between two frames, as a share of its size. */
const SEARCH = 0.3;
/** How much the face may have grown or shrunk between two frames (a zoom, a step towards the camera), as a share of its size. */
const SCALE_SEARCH = 0.1;
/** Scales tried around the expected one are this share of it apart. */
const SCALE_STEP = 0.01;
/** Of the box, at least this share must be inside both frames to compare. */
const MIN_OVERLAP = 0.35;
/**
 * Mean absolute difference (levels, grey) above which the best match is not taken for the face:
 * a cut to another scene. Loose, because the best shift is what counts and a face half out of the
 * frame, re-encoded and zoomed, measured up to 23 at its true position.
 */
const MAX_DIFFERENCE = 30;
/** Of the face's mesh extent, at least this share of each side must stay inside the frame. */
const MIN_INSIDE = 0.25;

/**
 * Where `face`, seen on `from`, is on the next frame `to`, by the shift of its box's pixels that
 * matches best (block matching on grey, at `MATCH_SIZE` px): for the frames where the detector
 * misses a face it has been following (half out of the frame at the end of a pan, blurred by
 * motion). Only the parts inside both frames are compared, so a face leaving the frame still
 * matches. Null when no shift matches well enough, or the face has left the frame. `expected`
 * centres the search on a shift expected, with the face grown by `scale` about its box's centre
 * (a zoom between frames some way apart), and sets its reach (a share of the face's size); with
 * `scaleSearch`, the scale is searched too, so a face tracked through a zoom grows with it (by
 * default, from one frame to the next, within `SCALE_SEARCH`).
 */
export function trackFace(from: RgbImage, to: RgbImage, face: Face, expected: Expected = { dx: 0, dy: 0, scale: 1, search: SEARCH, scaleSearch: SCALE_SEARCH }): Face | null {
  const { box } = face;
  const step = Math.max(1, Math.round(Math.max(box.width, box.height) / MATCH_SIZE));
  const range = Math.ceil((expected.search * Math.max(box.width, box.height)) / step);
  const [cx, cy] = [Math.round(expected.dx), Math.round(expected.dy)];
  const best = { dx: 0, dy: 0, difference: Infinity };
  const samples = boxSamples(from, box, step);
  const consider = (dx: number, dy: number) => {
    const difference = meanDifference(samples, to, box, { dx, dy, scale: expected.scale });
    if (difference !== null && difference < best.difference) Object.assign(best, { dx, dy, difference });
  };
  // Coarse shifts a sample apart, then every pixel around the best of them.
  for (let sy = -range; sy <= range; sy++) for (let sx = -range; sx <= range; sx++) consider(cx + sx * step, cy + sy * step);
  const coarse = { ...best };
  for (let dy = 1 - step; dy < step; dy++) for (let dx = 1 - step; dx < step; dx++) consider(coarse.dx + dx, coarse.dy + dy);
  if (best.difference > MAX_DIFFERENCE) return null;
  const move = expected.scaleSearch ? bestScale(samples, to, box, best, expected) : { scale: expected.scale, dx: best.dx, dy: best.dy };
  return moved(face, move, to);
}

/**
 * At the best shift, the scale (within `expected.scaleSearch` of the expected one, a step apart)
 * that matches best, then the shift a pixel either way at that scale: a face grown about its box's
 * centre keeps its place, so the shift found at the expected scale is at most a pixel off.
 */
function bestScale(samples: BoxSamples, to: RgbImage, box: Face['box'], at: { dx: number; dy: number; difference: number }, expected: Expected): Move {
  const best = { dx: at.dx, dy: at.dy, scale: expected.scale, difference: at.difference };
  const consider = (move: Move) => {
    const difference = meanDifference(samples, to, box, move);
    if (difference !== null && difference < best.difference) Object.assign(best, move, { difference });
  };
  const reach = Math.round((expected.scaleSearch ?? 0) / SCALE_STEP);
  for (let k = -reach; k <= reach; k++) consider({ dx: at.dx, dy: at.dy, scale: expected.scale * (1 + k * SCALE_STEP) });
  const { dx, dy, scale } = best;
  for (let y = -1; y <= 1; y++) for (let x = -1; x <= 1; x++) consider({ dx: dx + x, dy: dy + y, scale });
  return best;
}

/** Where to look for a face on the frame `trackFace` is given: around a shift, with the face grown by a scale, searched up to a share of its size. */
export interface Expected {
  dx: number;
  dy: number;
  scale: number;
  search: number;
  /** How far the face's scale is searched about `scale`, as a share of it (none when absent). */
  scaleSearch?: number;
}

/**
 * Where to look for `face` on a frame where it is expected as `there` (interpolated, or detected):
 * grown as its box grows (or by `scale`), about the box's centre (a zoom), and shifted so its mesh's
 * centre lands on `there`'s; searched up to `search` of its size around that.
 */
export function expectedAs(face: Face, there: Face, search: number, scale = sizeRatio(face, there)): Expected {
  const [[fx, fy], [tx, ty]] = [meshCentre(face.mesh), meshCentre(there.mesh)];
  const [bx, by] = [face.box.x + face.box.width / 2, face.box.y + face.box.height / 2];
  return { dx: tx - (bx + (fx - bx) * scale), dy: ty - (by + (fy - by) * scale), scale, search };
}

/** How many times larger `there`'s box is than `face`'s (the square root of their areas' ratio). */
export function sizeRatio(face: Face, there: Face): number {
  return Math.sqrt((there.box.width * there.box.height) / (face.box.width * face.box.height));
}

/** A move of a face's box: grown by `scale` about its centre, then shifted. */
interface Move {
  dx: number;
  dy: number;
  scale: number;
}

/** Where `move` takes the point (x, y) of `box`. */
function movedPoint(box: Face['box'], { dx, dy, scale }: Move, x: number, y: number): [number, number] {
  if (scale === 1) return [x + dx, y + dy];
  const [bx, by] = [box.x + box.width / 2, box.y + box.height / 2];
  return [bx + (x - bx) * scale + dx, by + (y - by) * scale + dy];
}

const greyAt = (image: RgbImage, x: number, y: number) => {
  const p = (y * image.width + x) * 3;
  return 0.299 * image.rgb[p]! + 0.587 * image.rgb[p + 1]! + 0.114 * image.rgb[p + 2]!;
};

/**
 * The box's samples on `from`, every `step` px across and down: their positions, and their grey
 * (NaN where the box runs past `from`). Worked out once per search, where each shift tried read
 * them again (a 720p frame's search tries about 700).
 */
interface BoxSamples {
  xs: number[];
  ys: number[];
  grey: Float64Array;
}

function boxSamples(from: RgbImage, box: Face['box'], step: number): BoxSamples {
  const xs: number[] = [], ys: number[] = [];
  for (let x = box.x; x < box.x + box.width; x += step) xs.push(x);
  for (let y = box.y; y < box.y + box.height; y += step) ys.push(y);
  const grey = new Float64Array(xs.length * ys.length);
  ys.forEach((y, row) => xs.forEach((x, column) => (grey[row * xs.length + column] = x < from.width && y < from.height ? greyAt(from, x, y) : NaN)));
  return { xs, ys, grey };
}

/** Mean |grey difference| of the box's samples on `from` and the box moved by `move` on `to`, over the samples inside both; null when too few are. */
function meanDifference(samples: BoxSamples, to: RgbImage, box: Face['box'], { dx, dy, scale }: Move): number | null {
  const [bx, by] = [box.x + box.width / 2, box.y + box.height / 2];
  const { xs, ys, grey } = samples;
  let sum = 0;
  let count = 0;
  for (let row = 0; row < ys.length; row++) {
    const y = ys[row]!;
    const ty = scale === 1 ? y + dy : Math.round(by + (y - by) * scale + dy);
    if (ty < 0 || ty >= to.height) continue;
    for (let column = 0; column < xs.length; column++) {
      const x = xs[column]!;
      const tx = scale === 1 ? x + dx : Math.round(bx + (x - bx) * scale + dx);
      const own = grey[row * xs.length + column]!;
      if (tx < 0 || tx >= to.width || Number.isNaN(own)) continue;
      sum += Math.abs(own - greyAt(to, tx, ty));
      count++;
    }
  }
  return count >= MIN_OVERLAP * grey.length && count > 0 ? sum / count : null;
}

/** The face moved by `move`, its box the mesh's extent clipped to the frame; null when too little of it is left inside. */
function moved(face: Face, move: Move, frame: RgbImage): Face | null {
  const mesh = new Float32Array(face.mesh.length);
  for (let i = 0; i < mesh.length; i += 2) [mesh[i], mesh[i + 1]] = movedPoint(face.box, move, face.mesh[i]!, face.mesh[i + 1]!);
  const { minX, maxX, minY, maxY } = meshExtent(mesh);
  const x = Math.max(0, Math.floor(minX));
  const y = Math.max(0, Math.floor(minY));
  const right = Math.min(frame.width, Math.ceil(maxX) + 1);
  const bottom = Math.min(frame.height, Math.ceil(maxY) + 1);
  if (right - x < MIN_INSIDE * (maxX - minX) || bottom - y < MIN_INSIDE * (maxY - minY)) return null;
  return { ...face, mesh, box: { x, y, width: right - x, height: bottom - y }, descriptor: null };
}
