import type { Face } from '../faces/detect-faces';
import { EngineError } from '../faces/engine-error';
import { largestIndex } from '../faces/face-order';

/**
 * The target face a mapping names: `index` in face order, or the largest face when no index is
 * given. Errors say how many faces there are, so the caller can pick a valid index.
 */
export function pickTargetFace(faces: readonly Face[], index: number | undefined): Face {
  if (faces.length === 0) throw new EngineError('no_face_in_target', 'no face found in the target image');
  const picked = faces[index ?? largestIndex(faces.map((face) => face.box))];
  if (!picked) {
    const found = faces.length === 1 ? 'the target has 1 face (0)' : `the target has ${faces.length} faces (0-${faces.length - 1})`;
    throw new EngineError('face_index_out_of_range', `target_face_index ${index} is out of range: ${found}`);
  }
  return picked;
}
