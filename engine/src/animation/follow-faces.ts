import type { RgbImage } from '../faces/decode-image';
import { meshExtent, type Face } from '../faces/detect-faces';
import { detectFollowing } from './detect-following';
import { interpolateFace, meshCentre, movedSmoothly, nearestFace } from './face-motion';
import type { IdentityGallery } from './identity-gallery';
import { PeopleLocator, type Sighting } from './locate-people';
import { steadiedFace } from './steady-face';
import { expectedAs, trackFace } from './track-face';

export interface FollowOptions {
  /** Faces are detected on every this-many-th frame (1: every frame); see `followFaces`. */
  keyframeInterval: number;
  /** Keyframes between identity checks of faces followed by position. */
  verifyEvery: number;
}

export interface FollowedFrame {
  image: RgbImage;
  /** Per followed person, their face on this frame, or null where they are not seen. */
  faces: (Face | null)[];
}

/**
 * Follows the gallery's people through a stream of frames, yielding every frame in order with
 * each person's face on it.
 *
 * Faces are detected on keyframes (the first frame, every `keyframeInterval`-th frame after it,
 * and the last) and people located there (PeopleLocator), each person's face steadied in place
 * and size against where their pixels on the keyframe before say it is (`steadiedFace`). A frame
 * between two keyframes gets, per person, the face interpolated between the two keyframes when the
 * person is on both and moved little; otherwise (the person came, went or moved fast) faces are
 * detected on every frame between and followed frame to frame by position (each detection steadied
 * against the frame before), forwards from the earlier keyframe and backwards from the later one;
 * where the detector misses a followed face (half out of the frame at the end of a pan), or finds
 * it cut by the frame's edge, its pixels are tracked from the frame before (`trackFace`; see
 * `sighting`). Frames are held until the next keyframe is known, so at most `keyframeInterval`
 * frames are in memory at once; while no one followed is seen, up to `HOLD_BYTES` of frames are
 * (`isHeld`), so a person first found later is followed back through them. `firstFaces`: the
 * faces of the first frame, found beforehand (`facesOnFirstFrame`).
 */
export async function* followFaces(
  frames: AsyncIterable<RgbImage>,
  gallery: IdentityGallery,
  options: FollowOptions,
  firstFaces?: Face[],
): AsyncGenerator<FollowedFrame> {
  const locator = new PeopleLocator(gallery, options.verifyEvery);
  let last: Sighting | null = null;
  let lastImage: RgbImage | null = null;
  let pending: RgbImage[] = [];
  // Where people are on the last pending frame, when it is a keyframe located while frames were held.
  let onLastPending: Sighting | null = null;
  // The caller swaps each frame in place once it is yielded, so a keyframe is kept as it came: its
  // pixels are matched on the frames after it (`trackFace`), and a swapped face matches nothing
  // (mean grey difference 33 at the right place, over the tracker's cut-off of 30).
  const asItCame = (image: RgbImage): RgbImage => ({ ...image, rgb: Uint8Array.from(image.rgb) });
  let sinceKeyframe = 0;
  for await (const image of frames) {
    if (!last || !lastImage) {
      last = await locator.locate(image, null, firstFaces);
      lastImage = asItCame(image);
      // With no one on it, the first frame waits with the frames held after it (`isHeld`).
      if (isHeld(last, last, [])) pending.push(image);
      else yield { image, faces: last.people };
      continue;
    }
    pending.push(image);
    onLastPending = null;
    if (++sinceKeyframe % options.keyframeInterval !== 0) continue;
    const found = await locator.locate(image, last);
    if (isHeld(last, found, pending)) {
      onLastPending = found;
      continue;
    }
    const keyframe = asItCame(image);
    last = yield* settle({ ...last, image: lastImage }, pending, found);
    lastImage = keyframe;
    pending = [];
    sinceKeyframe = 0;
  }
  if (last && lastImage && pending.length > 0) {
    const found = onLastPending ?? (await locator.locate(pending.at(-1)!, last));
    yield* settle({ ...last, image: lastImage }, pending, found);
  }
}

/**
 * Frames held back, at most, while no one followed has been seen since the last keyframe yielded:
 * 128 MiB (48 frames of 1280x720, 194 of 640x360, 21 of 1920x1080).
 */
const HOLD_BYTES = 128 * 1024 * 1024;

/**
 * Whether frames are held back rather than yielded at a keyframe where no one followed is seen, as
 * on the keyframe before: should someone be found on a later keyframe, they are followed back from
 * there through every frame held. A person the detector misses at a clip's start (a hand over
 * half their face, half cut by the edge) is then swapped from the first frame they can be tracked
 * on, where before every frame until the first keyframe they were found on kept its own face.
 */
function isHeld(last: Sighting, found: Sighting, pending: RgbImage[]): boolean {
  const nobody = (sighting: Sighting) => sighting.people.every((face) => face === null);
  return nobody(last) && nobody(found) && pending.reduce((bytes, frame) => bytes + frame.rgb.length, 0) < HOLD_BYTES;
}

/** A keyframe's sighting with the frame itself. */
type SeenOn = Sighting & { image: RgbImage };

/** People on the last of `frames` (a keyframe, where they were `found`), then on the frames before it. */
async function* settle(last: SeenOn, frames: RgbImage[], found: Sighting): AsyncGenerator<FollowedFrame, Sighting> {
  const keyframe = frames.at(-1)!;
  const between = frames.slice(0, -1);
  // Each person's detected place and size are smoothed over keyframes (not where the edge cuts the face: `sighting` tracks it there).
  const steadied = found.people.map((face, person) => {
    const previous = last.people[person];
    return face && previous && !cutByEdge(face, keyframe) ? steadiedFace(face, previous, last.image, keyframe) : face;
  });
  const located = { ...found, people: steadied };
  const faces = await facesBetween(last, { ...located, image: keyframe }, between);
  // A person followed up to the frame before a keyframe but missed on the keyframe itself (the
  // detector misses a face now and then) is tracked onto the keyframe from there, and followed on:
  // one missed detection no longer switches the swap off for a whole stretch.
  const before = between.at(-1) ?? last.image;
  const people = located.people.map((face, person) => {
    const previous = faces.at(-1)?.[person] ?? (between.length === 0 ? last.people[person] : null) ?? null;
    return sighting(face, previous, before, keyframe);
  });
  const next = { ...located, people };
  for (const [i, image] of between.entries()) yield { image, faces: faces[i]! };
  yield { image: keyframe, faces: next.people };
  return next;
}

async function facesBetween(from: SeenOn, to: SeenOn, frames: RgbImage[]): Promise<(Face | null)[][]> {
  const faces = frames.map(() => from.people.map((): Face | null => null));
  const tracked: number[] = [];
  from.people.forEach((a, person) => {
    const b = to.people[person] ?? null;
    if (a && b && movedSmoothly(a, b) && staysOnLine(a, b, from.image, frames)) {
      faces.forEach((onFrame, i) => (onFrame[person] = interpolateFace(a, b, (i + 1) / (frames.length + 1))));
    } else if (a || b) {
      tracked.push(person);
    }
  });
  if (tracked.length === 0) return faces;
  // Faces cut by the edge are looked for where a followed person was last seen near it. Each frame
  // is searched once someone is followed onto it: followed back through frames held from a clip's
  // start, a person is lost long before its first frame.
  const detected: Promise<Face[]>[] = [];
  const facesOn = (i: number) => (detected[i] ??= detectFollowing(frames[i]!, [...from.people, ...to.people], false));
  const taken = frames.map(() => new Set<Face>());
  const follow = async (person: number, start: Face | null, startImage: RgbImage, order: number[]) => {
    let previous = start;
    let previousImage = startImage;
    for (const i of order) {
      if (!previous || faces[i]![person]) return;
      const found = nearestFace(previous, await facesOn(i), taken[i]);
      if (found) taken[i]!.add(found);
      // Followed frame by frame, each detection is steadied against the frame before, as a keyframe's is against the keyframe before.
      const steady = found && !cutByEdge(found, frames[i]!);
      previous = steady ? steadiedFace(found, previous, previousImage, frames[i]!) : sighting(found, previous, previousImage, frames[i]!);
      previousImage = frames[i]!;
      faces[i]![person] = previous;
    }
  };
  const forwards = frames.map((_, i) => i);
  for (const person of tracked) await follow(person, from.people[person] ?? null, from.image, forwards);
  for (const person of tracked) await follow(person, to.people[person] ?? null, to.image, [...forwards].reverse());
  for (const person of tracked) fillGaps(faces, person, from.people[person] ?? null, to.people[person] ?? null);
  return faces;
}

/**
 * How far (share of the face's size) the face on the middle frame between two keyframes, matched
 * there by its pixels, may lie from where interpolating puts it. On a pan that stopped and turned
 * back between two keyframes (a window held at the photo's edge), the interpolated mesh lay 17 %
 * of the face beside it on the middle frame: the new face slid over her hair and another person's
 * hand, and the skin learnt there went wrong (a pale disk over the face, her own face left on one
 * side). On the quality report's pans and zoom the match lies within 1-5 % of the line.
 */
const MAX_PATH_DEVIATION = 0.1;

/**
 * Whether a face that `movedSmoothly` from keyframe `a` to keyframe `b` also lies, on the middle
 * frame between, where interpolating would put it: its pixels on `a` matched there (`trackFace`,
 * one match, no detection) around where interpolating puts it, grown as its box grows on the way
 * (a zoom), the best match within `MAX_PATH_DEVIATION` of it (searched twice as far). No match
 * near the line (a cut, a flash) counts as off it. One match per keyframe interval, searched
 * around the line: tracked frame by frame from the keyframe instead, it took three.
 */
function staysOnLine(a: Face, b: Face, keyframe: RgbImage, frames: RgbImage[]): boolean {
  if (frames.length === 0) return true;
  const middle = Math.floor(frames.length / 2);
  const expected = interpolateFace(a, b, (middle + 1) / (frames.length + 1));
  const tracked = trackFace(keyframe, frames[middle]!, a, expectedAs(a, expected, 2 * MAX_PATH_DEVIATION));
  if (!tracked) return false;
  const [[tx, ty], [ex, ey]] = [meshCentre(tracked.mesh), meshCentre(expected.mesh)];
  return Math.hypot(tx - ex, ty - ey) <= MAX_PATH_DEVIATION * Math.sqrt(a.box.width * a.box.height);
}

/**
 * How far (share of its size) a face's mesh may reach past the frame's edge and not count as cut
 * by it: a forehead or chin just past the edge is still detected well, and tracking it would keep
 * its shape while the head turns.
 */
const CUT_TOLERANCE = 0.15;

/**
 * A person's face on `image`, given the face detected there (or null) and their face on the
 * neighbouring frame `before`. A face cut by the frame's edge is tracked from `before` rather than
 * taken as detected: the mesh model guesses the missing part, and on a GIF pan it bent a face half
 * out of the frame into a different shape on every frame (a brow drawn on the chin), where the
 * face moving out of view keeps its shape.
 */
function sighting(found: Face | null, previous: Face | null, before: RgbImage, image: RgbImage): Face | null {
  if (!previous || (found && !cutByEdge(found, image))) return found;
  return trackFace(before, image, previous) ?? found;
}

function cutByEdge(face: Face, image: RgbImage): boolean {
  const { minX, maxX, minY, maxY } = meshExtent(face.mesh);
  const slack = CUT_TOLERANCE * Math.max(maxX - minX, maxY - minY);
  return minX < -slack || minY < -slack || maxX > image.width + slack || maxY > image.height + slack;
}

/**
 * Frames where a person was missed between two frames where they were seen (the detector misses a
 * face now and then) get the face interpolated between those two, when it moved little.
 */
function fillGaps(faces: (Face | null)[][], person: number, from: Face | null, to: Face | null): void {
  const seen = [from, ...faces.map((onFrame) => onFrame[person] ?? null), to];
  for (let i = 1; i < seen.length - 1; i++) {
    if (seen[i]) continue;
    const before = seen.slice(0, i).findLastIndex(Boolean);
    const after = seen.findIndex((face, j) => j > i && face !== null);
    const [a, b] = [seen[before], seen[after]];
    if (before < 0 || after < 0 || !a || !b || !movedSmoothly(a, b)) continue;
    faces[i - 1]![person] = interpolateFace(a, b, (i - before) / (after - before));
  }
}
