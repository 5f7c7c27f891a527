import type { RgbImage } from '../faces/decode-image';
import { detectFaces, type Face } from '../faces/detect-faces';

/** A frame's index and the faces on it, detected with descriptors (for the identity gallery). */
export interface FacesOnFrame {
  index: number;
  faces: Face[];
}

/**
 * The first of `frames` on which a face is found; null when none has one. Where the caller names no
 * reference frame the person is picked there, not on the first frame: a clip that opens on a title,
 * a fade from black, or a face hidden by a hand was refused though the face came a moment later.
 * `signal` stops the search between frames.
 */
export async function firstFrameWithFaces(frames: AsyncIterable<{ index: number; image: RgbImage }>, signal?: AbortSignal): Promise<FacesOnFrame | null> {
  for await (const { index, image } of frames) {
    signal?.throwIfAborted();
    const faces = await detectFaces(image, { descriptors: true });
    if (faces.length > 0) return { index, faces };
  }
  return null;
}
