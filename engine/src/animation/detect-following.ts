import type { RgbImage } from '../faces/decode-image';
import { lookCloser } from '../faces/closer-look';
import { detectFaces, detectHiddenFaces, type Face } from '../faces/detect-faces';
import { isNear, nearestFace } from './face-motion';

/**
 * Frames are searched again with this much mirrored padding (share of the short side; see
 * `DetectOptions.padding`) when a followed face is lost, so a face cut by the frame's edge is
 * still found and swapped.
 */
export const FRAME_PADDING = 0.25;

/**
 * The faces of a frame while following `followed` (their last sightings). Detection runs on the
 * frame as it is; only when a followed face is not found again does it run once more on the frame
 * with a mirrored border, adding the faces found there that the first run missed. Half a face
 * next to its own mirror image looks like a face to the detector; and a face the detector scores
 * just under its threshold (measured: a looking-down face at 640x360, missed on 12 of 40 frames of a
 * pan while fully in view) is often found at the other scale. Padding every frame would shrink every
 * face in the detector's input and shift its descriptor (by about 2 on 100 px faces), enough to
 * lose people identified by descriptor. The faces that may be a followed person's then take their
 * mesh from a second look on a crop around each (`lookCloser`), those found on the padded frame
 * too: left with the frame's own mesh, the looking-down face of the quality report's MP4 pan swelled
 * by a fifth and tilted on the frames where it was missed at first or found out of reach. With
 * `lookHidden`, still lost or with someone to tell by descriptor, it looks once more for large
 * faces the detector scores low (`DetectOptions.hidden`): a hand across a face. `seen`: the faces
 * found beforehand on a frame where no one is followed yet (`facesOnFirstFrame`).
 */
export async function detectFollowing(
  image: RgbImage,
  followed: readonly (Face | null)[],
  descriptors: boolean,
  lookHidden = false,
  seen?: Face[],
): Promise<Face[]> {
  // Only the followed people's faces are swapped: only theirs are looked at again near the edge.
  // A person not seen on the frame before may be any face, and is only told by descriptor: when
  // descriptors are asked for and someone is missing, every face is (a person found again at the
  // edge, coming back into view, got a mesh a fifth too wide until the next keyframe).
  const anyone = descriptors && followed.some((last) => last === null);
  const refine = (face: Face) => anyone || followed.some((last) => last !== null && isNear(last, face));
  const isLost = (faces: Face[]) => followed.some((last) => last !== null && !faces.some((face) => isNear(last, face)));
  const found = seen ?? (await facesSeen(image, descriptors, refine, isLost));
  // A person picked on a face half hidden by a hand is looked for so wherever they are still near
  // no face or to be told by descriptor. Not everyone: a person the detector sees now and then gets
  // a mesh swollen over the hand from such a look (the report's MP4 pan: 90 % of the hand kept in
  // front on its first frames, 18-39 % with the look), where followed back from where they are seen
  // they keep their own.
  return lookHidden && (anyone || isLost(found)) ? [...found, ...(await hiddenFaces(image, found, descriptors))] : found;
}

/**
 * What `detectFollowing` finds on a frame where no one is followed yet, with descriptors, before
 * its look for faces half hidden: every face, each looked at closer. A video's first frame is
 * detected so on a thread of its own while the video's set-up runs (see `swapVideo`).
 */
export function facesOnFirstFrame(image: RgbImage): Promise<Face[]> {
  return facesSeen(image, true, () => true, () => false);
}

async function facesSeen(image: RgbImage, descriptors: boolean, refine: (face: Face) => boolean, isLost: (faces: Face[]) => boolean): Promise<Face[]> {
  const found = await detectFaces(image, { descriptors, refine });
  const looked = await Promise.all(found.map((face) => (refine(face) ? lookCloser(image, face) : face)));
  if (!isLost(looked)) return looked;
  // Someone followed is near no face: any may be theirs (the frame's own mesh can be half as large
  // again as the closer look's, out of reach), so every face is looked at closer.
  const all = await Promise.all(looked.map((face, i) => (refine(found[i]!) ? face : lookCloser(image, face))));
  if (!isLost(all)) return all;
  const padded = (await detectFaces(image, { descriptors, padding: FRAME_PADDING })).filter((face) => nearestFace(face, found) === null);
  return [...all, ...(await Promise.all(padded.map((face) => lookCloser(image, face))))];
}

/**
 * Large faces on `image` the detector is unsure of (`DetectOptions.hidden`: a hand across half of
 * one) that are not among `seen`, each looked at closer.
 */
async function hiddenFaces(image: RgbImage, seen: Face[], descriptors: boolean): Promise<Face[]> {
  const hidden = (await detectHiddenFaces(image, seen, { descriptors })).filter((face) => nearestFace(face, seen) === null);
  return Promise.all(hidden.map((face) => lookCloser(image, face, { hidden: true })));
}
