import type { RgbImage } from '../faces/decode-image';
import { meshBox, meshExtent, type Face } from '../faces/detect-faces';
import { isNear, meshCentre } from './face-motion';
import { expectedAs, sizeRatio, trackFace } from './track-face';

/**
 * How far a detected face moves towards where its pixels on the frame before say it is, in place
 * and in size. Human's mesh lands a few percent of a face off from one look to the next (on the
 * quality report's zoom, the same face 15 px apart on a frame as cut and on the photo it was cut
 * from, and its size 2-3 % apart from one keyframe to the next), and the swapped face wobbled over
 * the person's head, and swelled and shrank, by as much. Halfway, the wobble against the camera's
 * own move fell by a fifth to a third on the quality report's three clips (1.9 / 1.4 / 0.7 % of the
 * face to 1.4 / 1.1 / 0.5 %), and the size's from 2.6 / 1.3 / 0.8 % to 1.1 / 0.7 / 0.3 %; fully,
 * the tracker's own error added up and the zoom's colour flicker rose by a quarter.
 */
const STEADYING = 0.5;
/**
 * Beyond this share of the face's size apart, the two disagree about more than the mesh's jitter
 * (the head turned, or the pixels matched something else): the detection is taken as it is. The
 * pixels' scale is searched this far beyond the earlier size and the detection's.
 */
const STEADY_REACH = 0.1;
/**
 * Sizes apart (detection over pixels, either way) up to which the detection keeps its full weight,
 * and from which it has none: the mesh's own jitter stays within 10 % (0.91-1.07 on the quality
 * report's MP4 pan), while a hand across the face swelled the detector's face by 26-40 % there. Met
 * halfway on every frame, such a detection pulled the followed face to its own size within a few
 * frames (45 % too large on the frames she was followed back through, 22 % as she left the frame),
 * and the new face was drawn over the hand.
 */
const SIZE_TRUSTED = 1.15;
const SIZE_DISTRUSTED = 1.25;

/**
 * A person's face detected on `image`, `found`, moved and grown part of the way towards where and
 * how large their face `previous`, seen on an earlier frame `before` (the keyframe before, or the
 * frame before when the person is followed frame by frame), is on this one by its pixels
 * (`trackFace`, searched around the detection in place, and from the earlier size to the
 * detection's in scale): place and size are smoothed over the detections while the shape (a turn,
 * an open mouth) stays the detector's. A detection whose size the pixels disown (more than
 * `SIZE_TRUSTED` apart) gives way to the tracked face, wholly from `SIZE_DISTRUSTED`. A face out of
 * the earlier one's reach (`isNear`) is left as found.
 */
export function steadiedFace(found: Face, previous: Face, before: RgbImage, image: RgbImage): Face {
  if (!isNear(previous, found)) return found;
  // The scale is searched from the earlier face's own size to the detection's and a little beyond
  // either, so the pixels tell how much the face truly grew, whatever the detection says.
  const ratio = sizeRatio(previous, found);
  const middle = Math.sqrt(ratio);
  const tracked = trackFace(before, image, previous, { ...expectedAs(previous, found, STEADY_REACH, middle), scaleSearch: Math.abs(ratio - 1) / (2 * middle) + STEADY_REACH });
  if (!tracked) return found;
  const [[tx, ty], [fx, fy]] = [meshCentre(tracked.mesh), meshCentre(found.mesh)];
  if (Math.hypot(tx - fx, ty - fy) > STEADY_REACH * Math.sqrt(found.box.width * found.box.height)) return found;
  // The tracked face is the earlier mesh grown by the scale its pixels matched best at, so the two
  // meshes' extents compare that scale with the detection's own.
  const sizes = extentSize(tracked.mesh) / extentSize(found.mesh);
  const trust = sizeTrust(sizes);
  // How far the detection moves and grows towards the pixels: `STEADYING`, all the way for a detection not trusted.
  const pull = 1 - STEADYING * trust;
  const grow = sizes ** pull;
  const [cx, cy] = [fx + pull * (tx - fx), fy + pull * (ty - fy)];
  const steadied = Float32Array.from(found.mesh, (v, i) => (i % 2 === 0 ? cx + (v - fx) * grow : cy + (v - fy) * grow));
  // A detection the pixels disown gives way to the tracked face, its shape and depth too: under the
  // hand, the detector's mesh had her downcast eyes open.
  const mesh = trust === 1 ? steadied : Float32Array.from(steadied, (v, i) => tracked.mesh[i]! + trust * (v - tracked.mesh[i]!));
  const depth = trust === 1 ? found.depth : Float32Array.from(found.depth, (z, i) => tracked.depth[i]! + trust * (z - tracked.depth[i]!));
  return { ...found, mesh, depth, box: meshBox(mesh, image) };
}

/** How far a detection is trusted (1 fully, 0 not at all) by how far its size is from the pixels' (`sizes`, either way): 1 up to `SIZE_TRUSTED`, falling to 0 at `SIZE_DISTRUSTED`. */
function sizeTrust(sizes: number): number {
  const apart = Math.abs(Math.log(sizes));
  return Math.min(1, Math.max(0, (Math.log(SIZE_DISTRUSTED) - apart) / (Math.log(SIZE_DISTRUSTED) - Math.log(SIZE_TRUSTED))));
}

function extentSize(mesh: Float32Array): number {
  const { minX, maxX, minY, maxY } = meshExtent(mesh);
  return Math.sqrt((maxX - minX) * (maxY - minY));
}
