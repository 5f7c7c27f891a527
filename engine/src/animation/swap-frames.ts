import type { MeshTopology } from '../faces/mesh-topology';
import type { PreparedSource } from '../swap/prepared-source';
import { swapFaceInto } from '../swap/swap-face';
import type { FollowedFrame } from './follow-faces';

/** What replaces one followed person. */
export interface Replacement {
  source: PreparedSource;
  enhance: boolean;
}

/** Swaps every followed person seen on the frame with their replacement, in place. */
export function swapFollowed(frame: FollowedFrame, replacements: readonly Replacement[], topology: MeshTopology): void {
  frame.faces.forEach((face, person) => {
    const replacement = replacements[person];
    if (face && replacement) swapFaceInto(frame.image, face, replacement.source, { topology, enhance: replacement.enhance });
  });
}
