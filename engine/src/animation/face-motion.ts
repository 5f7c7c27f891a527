import type { Face } from '../faces/detect-faces';
import type { Box } from '../faces/face-order';

/** How far (in face sizes) a face may move between two looks and still be taken for the same one. */
const NEAR_DISTANCE = 0.6;
/** How much a face may grow or shrink between two looks and still be taken for the same one. */
const NEAR_SCALE = 1.5;
/** Between two keyframes, a face that moved less than this (in face sizes) is interpolated. */
const SMOOTH_DISTANCE = 0.5;
/** ... and that grew or shrank less than this. */
const SMOOTH_SCALE = 1.25;

const centre = (box: Box) => [box.x + box.width / 2, box.y + box.height / 2] as const;
const size = (box: Box) => Math.sqrt(box.width * box.height);

function within(a: Box, b: Box, distance: number, scale: number): boolean {
  const [ax, ay] = centre(a);
  const [bx, by] = centre(b);
  const ratio = size(b) / size(a);
  return Math.hypot(bx - ax, by - ay) <= distance * size(a) && ratio <= scale && ratio >= 1 / scale;
}

/** Whether `next` is where the face last seen as `previous` could plausibly be now. */
export function isNear(previous: Face, next: Face): boolean {
  return within(previous.box, next.box, NEAR_DISTANCE, NEAR_SCALE);
}

/** Whether the motion from `a` to `b` is small enough for the frames between to be interpolated. */
export function movedSmoothly(a: Face, b: Face): boolean {
  return within(a.box, b.box, SMOOTH_DISTANCE, SMOOTH_SCALE);
}

/** Of `faces`, the one nearest to `previous` within reach (see `isNear`), skipping `taken` ones. */
export function nearestFace(previous: Face, faces: readonly Face[], taken: ReadonlySet<Face> = new Set()): Face | null {
  const [px, py] = centre(previous.box);
  let best: Face | null = null;
  let bestGap = Infinity;
  for (const face of faces) {
    if (taken.has(face) || !isNear(previous, face)) continue;
    const [x, y] = centre(face.box);
    const gap = Math.hypot(x - px, y - py);
    if (gap < bestGap) [best, bestGap] = [face, gap];
  }
  return best;
}

/** The mean of a mesh's points. */
export function meshCentre(mesh: Float32Array): [number, number] {
  let [x, y] = [0, 0];
  for (let i = 0; i < mesh.length; i += 2) [x, y] = [x + mesh[i]!, y + mesh[i + 1]!];
  return [(2 * x) / mesh.length, (2 * y) / mesh.length];
}

const lerp = (from: number, to: number, t: number) => from + (to - from) * t;

function lerpPoints(a: Float32Array, b: Float32Array, t: number): Float32Array {
  const out = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = lerp(a[i]!, b[i]!, t);
  return out;
}

/**
 * The face at fraction `t` of the way from `a` to `b`: every mesh point moves on a straight line.
 * The box moves likewise; since each point's path stays between its two ends, the interpolated
 * box holds the interpolated mesh wherever both ends' boxes held theirs.
 */
export function interpolateFace(a: Face, b: Face, t: number): Face {
  const x = Math.floor(lerp(a.box.x, b.box.x, t));
  const y = Math.floor(lerp(a.box.y, b.box.y, t));
  const right = Math.ceil(lerp(a.box.x + a.box.width, b.box.x + b.box.width, t));
  const bottom = Math.ceil(lerp(a.box.y + a.box.height, b.box.y + b.box.height, t));
  return {
    index: a.index,
    box: { x, y, width: right - x, height: bottom - y },
    mesh: lerpPoints(a.mesh, b.mesh, t),
    depth: lerpPoints(a.depth, b.depth, t),
    score: Math.min(a.score, b.score),
    descriptor: null,
  };
}
