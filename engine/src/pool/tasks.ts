/**
 * What a compute thread can be asked to do. This module is the thread's entry: piscina calls
 * these functions by name, on the thread, with structured-cloned inputs.
 */
import { isVideoKind, type MediaKind } from '@doppel/contract';
import { threadId, type MessagePort } from 'node:worker_threads';
import { loadHuman } from '../faces/human';
import { loadScanModel } from '../scan/model';
import { describeFaces, type FaceDescription } from '../faces/describe-faces';
import type { PreparedSource } from '../swap/prepared-source';
import { toShared } from '../swap/source-cache';
import { loadSource } from '../swap/load-source';
import { swapImage, type SwapImageResult } from '../swap/swap-image';
import { scanFrames, scanImage, type ScanThresholds, type ScanVerdict } from '../scan/verdict';
import { capture, type Outcome } from './outcome';
import { helperResults, takeClaim, type SourceClaim } from './source-claim';
import { videoStills } from '../video/stills';
import { swapGif, type SwapGifResult } from '../animation/swap-gif';
import { setUpVideoSwap, type SetUpInput, type SwapPerson, type VideoSwapSetUp } from '../video/set-up-swap';
import { swapChunk, type ChunkInput } from '../video/swap-chunk';
import { facesOnVideoStart } from '../video/first-frame-faces';
import type { FrameSource } from '../video/read-frames';
import type { Face } from '../faces/detect-faces';

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Moves prepared sources to shared memory; mappings of identical bytes share one prepared source, moved once. */
function sharer(): (source: PreparedSource) => PreparedSource {
  const shared = new Map<PreparedSource, PreparedSource>();
  return (source) => shared.get(source) ?? shared.set(source, toShared(source)).get(source)!;
}

export function scan(input: { bytes: Uint8Array; kind: MediaKind; thresholds?: ScanThresholds }): Promise<Outcome<ScanVerdict>> {
  const bytes = asBuffer(input.bytes);
  return capture(async () =>
    isVideoKind(input.kind) ? scanFrames(await videoStills(bytes), input.thresholds) : scanImage(bytes, input.thresholds),
  );
}

export function detect(input: { bytes: Uint8Array }): Promise<Outcome<FaceDescription>> {
  return capture(() => describeFaces(asBuffer(input.bytes)));
}

/** A render thread's models loaded ahead of its first task (see `ComputePool.warmUp`); resolves with the thread's id. */
export function warmRenderThread(): Promise<Outcome<number>> {
  return capture(async () => (await loadHuman(), threadId));
}

/** A quick thread's models (the face models, and the content scan's) loaded ahead of its first task; resolves with the thread's id. */
export function warmQuickThread(): Promise<Outcome<number>> {
  return capture(async () => (await Promise.all([loadHuman(), loadScanModel()]), threadId));
}

export interface SwapTask {
  target: Uint8Array;
  /**
   * `prepared`: the source from the pool's cache (in shared memory), when it was there. `claim`:
   * a helper task may prepare this source meanwhile (see `SourceClaim`); mappings of identical
   * bytes share one claim.
   */
  mappings: { source: Uint8Array; prepared?: PreparedSource; claim?: SourceClaim; targetFaceIndex?: number; enableFaceEnhancer?: boolean }[];
  /** Receives progress percentages (0..100) as numbers. */
  progress?: MessagePort;
  /** Delivers the helpers' sources (`HelpedSource`), for the mappings with a claim. */
  helped?: MessagePort;
}

/**
 * A swap's result, with the sources this thread prepared itself (in shared memory, for the pool's
 * cache; null where one was given or a helper prepared it).
 */
export type SwapTaskResult = SwapImageResult & { prepared: (PreparedSource | null)[] };

export function swap(input: SwapTask): Promise<Outcome<SwapTaskResult>> {
  const helped = input.helped;
  return capture(async () => {
    const mappings = input.mappings.map((m) => ({ ...m, source: asBuffer(m.source) }));
    const helpedIndex = new Map<Buffer, { index: number; claim: SourceClaim }>();
    // Mappings of identical bytes are prepared once, from the first one's buffer: its index is the one helpers answer for.
    mappings.forEach(({ source, claim }, index) => claim && helpedIndex.set(source, { index, claim }));
    const fromHelper = helped ? helperResults(helped) : undefined;
    const byHelper = new Set<PreparedSource>();
    // The swap asks for a source once the target is analysed: a helper that claimed it first
    // hands it over; otherwise, or if the helper failed, this thread prepares it.
    const load = async (bytes: Buffer): Promise<PreparedSource> => {
      const help = helpedIndex.get(bytes);
      if (!help || !fromHelper || takeClaim(help.claim, 'swap')) return loadSource(bytes);
      const prepared = await fromHelper(help.index);
      if (!prepared) return loadSource(bytes);
      byHelper.add(prepared);
      return prepared;
    };
    const { sources, ...result } = await swapImage({
      target: asBuffer(input.target),
      mappings,
      onProgress: (percent) => input.progress?.postMessage(percent),
      loadSource: load,
    });
    const share = sharer();
    return { ...result, prepared: sources.map((source, i) => (input.mappings[i]!.prepared || byHelper.has(source) ? null : share(source))) };
  }).finally(() => helped?.close());
}

/**
 * A helper beside a swap (see `SourceClaim`): prepares the source in shared memory if the swap
 * has not claimed it yet, and answers null if it has.
 */
export function prepareSource(input: { source: Uint8Array; claim: SourceClaim }): Promise<Outcome<PreparedSource | null>> {
  return capture(async () => (takeClaim(input.claim, 'helper') ? toShared(await loadSource(asBuffer(input.source))) : null));
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

/** A video swap's set-up (see `setUpVideoSwap`); `prepared`: a source from the pool's cache. */
export interface VideoSetUpTask extends Omit<SetUpInput, 'people'> {
  people: (Omit<SwapPerson, 'source'> & { source: Uint8Array })[];
  /** A message on it stops the set-up between frames (see `stoppable`). */
  stop: MessagePort;
}

/** The set-up, its prepared sources in shared memory: every chunk, and the pool's cache, share them without a copy. */
export function videoSetUp(input: VideoSetUpTask): Promise<Outcome<VideoSwapSetUp>> {
  const { stop, ...setUp } = input;
  return stoppable(stop, (signal) =>
    capture(async () => {
      const people = setUp.people.map((person) => ({ ...person, source: asBuffer(person.source) }));
      const { gallery, sources } = await setUpVideoSwap({ ...setUp, people }, signal);
      const share = sharer();
      return { gallery, sources: sources.map((source, i) => (setUp.people[i]!.prepared ? source : share(source))) };
    }),
  );
}

/**
 * Runs `work` with a signal that a message on `stop` aborts. Video work stops itself this way rather
 * than by piscina ending the thread: its ffmpeg processes belong to the thread, and only the thread
 * that started a child reaps it; ended with it, they stayed zombies.
 */
async function stoppable<T>(stop: MessagePort, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const stopped = new AbortController();
  stop.once('message', () => stopped.abort());
  try {
    return await work(stopped.signal);
  } finally {
    stop.close();
  }
}

/**
 * One chunk of a video swap: it works on files, not buffers (it decodes its frames from the video
 * file and writes its part to `output`), so the video never crosses the thread boundary and the
 * thread holds only a few decoded frames at a time.
 */
export interface VideoChunkTask extends ChunkInput {
  /** Receives the chunk's frames written so far, as numbers. */
  progress: MessagePort;
  /** A message on it stops the chunk before its next frame (see `stoppable`). */
  stop: MessagePort;
}

/** The faces a video's first chunk starts from (see `facesOnVideoStart`). */
export function videoStartFaces(input: { file: string; video: FrameSource }): Promise<Outcome<Face[] | null>> {
  return capture(() => facesOnVideoStart(input.file, input.video));
}

export function videoChunk(input: VideoChunkTask): Promise<Outcome<number>> {
  const { progress, stop, ...chunk } = input;
  return stoppable(stop, (signal) => capture(() => swapChunk(chunk, (done) => progress.postMessage(done), signal)));
}
