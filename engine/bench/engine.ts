import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { nearestFace } from '../src/animation/face-motion';
import { decodeImage } from '../src/faces/decode-image';
import { detectFaces } from '../src/faces/detect-faces';
import { faceDistance } from '../src/faces/face-distance';
import { largestIndex } from '../src/faces/face-order';
import { meshTopology } from '../src/faces/mesh-topology';
import { encodeImage } from '../src/swap/encode-image';
import { loadSource } from '../src/swap/load-source';
import { swapImage } from '../src/swap/swap-image';
import { swapFaceInto, type SwapStep } from '../src/swap/swap-face';
import { ComputePool, swapWithProgress } from '../src/pool/compute-pool';

/**
 * Times the engine on the face-api demo photos resized to 1024 and 1920 px wide: each stage of a
 * single-face swap, warm (after one untimed run), median of RUNS runs, then `swapImage` itself end
 * to end (it decodes the source while the target is analysed), the same with the source already
 * prepared (a hit in the compute pool's prepared-source cache), a cold swap as a worker runs it (on
 * the compute pool, two threads, where a helper prepares the source while the swap's thread
 * analyses the target), and the identity margin (how much closer the swapped face is to the source
 * than to the face it replaced).
 */
const RUNS = 5;
const PAIRS = [
  { target: 1, source: 2 },
  { target: 3, source: 4 },
  { target: 6, source: 5 },
];
const require = createRequire(import.meta.url);
const DEMO_DIR = path.join(path.dirname(require.resolve('@vladmandic/face-api')), '..', 'demo');

type Stage = 'decode target' | 'detect target' | 'decode+detect source' | SwapStep | 'encode' | 'total';

async function photo(n: number, width: number): Promise<Buffer> {
  return sharp(await readFile(path.join(DEMO_DIR, `sample${n}.jpg`))).resize({ width }).jpeg({ quality: 92 }).toBuffer();
}

async function swapOnce(targetBytes: Buffer, sourceBytes: Buffer): Promise<{ times: Record<Stage, number>; result: Buffer }> {
  const times = { warp: 0, colour: 0, blend: 0, enhance: 0, compose: 0 } as Record<Stage, number>;
  const topology = await meshTopology();
  let mark = performance.now();
  const lap = (stage: Stage) => {
    const now = performance.now();
    times[stage] = now - mark;
    mark = now;
  };
  const start = mark;
  const target = await decodeImage(targetBytes);
  lap('decode target');
  const faces = await detectFaces(target);
  lap('detect target');
  const source = await loadSource(sourceBytes);
  lap('decode+detect source');
  swapFaceInto(target, faces[largestIndex(faces.map((f) => f.box))]!, source, { topology, timings: times, fineOccluders: true });
  mark = performance.now();
  const result = await encodeImage(target);
  lap('encode');
  times.total = performance.now() - start;
  return { times, result };
}

async function identityMargin(targetBytes: Buffer, sourceBytes: Buffer, resultBytes: Buffer): Promise<number> {
  const describe = async (bytes: Buffer) => detectFaces(await decodeImage(bytes), { descriptors: true });
  const [before, source, after] = await Promise.all([describe(targetBytes), describe(sourceBytes), describe(resultBytes)]);
  const original = before[largestIndex(before.map((f) => f.box))]!;
  // The swapped face is found where the replaced one was: its new box may no longer be the largest.
  const swapped = nearestFace(original, after);
  if (!swapped) throw new Error('no face found where the swapped face should be');
  const sourceFace = source[largestIndex(source.map((f) => f.box))]!.descriptor!;
  return faceDistance(swapped.descriptor!, original.descriptor!) - faceDistance(swapped.descriptor!, sourceFace);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

// Keeps nothing, so that every swap on it is cold; both threads load their models before timing.
const pool = new ComputePool({ threads: 2, sourceCacheBytes: 0 });
const warmUp = await Promise.all([photo(1, 640), photo(2, 640)]);
await Promise.all([0, 1].map(() => swapWithProgress(pool, { target: warmUp[0]!, mappings: [{ source: warmUp[1]! }] }, () => undefined)));

for (const width of [1024, 1920]) {
  const samples: Record<string, number[]> = {};
  const margins: number[] = [];
  for (const pair of PAIRS) {
    const [target, source] = await Promise.all([photo(pair.target, width), photo(pair.source, width)]);
    await swapOnce(target, source);
    for (let run = 0; run < RUNS; run++) {
      const { times, result } = await swapOnce(target, source);
      for (const [stage, ms] of Object.entries(times)) (samples[stage] ??= []).push(ms);
      const start = performance.now();
      const { sources } = await swapImage({ target, mappings: [{ source }] });
      (samples['swapImage end to end'] ??= []).push(performance.now() - start);
      // The source seen before: prepared once, as the compute pool's cache keeps it.
      const cachedStart = performance.now();
      await swapImage({ target, mappings: [{ source, prepared: sources[0] }] });
      (samples['swapImage, source cached'] ??= []).push(performance.now() - cachedStart);
      const poolStart = performance.now();
      await swapWithProgress(pool, { target, mappings: [{ source }] }, () => undefined);
      (samples['on the pool, cold'] ??= []).push(performance.now() - poolStart);
      if (run === 0) margins.push(await identityMargin(target, source, result));
    }
  }
  console.log(`\n${width} px targets (${PAIRS.length} pairs x ${RUNS} warm runs, median ms):`);
  for (const [stage, values] of Object.entries(samples)) console.log(`  ${stage.padEnd(22)} ${median(values).toFixed(1).padStart(7)}`);
  console.log(`  identity margin        ${margins.map((m) => m.toFixed(3)).join(', ')} (d(result, target) - d(result, source); > 0: closer to source)`);
}
await pool.destroy();
