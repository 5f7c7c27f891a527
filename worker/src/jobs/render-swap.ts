import { mimeTypeOf } from '@doppel/contract';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { GifTask, SwapGifResult, SwapImageResult, SwapTask, SwapVideoResult, VideoSwapRequest } from '@doppel/engine';
import type { SwapRow } from '@doppel/core/db/schema';
import { swapParamsSchemas, type SwapParamsOf } from '@doppel/core/db/stored-inputs';
import type { MediaKind } from '@doppel/core/media/sniff';

type Progress = (percent: number) => void;

/** The engine's entry points, as the compute pool offers them (progress reported as it goes). */
export interface SwapEngine {
  swapImage(input: Omit<SwapTask, 'progress'>, onProgress: Progress, signal?: AbortSignal): Promise<SwapImageResult>;
  swapGif(input: Omit<GifTask, 'progress'>, onProgress: Progress, signal?: AbortSignal): Promise<SwapGifResult>;
  swapVideo(input: VideoSwapRequest, onProgress: Progress, signal?: AbortSignal): Promise<SwapVideoResult>;
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
 * stops the render when its result could no longer be stored. The row's params are read with
 * the schema of its type.
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
      const params = swapParamsSchemas.image.parse(row.params);
      const mappings = [
        { source: firstSource(), targetFaceIndex: params.target_face_index, enableFaceEnhancer: params.enable_face_enhancer },
      ];
      return renderedImage(await engine.swapImage({ target, mappings }, onProgress, signal));
    }
    case 'multi_face_image': {
      const params = swapParamsSchemas.multi_face_image.parse(row.params);
      const mappings = params.face_swaps.map((face) => ({
        source: sources.get(face.source_url)!,
        targetFaceIndex: face.face_index,
        enableFaceEnhancer: face.enable_face_enhancer ?? params.enable_face_enhancer,
      }));
      return renderedImage(await engine.swapImage({ target, mappings }, onProgress, signal));
    }
    case 'gif': {
      const params = swapParamsSchemas.gif.parse(row.params);
      const result = await engine.swapGif({ target, source: firstSource(), ...singleFace(params) }, onProgress, signal);
      return { bytes: result.image, kind: 'gif', mimeType: mimeTypeOf('gif') };
    }
    case 'video': {
      const params = swapParamsSchemas.video.parse(row.params);
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
