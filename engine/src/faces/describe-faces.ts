import { decodeImage } from './decode-image';
import { detectFaces } from './detect-faces';
import type { Box } from './face-order';

/** What a face-detect task reports: the upright image size and each face's box, in face order. */
export interface FaceDescription {
  width: number;
  height: number;
  faces: { index: number; box: Box }[];
}

export async function describeFaces(bytes: Buffer): Promise<FaceDescription> {
  const image = await decodeImage(bytes);
  const faces = await detectFaces(image);
  return { width: image.width, height: image.height, faces: faces.map(({ index, box }) => ({ index, box })) };
}
