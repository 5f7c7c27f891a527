import { decodeImage } from '../faces/decode-image';
import { detectFaces } from '../faces/detect-faces';
import { EngineError } from '../faces/engine-error';
import { largestIndex } from '../faces/face-order';
import { meshTopology } from '../faces/mesh-topology';
import { withTwoLooks } from '../faces/two-looks';
import { prepareSource, type PreparedSource } from './prepared-source';

/** Decodes a source photo and prepares its largest face, its eyes' mesh read twice (`withTwoLooks`); refuses a photo without a face. */
export async function loadSource(bytes: Buffer): Promise<PreparedSource> {
  const image = await decodeImage(bytes);
  const faces = await detectFaces(image);
  const largest = faces[largestIndex(faces.map((face) => face.box))];
  if (!largest) throw new EngineError('no_face_in_source', 'no face found in the source image');
  const topology = await meshTopology();
  return prepareSource(image, await withTwoLooks(image, largest, topology), topology);
}
