/**
 * What a compute thread can be asked to do. This module is the thread's entry: piscina calls
 * these functions by name, on the thread, with structured-cloned inputs.
 */
import { scanImage, scanStills, type ScanThresholds, type ScanVerdict } from '../scan/verdict';
import { videoStills } from '../video/stills';

export type MediaKind = 'jpeg' | 'png' | 'webp' | 'gif' | 'mp4' | 'mov' | 'webm';

const VIDEO_KINDS: readonly MediaKind[] = ['mp4', 'mov', 'webm'];

export async function scan(input: { bytes: Uint8Array; kind: MediaKind; thresholds?: ScanThresholds }): Promise<ScanVerdict> {
  const bytes = Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
  return VIDEO_KINDS.includes(input.kind)
    ? scanStills(await videoStills(bytes), input.thresholds)
    : scanImage(bytes, input.thresholds);
}
