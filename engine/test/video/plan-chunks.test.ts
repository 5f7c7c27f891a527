import { describe, expect, it } from 'vitest';
import { planChunks, type ChunkPlanOptions } from '../../src/video/plan-chunks';

const at30fps = (seconds: number, threads: number): ChunkPlanOptions => ({ frames: seconds * 30, fps: 30, keyframeInterval: 8, threads, minChunkSeconds: 3 });

describe('chunks of a video', () => {
  it('are one chunk, the whole video, on one thread', () => {
    expect(planChunks(at30fps(60, 1))).toEqual([{ first: 0, count: null, lead: 0 }]);
  });

  it('are not cut below the shortest chunk: 5 s on 2 threads stay whole, 10 s make two', () => {
    expect(planChunks(at30fps(5, 2))).toHaveLength(1);
    expect(planChunks(at30fps(10, 2))).toEqual([
      { first: 0, count: 152, lead: 0 },
      { first: 152, count: null, lead: 8 },
    ]);
  });

  it('are a multiple of the threads, up to four per thread, each starting on a keyframe', () => {
    const chunks = planChunks(at30fps(60, 2));
    expect(chunks).toHaveLength(8);
    expect(planChunks(at30fps(40, 4))).toHaveLength(12);
    for (const chunk of chunks) expect(chunk.first % 8).toBe(0);
  });

  it('cover every frame once, the last running to the end', () => {
    const chunks = planChunks({ frames: 50, fps: 25, keyframeInterval: 6, threads: 2, minChunkSeconds: 0.5 });
    expect(chunks.map((chunk) => chunk.first)).toEqual([0, 12, 24, 36]);
    chunks.slice(0, -1).forEach((chunk, i) => expect(chunk.first + chunk.count!).toBe(chunks[i + 1]!.first));
    expect(chunks.at(-1)!.count).toBeNull();
  });
});
