import { decodeImage, type ImageFormat } from '../faces/decode-image';
import { detectFaces } from '../faces/detect-faces';
import { meshTopology } from '../faces/mesh-topology';
import { encodeImage } from './encode-image';
import { pickTargetFace } from './pick-target-face';
import { prepareSources } from './prepare-sources';
import type { PreparedSource } from './prepared-source';
import { swapFaceInto } from './swap-face';

export interface FaceMapping {
  /** Encoded photo whose largest face is swapped in. */
  source: Buffer;
  /** `source` already prepared (from a cache): it is then neither decoded nor analysed again. */
  prepared?: PreparedSource;
  /** Target face in face order; absent: the target's largest face. */
  targetFaceIndex?: number;
  enableFaceEnhancer?: boolean;
}

export interface SwapImageInput {
  /** Encoded JPEG, PNG or WebP. */
  target: Buffer;
  /** One mapping for an `image` swap, one per face for `multi_face_image`. */
  mappings: FaceMapping[];
  /** Called with 0..100 as the work advances. */
  onProgress?: (percent: number) => void;
  /** Prepares a source photo that came without `prepared`; `loadSource` by default. */
  loadSource?: (bytes: Buffer) => Promise<PreparedSource>;
}

export interface SwapImageResult {
  image: Buffer;
  format: ImageFormat;
  width: number;
  height: number;
}

/**
 * Swaps faces in a still image: each mapping's source face replaces its target face. All inputs
 * are decoded and every index checked before any pixel changes. The result has the target's
 * format and size; pixels outside the swapped faces' boxes are left as they were. `sources` gives
 * each mapping's source as prepared, for a cache (mappings of identical bytes share one).
 */
export async function swapImage(input: SwapImageInput): Promise<SwapImageResult & { sources: PreparedSource[] }> {
  const progress = input.onProgress ?? (() => undefined);
  progress(0);
  // Sources are decoded (on sharp's threads) while the target is analysed, each distinct photo
  // once and two at a time; target errors are still the ones reported first.
  const loading = prepareSources(input.mappings, input.loadSource);
  for (const pending of loading) pending.catch(() => undefined);
  const target = await decodeImage(input.target);
  const faces = await detectFaces(target);
  const picked = input.mappings.map((mapping) => pickTargetFace(faces, mapping.targetFaceIndex));
  progress(30);
  const topology = await meshTopology();
  const sources: PreparedSource[] = [];
  for (const pending of loading) {
    sources.push(await pending);
    progress(30 + Math.round((30 * sources.length) / input.mappings.length));
  }
  input.mappings.forEach((mapping, i) => {
    swapFaceInto(target, picked[i]!, sources[i]!, { topology, enhance: mapping.enableFaceEnhancer === true, fineOccluders: true });
    progress(60 + Math.round((30 * (i + 1)) / input.mappings.length));
  });
  const image = await encodeImage(target);
  progress(100);
  return { image, format: target.format, width: target.width, height: target.height, sources };
}
