import { beyondOutline, distanceInside } from './feather-mask';

/** What counts as a line and which lines are left out (see `keepThinOccluders`), in px. */
export interface ThinLines {
  halfWidth: number;
  length: number;
  inward?: number;
  /** A line is left out only when some pixel of it lies where this is 1. */
  reaching?: Uint8Array;
  carry?: Carry;
}

/** Pixels a left-out line is carried on into, up to `reach` px (4-connected steps), though they are not followed as lines themselves. */
export interface Carry {
  pixels: Uint8Array;
  reach: number;
}

/**
 * Likeness below which a pixel counts as left out for how far a line lies from it: an enlarged,
 * softened map is below 1 well beyond what it leaves out, and a glasses frame the coarse map left
 * out is edged so.
 */
const LEFT_OUT = 0.2;

/**
 * Leaves out (likeness 0) the long thin lines of `clearly` (pixels clearly not the face's skin,
 * features included) that run on from what is already left out or from beyond the face's outline:
 * a glasses frame's arms come in from the temples and its rims and bridge go round the eyes and
 * across the nose, through the features that are never judged by colour, so the frame stayed
 * only where it crossed plain skin, in pieces. Thin are the pixels not within `halfWidth` px of a
 * part at least twice as thick (the residue of a morphological opening): the brows, the eyes and
 * a mass of hair are not followed into. A line is left out only when it reaches across at least
 * `length` px; a shorter one (a brow's tapering end, an eyeliner's wing touching the hair beside
 * them) is the face's own. Beyond the outline means connected to the box's border, not the
 * mouth's hole inside the mesh. With `inward`, a line is left out only where some pixel of it lies
 * at least that far from anything outside `face` or left out (the line's own pixels counted in): a
 * frame's bridge and rims lie in the middle of the face's skin, the dark edge of the hair at a
 * face's side runs along what is left out. With `reaching`, a line is left out only when some
 * pixel of it lies there (below the eyes' corners: a frame's rims reach there, a thin brow that
 * runs into the hair does not). With `carry`, the lines left out are carried on a little way into
 * pixels that are not followed (see `carryOn`).
 */
export function keepThinOccluders(likeness: Float32Array, clearly: Uint8Array, face: Uint8Array, width: number, height: number, lines: ThinLines): void {
  const { halfWidth, length, inward = 0, reaching, carry } = lines;
  // Fewer pixels than the length cannot make a line that long: the distance transforms are skipped.
  let marked = 0;
  for (let p = 0; p < clearly.length; p++) marked += clearly[p]!;
  if (marked < length) return;
  // Distances in a 0/1 mask: from outside `clearly`, the thick parts' cores; from the cores, what lies near them.
  const depth = distanceInside(clearly, width, height);
  const notCore = new Uint8Array(depth.length);
  for (let p = 0; p < depth.length; p++) notCore[p] = depth[p]! > halfWidth ? 0 : 1;
  const fromCore = distanceInside(notCore, width, height);
  const thin = new Uint8Array(clearly.length);
  for (let p = 0; p < thin.length; p++) thin[p] = clearly[p] && fromCore[p]! > halfWidth ? 1 : 0;
  const beyond = beyondOutline(face, width, height);
  // Every line's pixels one after another; the long ones that touch what is left out, as [begin, end) in it.
  const line = new Int32Array(thin.length);
  const long: [number, number][] = [];
  let count = 0;
  let touches = false;
  // A neighbour of a line's pixel: joins the line if thin, or tells whether the line touches what is left out.
  const visit = (q: number) => {
    if (thin[q] === 1) {
      thin[q] = 2;
      line[count++] = q;
    } else if (!thin[q] && (beyond[q] === 1 || likeness[q]! < 1)) touches = true;
  };
  for (let start = 0; start < thin.length; start++) {
    if (thin[start] !== 1) continue;
    // One line (4-connected thin pixels): its extent, and whether it touches what is left out.
    const begin = count;
    thin[start] = 2;
    line[count++] = start;
    touches = false;
    let [left, right, top, bottom] = [width, 0, height, 0];
    for (let head = begin; head < count; head++) {
      const p = line[head]!;
      const x = p % width, y = (p - x) / width;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
      if (x > 0) visit(p - 1);
      if (x < width - 1) visit(p + 1);
      if (y > 0) visit(p - width);
      if (y < height - 1) visit(p + width);
    }
    if (touches && Math.max(right - left, bottom - top) + 1 >= length) long.push([begin, count]);
  }
  const reachesIn = inward > 0 && long.length > 0 ? reachingIn(likeness, clearly, face, width, height, inward) : null;
  const leftOut: Int32Array[] = [];
  for (const [begin, end] of long) {
    const kept = line.subarray(begin, end);
    if (reachesIn && !kept.some((p) => reachesIn[p] === 1)) continue;
    if (reaching && !kept.some((p) => reaching[p] === 1)) continue;
    for (const p of kept) likeness[p] = 0;
    leftOut.push(kept);
  }
  if (carry && leftOut.length > 0) carryOn(likeness, leftOut, carry, width);
}

/**
 * Leaves out the pixels of `carry.pixels` within `carry.reach` steps of the `lines` just left out,
 * through those pixels only: a glasses rim that crosses an eye's contour ring is carried across
 * it, while the lash lines along the ring are reached only near where a rim meets them.
 */
function carryOn(likeness: Float32Array, lines: Int32Array[], carry: Carry, width: number): void {
  const queue = new Int32Array(likeness.length);
  const steps = new Int32Array(likeness.length);
  let tail = 0;
  for (const line of lines) for (const p of line) queue[tail++] = p;
  // A pixel left out (0) is never visited again, so the map itself marks what the carry reached.
  const visit = (q: number, step: number) => {
    if (!carry.pixels[q] || likeness[q] === 0) return;
    likeness[q] = 0;
    steps[tail] = step;
    queue[tail++] = q;
  };
  for (let head = 0; head < tail; head++) {
    const step = steps[head]! + 1;
    if (step > carry.reach) continue;
    const p = queue[head]!;
    const x = p % width;
    if (x > 0) visit(p - 1, step);
    if (x < width - 1) visit(p + 1, step);
    if (p >= width) visit(p - width, step);
    if (p + width < likeness.length) visit(p + width, step);
  }
}

/** The pixels at least `inward` px from anything outside `face` or left out (`LEFT_OUT`), those of `clearly` counted in. */
function reachingIn(likeness: Float32Array, clearly: Uint8Array, face: Uint8Array, width: number, height: number, inward: number): Uint8Array {
  const inside = distanceInside(face.map((f, p) => (f && (clearly[p] || likeness[p]! >= LEFT_OUT) ? 1 : 0)), width, height);
  return Uint8Array.from(inside, (d) => (d >= inward ? 1 : 0));
}
