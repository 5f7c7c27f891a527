import type { RgbImage } from '../faces/decode-image';
import { detectFaces, type Face } from '../faces/detect-faces';

/** Which of the frames looked at a face was first found on (counting from 0), and the faces on it, detected with descriptors (for the identity gallery). */
export interface FacesOnFrame {
  looked: number;
  faces: Face[];
}

/**
 * The first of `frames` on which a face is found; null when none has one. Where the caller names no
 * reference frame the person is picked there, not on the first frame: a clip that opens on a title,
 * a fade from black, or a face hidden by a hand was refused though the face came a moment later.
 * With `hidden`, a large face half hidden from the detector counts too (`DetectOptions.hidden`):
 * the largest face, the one followed by default, can be the one a hand lies across. (Where a face
 * index is named, it counts faces as face detection does, without them.) `signal` stops the
 * search between frames.
 */
export async function firstFrameWithFaces(frames: AsyncIterable<RgbImage>, { hidden = false, signal }: { hidden?: boolean; signal?: AbortSignal } = {}): Promise<FacesOnFrame | null> {
  let looked = 0;
  for await (const image of frames) {
    signal?.throwIfAborted();
    const faces = await detectFaces(image, { descriptors: true, hidden });
    if (faces.length > 0) return { looked, faces };
    looked++;
  }
  return null;
}
