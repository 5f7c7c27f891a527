import type { RgbImage } from '../faces/decode-image';
import { detectFaces, type Face } from '../faces/detect-faces';
import { isNear, nearestFace } from './face-motion';

/**
 * Frames are searched again with this much mirrored padding (share of the short side; see
 * `DetectOptions.padding`) when a followed face near the edge is lost, so a face cut by the
 * frame's edge is still found and swapped.
 */
export const FRAME_PADDING = 0.25;
/** A face whose box comes within this share of its size of the frame's edge may be cut by it next. */
const EDGE_MARGIN = 0.25;

function nearEdge(face: Face, image: RgbImage): boolean {
  const margin = EDGE_MARGIN * Math.max(face.box.width, face.box.height);
  const { x, y, width, height } = face.box;
  return x < margin || y < margin || x + width > image.width - margin || y + height > image.height - margin;
}

/**
 * The faces of a frame while following `followed` (their last sightings). Detection runs on the
 * frame as it is; only when a followed face that was near the frame's edge is not found again
 * does it run once more on the frame with a mirrored border (half a face next to its own mirror
 * image looks like a face to the detector), adding the faces found there that the first run
 * missed. Padding every frame would shrink every face in the detector's input and shift its
 * descriptor (by about 2 on 100 px faces), enough to lose people identified by descriptor.
 */
export async function detectFollowing(image: RgbImage, followed: readonly (Face | null)[], descriptors: boolean): Promise<Face[]> {
  const faces = await detectFaces(image, { descriptors });
  const lost = followed.some((last) => last !== null && nearEdge(last, image) && !faces.some((face) => isNear(last, face)));
  if (!lost) return faces;
  const padded = await detectFaces(image, { descriptors, padding: FRAME_PADDING });
  return [...faces, ...padded.filter((face) => nearestFace(face, faces) === null)];
}
