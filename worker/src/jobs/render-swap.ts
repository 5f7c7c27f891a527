import { mimeTypeOf, type SwapType } from '@doppel/contract';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { GifTask, SwapGifResult, SwapImageResult, SwapTask, SwapVideoResult, VideoTask } from '@doppel/engine';
import type { SwapRow } from '@doppel/core/db/schema';
import type { SwapParamsOf } from '@doppel/core/db/stored-inputs';
import type { MediaKind } from '@doppel/core/media/sniff';

type Progress = (percent: number) => void;

/** The engine's entry points, as the compute pool offers them (progress reported as it goes). */
export interface SwapEngine {
  swapImage(input: Omit<SwapTask, 'progress'>, onProgress: Progress, signal?: AbortSignal): Promise<SwapImageResult>;
  swapGif(input: Omit<GifTask, 'progress'>, onProgress: Progress, signal?: AbortSignal): Promise<SwapGifResult>;
  swapVideo(input: Omit<VideoTask, 'progress'>, onProgress: Progress, signal?: AbortSignal): Promise<SwapVideoResult>;
}

/**
 * A row's params as the request shape of its type. The type column and the params are written
 * together from one validated create body, so the row's type says which shape its params have.
 */
function paramsOf<Type extends SwapType>(row: SwapRow, type: Type): SwapParamsOf<Type> {
  if (row.type !== type) throw new Error(`swap ${row.id} is a ${row.type} swap, not ${type}`);
  return row.params as SwapParamsOf<Type>;
}

/** The engine's options for a swap of one source onto one target face. */
const singleFace = (params: SwapParamsOf<'gif' | 'video'>) => ({
  targetFaceIndex: params.target_face_index,
  referenceFrameTimeSeconds: params.reference_frame_time_seconds,
  enableFaceEnhancer: params.enable_face_enhancer,
});

const renderedImage = (result: SwapImageResult): Rendered => ({
  bytes: result.image,
  kind: result.format,
  mimeType: mimeTypeOf(result.format),
});

export interface Rendered {
  bytes: Buffer;
  kind: MediaKind;
  mimeType: string;
}

/**
 * Runs the engine for one swap: the target and the sources (by the URL they were fetched from)
 * in, the result's bytes out. Videos go through temporary files, so the thread holds only a few
 * decoded frames; the files themselves (within the byte caps) are held here. `signal` (the job's)
 * stops the render when its result could no longer be stored.
 */
export async function renderSwap(
  engine: SwapEngine,
  row: SwapRow,
  target: Buffer,
  sources: Map<string, Buffer>,
  onProgress: Progress,
  signal?: AbortSignal,
): Promise<Rendered> {
  const firstSource = () => [...sources.values()][0]!;

  switch (row.type) {
    case 'image': {
      const params = paramsOf(row, 'image');
      const mappings = [
        { source: firstSource(), targetFaceIndex: params.target_face_index, enableFaceEnhancer: params.enable_face_enhancer },
      ];
      return renderedImage(await engine.swapImage({ target, mappings }, onProgress, signal));
    }
    case 'multi_face_image': {
      const params = paramsOf(row, 'multi_face_image');
      const mappings = params.face_swaps.map((face) => ({
        source: sources.get(face.source_url)!,
        targetFaceIndex: face.face_index,
        enableFaceEnhancer: face.enable_face_enhancer ?? params.enable_face_enhancer,
      }));
      return renderedImage(await engine.swapImage({ target, mappings }, onProgress, signal));
    }
    case 'gif': {
      const params = paramsOf(row, 'gif');
      const result = await engine.swapGif({ target, source: firstSource(), ...singleFace(params) }, onProgress, signal);
      return { bytes: result.image, kind: 'gif', mimeType: mimeTypeOf('gif') };
    }
    case 'video': {
      const params = paramsOf(row, 'video');
      const dir = await mkdtemp(path.join(os.tmpdir(), 'doppel-video-'));
      try {
        const input = path.join(dir, 'input');
        const output = path.join(dir, 'output.mp4');
        await writeFile(input, target);
        const faceSwaps = params.face_swaps?.map((face) => ({
          frameTimeSeconds: face.frame_time_seconds,
          faceIndex: face.face_index,
          source: sources.get(face.source_url)!,
        }));
        await engine.swapVideo(
          {
            input,
            output,
            ...(faceSwaps ? { faceSwaps } : { source: firstSource(), ...singleFace(params) }),
            enableFaceEnhancer: params.enable_face_enhancer,
            keepAudio: params.keep_audio ?? true,
          },
          onProgress,
          signal,
        );
        return { bytes: await readFile(output), kind: 'mp4', mimeType: mimeTypeOf('mp4') };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  }
}
