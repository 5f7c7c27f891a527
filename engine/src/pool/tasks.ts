/**
 * What a compute thread can be asked to do. This module is the thread's entry: piscina calls
 * these functions by name, on the thread, with structured-cloned inputs.
 */
import { isVideoKind, type MediaKind } from '@doppel/contract';
import type { MessagePort } from 'node:worker_threads';
import { describeFaces, type FaceDescription } from '../faces/describe-faces';
import type { PreparedSource } from '../swap/prepared-source';
import { toShared } from '../swap/source-cache';
import { swapImage, type SwapImageResult } from '../swap/swap-image';
import { scanFrames, scanImage, type ScanThresholds, type ScanVerdict } from '../scan/verdict';
import { capture, type Outcome } from './outcome';
import { videoStills } from '../video/stills';
import { swapGif, type SwapGifResult } from '../animation/swap-gif';
import { swapVideo, type SwapVideoResult } from '../video/swap-video';


const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export function scan(input: { bytes: Uint8Array; kind: MediaKind; thresholds?: ScanThresholds }): Promise<Outcome<ScanVerdict>> {
  const bytes = asBuffer(input.bytes);
  return capture(async () =>
    isVideoKind(input.kind) ? scanFrames(await videoStills(bytes), input.thresholds) : scanImage(bytes, input.thresholds),
  );
}

export function detect(input: { bytes: Uint8Array }): Promise<Outcome<FaceDescription>> {
  return capture(() => describeFaces(asBuffer(input.bytes)));
}

export interface SwapTask {
  target: Uint8Array;
  /** `prepared`: the source from the pool's cache (in shared memory), when it was there. */
  mappings: { source: Uint8Array; prepared?: PreparedSource; targetFaceIndex?: number; enableFaceEnhancer?: boolean }[];
  /** Receives progress percentages (0..100) as numbers. */
  progress?: MessagePort;
}

/** A swap's result, with the sources this thread prepared itself (in shared memory, for the pool's cache; null where one was given). */
export type SwapTaskResult = SwapImageResult & { prepared: (PreparedSource | null)[] };

export function swap(input: SwapTask): Promise<Outcome<SwapTaskResult>> {
  return capture(async () => {
    const { sources, ...result } = await swapImage({
      target: asBuffer(input.target),
      mappings: input.mappings.map((m) => ({ ...m, source: asBuffer(m.source) })),
      onProgress: (percent) => input.progress?.postMessage(percent),
    });
    // Mappings of identical bytes share one prepared source: it is moved to shared memory once.
    const shared = new Map<PreparedSource, PreparedSource>();
    const share = (source: PreparedSource) => shared.get(source) ?? shared.set(source, toShared(source)).get(source)!;
    return { ...result, prepared: sources.map((source, i) => (input.mappings[i]!.prepared ? null : share(source))) };
  });
}

export interface GifTask {
  target: Uint8Array;
  source: Uint8Array;
  targetFaceIndex?: number;
  referenceFrameTimeSeconds?: number;
  enableFaceEnhancer?: boolean;
  /** Receives progress percentages (0..100) as numbers. */
  progress?: MessagePort;
}

export function gif(input: GifTask): Promise<Outcome<SwapGifResult>> {
  const { progress, ...rest } = input;
  return capture(() =>
    swapGif({ ...rest, target: asBuffer(input.target), source: asBuffer(input.source), onProgress: (percent) => progress?.postMessage(percent) }),
  );
}

/**
 * A video swap works on files, not buffers: the caller writes the input to `input` and reads the
 * MP4 from `output`, so the video never crosses the thread boundary and the thread holds only a
 * few decoded frames at a time.
 */
export interface VideoTask {
  input: string;
  output: string;
  source?: Uint8Array;
  targetFaceIndex?: number;
  referenceFrameTimeSeconds?: number;
  faceSwaps?: { frameTimeSeconds: number; faceIndex: number; source: Uint8Array }[];
  enableFaceEnhancer?: boolean;
  keepAudio?: boolean;
  /** Receives progress percentages (0..100) as numbers. */
  progress?: MessagePort;
}

export function video(input: VideoTask): Promise<Outcome<SwapVideoResult>> {
  const { progress, source, faceSwaps, ...rest } = input;
  return capture(() =>
    swapVideo({
      ...rest,
      source: source && asBuffer(source),
      faceSwaps: faceSwaps?.map((item) => ({ ...item, source: asBuffer(item.source) })),
      onProgress: (percent) => progress?.postMessage(percent),
    }),
  );
}
