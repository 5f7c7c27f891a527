/**
 * What a compute thread can be asked to do. This module is the thread's entry: piscina calls
 * these functions by name, on the thread, with structured-cloned inputs.
 */
import type { MessagePort } from 'node:worker_threads';
import { describeFaces, type FaceDescription } from '../faces/describe-faces';
import { swapImage, type SwapImageResult } from '../swap/swap-image';
import { scanImage, scanStills, type ScanThresholds, type ScanVerdict } from '../scan/verdict';
import { capture, type Outcome } from './outcome';
import { videoStills } from '../video/stills';

export type MediaKind = 'jpeg' | 'png' | 'webp' | 'gif' | 'mp4' | 'mov' | 'webm';

const VIDEO_KINDS: readonly MediaKind[] = ['mp4', 'mov', 'webm'];

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export async function scan(input: { bytes: Uint8Array; kind: MediaKind; thresholds?: ScanThresholds }): Promise<ScanVerdict> {
  const bytes = asBuffer(input.bytes);
  return VIDEO_KINDS.includes(input.kind)
    ? scanStills(await videoStills(bytes), input.thresholds)
    : scanImage(bytes, input.thresholds);
}

export function detect(input: { bytes: Uint8Array }): Promise<Outcome<FaceDescription>> {
  return capture(() => describeFaces(asBuffer(input.bytes)));
}

export interface SwapTask {
  target: Uint8Array;
  mappings: { source: Uint8Array; targetFaceIndex?: number; enableFaceEnhancer?: boolean }[];
  /** Receives progress percentages (0..100) as numbers. */
  progress?: MessagePort;
}

export function swap(input: SwapTask): Promise<Outcome<SwapImageResult>> {
  return capture(() =>
    swapImage({
      target: asBuffer(input.target),
      mappings: input.mappings.map((m) => ({ ...m, source: asBuffer(m.source) })),
      onProgress: (percent) => input.progress?.postMessage(percent),
    }),
  );
}
