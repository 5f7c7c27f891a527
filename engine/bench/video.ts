import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { swapVideoOnPool } from '../src/animation/run-on-pool';
import { loadHuman } from '../src/faces/human';
import { ComputePool, swapWithProgress } from '../src/pool/compute-pool';
import { joinSegments } from '../src/video/join-segments';
import { probeVideo } from '../src/video/probe-video';
import { readFrames } from '../src/video/read-frames';
import { swapVideo, type SwapVideoResult } from '../src/video/swap-video';
import { openEncoder } from '../src/video/write-frames';

/**
 * Video throughput and memory: for clips generated here (a slow pan over demo photo 1, 30 fps,
 * with a tone), the swap's frames per second on the compute pool (the video's chunks on every
 * render thread, one per core) and on this thread alone (the video as one chunk), next to a
 * baseline measured in the same run (the same decode, encode and join without detection or
 * swapping), and the process's peak RSS during each swap (process-wide: it includes the models
 * of every thread loaded so far). On a 10 s clip each figure is the median of three runs. The
 * render threads' first video, slower while their video code warms up, is timed on its own first.
 * Run: pnpm --filter @doppel/engine bench:video
 */
const require = createRequire(import.meta.url);
const DEMO_DIR = path.join(path.dirname(require.resolve('@vladmandic/face-api')), '..', 'demo');
const FPS = 30;
// The two 640x360 clips run first and back to back: RSS is process-wide and not handed back at
// once, so a 720p run before them would hide whether the longer clip needs more memory.
const CASES = [
  { width: 640, height: 360, seconds: 10 },
  { width: 640, height: 360, seconds: 60 },
  { width: 1280, height: 720, seconds: 10 },
];

async function makeClip(file: string, width: number, height: number, seconds: number): Promise<void> {
  const photo = await sharp(await readFile(path.join(DEMO_DIR, 'sample1.jpg'))).resize({ width: 960 }).toBuffer();
  const ffmpeg = spawn('ffmpeg', ['-v', 'error', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${width}x${height}`, '-framerate', String(FPS), '-i', 'pipe:0',
    '-f', 'lavfi', '-i', 'sine=frequency=440', '-c:a', 'aac', '-shortest', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-y', file], { stdio: ['pipe', 'ignore', 'inherit'] });
  const frames = seconds * FPS;
  // A slow back-and-forth pan over people A and B, so faces move on every frame.
  for (let i = 0; i < frames; i++) {
    const t = (1 - Math.cos((2 * Math.PI * i) / (8 * FPS))) / 2;
    const frame = await sharp(photo).extract({ left: Math.round(80 + 120 * t), top: 120, width: 640, height: 360 }).resize(width, height).removeAlpha().raw().toBuffer();
    if (!ffmpeg.stdin.write(frame)) await once(ffmpeg.stdin, 'drain');
  }
  ffmpeg.stdin.end();
  await once(ffmpeg, 'close');
}

async function baseline(file: string, output: string): Promise<number> {
  const video = await probeVideo(file);
  const part = `${output}.part.mp4`;
  const start = performance.now();
  const encoder = openEncoder({ output: part, width: video.width, height: video.height, frameRate: video.frameRate });
  let frames = 0;
  for await (const frame of readFrames(file, video)) {
    await encoder.write(frame.rgb);
    frames++;
  }
  await encoder.finish();
  await joinSegments({ segments: [part], list: `${output}.txt`, output, audio: { file, codec: video.audioCodec ?? 'aac' } });
  return frames / ((performance.now() - start) / 1000);
}

/**
 * Runs of each swap on a 10 s clip: one run of the same code on the same clip ranged 28-47 fps on
 * the pool within minutes (2026-12-02), so a short clip's figure is the median of three, with the
 * range beside it. A 60 s clip's own length evens that out.
 */
const SHORT_CLIP_RUNS = 3;
/** Length of the clip that warms the render threads' video code (see below). */
const FIRST_SECONDS = 2;

/** Seconds one swap takes. */
async function durationOf(swap: () => Promise<SwapVideoResult>): Promise<number> {
  const start = performance.now();
  await swap();
  return (performance.now() - start) / 1000;
}

interface Timing {
  /** Median frames per second over the runs, and the slowest and fastest run's. */
  fps: number;
  range: [number, number];
  /** Peak RSS over the runs. */
  peakMb: number;
}

/** Frames per second of `runs` runs of a swap, and the peak RSS while they ran. */
async function timed(runs: number, swap: () => Promise<SwapVideoResult>): Promise<Timing> {
  const sampler = rssSampler();
  const rates: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    const result = await swap();
    rates.push(result.frames / ((performance.now() - start) / 1000));
  }
  rates.sort((a, b) => a - b);
  return { fps: rates[Math.floor(rates.length / 2)]!, range: [rates[0]!, rates.at(-1)!], peakMb: (await sampler.stop()) / 2 ** 20 };
}

/** Peak RSS sampled every 50 ms from a thread, so the sampling keeps going while the main thread computes. */
function rssSampler(): { stop(): Promise<number> } {
  const shared = new Float64Array(new SharedArrayBuffer(8));
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads'); const a = new Float64Array(workerData);
     setInterval(() => { a[0] = Math.max(a[0], process.memoryUsage.rss()); }, 50);`,
    { eval: true, workerData: shared.buffer },
  );
  return { stop: async () => (await worker.terminate(), shared[0]!) };
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'doppel-bench-video-'));
const pool = new ComputePool();
try {
  await loadHuman();
  const source = await readFile(path.join(DEMO_DIR, 'sample2.jpg'));
  // Every render thread loads its models before anything is timed: one image swap per thread, at once.
  const still = await readFile(path.join(DEMO_DIR, 'sample1.jpg'));
  await Promise.all(Array.from({ length: pool.renderThreads }, () => swapWithProgress(pool, { target: still, mappings: [{ source }] }, () => undefined)));
  // A render thread's first video runs slower while its video code warms up (a 10 s clip's first
  // run on the pool 28-35 fps where the next ran 41-47, 2026-12-02): a short clip cut into a chunk
  // per thread goes first, timed cold and then warm, so the clips below measure warm threads.
  const first = path.join(dir, 'first.mp4');
  await makeClip(first, 640, 360, FIRST_SECONDS);
  const firstRun = () => swapVideoOnPool(pool, { input: first, output: path.join(dir, 'first-out.mp4'), source, minChunkSeconds: FIRST_SECONDS / pool.renderThreads }, () => undefined);
  const [cold, warm] = [await durationOf(firstRun), await durationOf(firstRun)];
  console.log(`640x360, ${FIRST_SECONDS} s in a chunk per render thread: the threads' first video ${cold.toFixed(2)} s, the same again ${warm.toFixed(2)} s`);
  for (const { width, height, seconds } of CASES) {
    const clip = path.join(dir, `clip-${width}-${seconds}.mp4`);
    await makeClip(clip, width, height, seconds);
    const plain = await baseline(clip, path.join(dir, 'plain.mp4'));
    const output = path.join(dir, 'swapped.mp4');
    const runs = seconds <= 10 ? SHORT_CLIP_RUNS : 1;
    const pooled = await timed(runs, () => swapVideoOnPool(pool, { input: clip, output, source }, () => undefined));
    const single = await timed(runs, () => swapVideo({ input: clip, output, source }));
    const frames = seconds * FPS;
    const spread = ({ range: [slowest, fastest] }: Timing) => (runs > 1 ? `, ${runs} runs ${slowest.toFixed(1)}-${fastest.toFixed(1)}` : '');
    const line = (label: string, run: Timing) =>
      `${label} ${run.fps.toFixed(1)} fps (ratio ${(run.fps / plain).toFixed(2)}${spread(run)}, peak RSS ${run.peakMb.toFixed(0)} MB)`;
    console.log(
      `${width}x${height}, ${seconds} s (${frames} frames): ${line(`pool of ${pool.renderThreads} render threads`, pooled)}; ` +
        `${line('one thread', single)}; decode+encode alone ${plain.toFixed(1)} fps`,
    );
  }
} finally {
  await pool.destroy();
  await rm(dir, { recursive: true, force: true });
}
