import type { RgbImage } from '../faces/decode-image';
import { meshBox, type Face } from '../faces/detect-faces';
import { meshCentre, movedSmoothly } from './face-motion';
import { expectedAs, trackFace } from './track-face';

/**
 * How far a keyframe's detected face moves towards where its pixels on the keyframe before say it
 * is. Human's mesh lands a few percent of a face off from one look to the next (on the quality
 * report's zoom, the same face 15 px apart on a frame as cut and on the photo it was cut from), and
 * the swapped face wobbled over the person's head by as much from keyframe to keyframe. Halfway,
 * the wobble against the camera's own move fell by a fifth to a third on the quality report's three
 * clips (1.9 / 1.4 / 0.7 % of the face to 1.4 / 1.1 / 0.5 %); fully, the tracker's own error added
 * up and the zoom's colour flicker rose by a quarter.
 */
const STEADYING = 0.5;
/**
 * Beyond this share of the face's size apart, the two disagree about more than the mesh's jitter
 * (the head turned, or the pixels matched something else): the detection is taken as it is.
 */
const STEADY_REACH = 0.1;

/**
 * A person's face detected on a keyframe, `found`, moved part of the way towards where their face
 * on the keyframe before, `previous` on `before`, lies on this one by its pixels (`trackFace`,
 * searched around the detection, grown as the box grew): the position is smoothed over keyframes
 * while the shape (a turn, an open mouth) stays the detector's. A face that moved too fast to be
 * interpolated is left as found.
 */
export function steadiedKeyframe(found: Face, previous: Face, before: RgbImage, keyframe: RgbImage): Face {
  if (!movedSmoothly(previous, found)) return found;
  const tracked = trackFace(before, keyframe, previous, expectedAs(previous, found, STEADY_REACH));
  if (!tracked) return found;
  const [[tx, ty], [fx, fy]] = [meshCentre(tracked.mesh), meshCentre(found.mesh)];
  if (Math.hypot(tx - fx, ty - fy) > STEADY_REACH * Math.sqrt(found.box.width * found.box.height)) return found;
  const [dx, dy] = [STEADYING * (tx - fx), STEADYING * (ty - fy)];
  const mesh = Float32Array.from(found.mesh, (v, i) => v + (i % 2 === 0 ? dx : dy));
  return { ...found, mesh, box: meshBox(mesh, keyframe) };
}
