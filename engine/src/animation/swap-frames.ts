import type { MeshTopology } from '../faces/mesh-topology';
import type { PreparedSource } from '../swap/prepared-source';
import { swapFaceInto, type FaceMemory } from '../swap/swap-face';
import type { FollowedFrame } from './follow-faces';

/** What replaces one followed person. */
export interface Replacement {
  source: PreparedSource;
  enhance: boolean;
}

/**
 * A swapper for one stream of frames (a GIF, a video's chunk): each call swaps every followed
 * person seen on the frame with their replacement, in place, carrying what a person's swap learnt
 * on one frame (`FaceMemory`: a hand across their face) to their next.
 */
export function followedSwapper(replacements: readonly Replacement[], topology: MeshTopology): (frame: FollowedFrame) => void {
  const memories: FaceMemory[] = replacements.map(() => ({ foreign: null }));
  return (frame) =>
    frame.faces.forEach((face, person) => {
      const replacement = replacements[person];
      if (face && replacement) swapFaceInto(frame.image, face, replacement.source, { topology, enhance: replacement.enhance, memory: memories[person] });
    });
}
