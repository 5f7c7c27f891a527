import { mimeTypeOf } from '@doppel/contract';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { GifTask, SwapGifResult, SwapImageResult, SwapTask, SwapVideoResult, VideoTask } from '@doppel/worker';
import type { SwapRow } from '../db/schema';
import type { MediaKind } from '../media/sniff';

type Progress = (percent: number) => void;

/** The engine's entry points, as the compute pool offers them (progress reported as it goes). */
export interface SwapEngine {
  swapImage(input: Omit<SwapTask, 'progress'>, onProgress: Progress): Promise<SwapImageResult>;
  swapGif(input: Omit<GifTask, 'progress'>, onProgress: Progress): Promise<SwapGifResult>;
  swapVideo(input: Omit<VideoTask, 'progress'>, onProgress: Progress): Promise<SwapVideoResult>;
}

/** The request fields the contract validated at create time, as stored in `params`. */
interface SwapParams {
  target_face_index?: number;
  enable_face_enhancer?: boolean;
  reference_frame_time_seconds?: number;
  keep_audio?: boolean;
  face_swaps?: { face_index: number; source_url: string; frame_time_seconds?: number; enable_face_enhancer?: boolean }[];
}

export interface Rendered {
  bytes: Buffer;
  kind: MediaKind;
  mimeType: string;
}

/**
 * Runs the engine for one swap: the target and the sources (by the URL they were fetched from)
 * in, the result's bytes out. Videos go through temporary files, so the thread holds only a few
 * decoded frames; the files themselves (within the byte caps) are held here.
 */
export async function renderSwap(
  engine: SwapEngine,
  row: SwapRow,
  target: Buffer,
  sources: Map<string, Buffer>,
  onProgress: Progress,
): Promise<Rendered> {
  const params = row.params as SwapParams;
  const firstSource = () => [...sources.values()][0]!;
  const common = {
    targetFaceIndex: params.target_face_index,
    referenceFrameTimeSeconds: params.reference_frame_time_seconds,
    enableFaceEnhancer: params.enable_face_enhancer,
  };

  switch (row.type) {
    case 'image':
    case 'multi_face_image': {
      const mappings =
        row.type === 'image'
          ? [{ source: firstSource(), ...common }]
          : (params.face_swaps ?? []).map((face) => ({
              source: sources.get(face.source_url)!,
              targetFaceIndex: face.face_index,
              enableFaceEnhancer: face.enable_face_enhancer ?? params.enable_face_enhancer,
            }));
      const result = await engine.swapImage({ target, mappings }, onProgress);
      return { bytes: result.image, kind: result.format, mimeType: mimeTypeOf(result.format) };
    }
    case 'gif': {
      const result = await engine.swapGif({ target, source: firstSource(), ...common }, onProgress);
      return { bytes: result.image, kind: 'gif', mimeType: mimeTypeOf('gif') };
    }
    case 'video': {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'doppel-video-'));
      try {
        const input = path.join(dir, 'input');
        const output = path.join(dir, 'output.mp4');
        await writeFile(input, target);
        const faceSwaps = params.face_swaps?.map((face) => ({
          frameTimeSeconds: face.frame_time_seconds ?? 0,
          faceIndex: face.face_index,
          source: sources.get(face.source_url)!,
        }));
        await engine.swapVideo(
          {
            input,
            output,
            ...(faceSwaps ? { faceSwaps } : { source: firstSource(), ...common }),
            enableFaceEnhancer: params.enable_face_enhancer,
            keepAudio: params.keep_audio ?? true,
          },
          onProgress,
        );
        return { bytes: await readFile(output), kind: 'mp4', mimeType: mimeTypeOf('mp4') };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  }
}
