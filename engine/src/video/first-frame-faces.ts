import { facesOnFirstFrame } from '../animation/detect-following';
import type { Face } from '../faces/detect-faces';
import { readFrames, type FrameSource } from './read-frames';

/**
 * The faces a video's first chunk starts from (`facesOnFirstFrame` on frame 0), its first frame
 * decoded on its own: ffmpeg gives the same pixels as in the chunk's own decode. Null when that
 * frame cannot be decoded (the chunk then reports it).
 */
export async function facesOnVideoStart(file: string, video: FrameSource): Promise<Face[] | null> {
  const decoded = readFrames(file, video, { first: 0, count: 1 });
  try {
    const image = (await decoded.next()).value;
    return image ? await facesOnFirstFrame(image) : null;
  } finally {
    await decoded.return(undefined);
  }
}
