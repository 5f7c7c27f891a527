import { facesOnFirstFrame } from '../animation/detect-following';
import type { Face } from '../faces/detect-faces';
import { readFrame, type FrameSource } from './read-frames';

/**
 * The faces a video's first chunk starts from (`facesOnFirstFrame` on frame 0), its first frame
 * decoded on its own: ffmpeg gives the same pixels as in the chunk's own decode. Null when that
 * frame cannot be decoded (the chunk then reports it).
 */
export async function facesOnVideoStart(file: string, video: FrameSource): Promise<Face[] | null> {
  const image = await readFrame(file, video, 0);
  return image ? facesOnFirstFrame(image) : null;
}
