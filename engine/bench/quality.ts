import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { meshTopology } from '../src/faces/mesh-topology';
import { largestIndex } from '../src/faces/face-order';
import { measureClip, type Clip, type MotionResult } from './quality/motion';
import { qualityMarkdown } from './quality/report';
import { motionStrip } from './quality/motion-strip';
import { handCutout } from '../test/quality/hand';
import { demoImage } from './quality/faces';
import { measureHandClip, type HandMotionResult } from './quality/hand-motion';
import { measureGlasses, measureHand, occluderStrip, type GlassesResult, type OccluderResult } from './quality/occluders';
import { contactSheet } from './quality/sheet';
import { demoFaces, swapAndMeasure, type DemoFace, type StillResult } from './quality/stills';

/**
 * The swap quality report: swaps every face of at least 80 px of the six face-api demo photos
 * into every other one, small faces, and generated GIF and video clips, measures identity (two
 * recognisers), tone, seam and pose, and whether a glasses frame drawn across each face, and a
 * hand laid across it, stay in front, and writes docs/quality.md, docs/images/quality-sheet.jpg,
 * docs/images/quality-motion.jpg, docs/images/quality-occluders.jpg and docs/images/quality-hands.jpg.
 * A benchmark, not a test: it prints its tables and exits 0 whatever they show.
 */
const require = createRequire(import.meta.url);
const DEMO_DIR = path.join(path.dirname(require.resolve('@vladmandic/face-api')), '..', 'demo');
const DOCS = new URL('../../docs/', import.meta.url);

const CLIPS: (Clip & { sourcePhoto: number })[] = [
  // Pans across photo 4's four people; the person picked leaves through the left edge.
  { name: 'GIF pan, photo 4 (480x300, zoom 1-1.3)', kind: 'gif', photo: 4, photoWidth: 960, width: 480, height: 300, frames: 16, from: { x: 40, y: 40, zoom: 1 }, to: { x: 420, y: 60, zoom: 1.3 }, sourcePhoto: 2 },
  // Pans across photo 2's three people, the one picked leaving through the left edge.
  { name: 'MP4 pan, photo 2 (640x360, zoom 1-1.2)', kind: 'mp4', photo: 2, photoWidth: 1280, width: 640, height: 360, frames: 40, from: { x: 300, y: 40, zoom: 1 }, to: { x: 640, y: 60, zoom: 1.2 }, sourcePhoto: 5 },
  // Zooms into photo 6 until the face picked fills the frame and is cut by its top edge.
  { name: 'MP4 zoom, photo 6 (640x360, zoom 1-1.8)', kind: 'mp4', photo: 6, photoWidth: 1280, width: 640, height: 360, frames: 30, from: { x: 320, y: 200, zoom: 1 }, to: { x: 400, y: 260, zoom: 1.8 }, sourcePhoto: 3 },
];

const started = performance.now();
const topology = await meshTopology();
const faces = await demoFaces(topology);
console.log(`${faces.length} faces of at least 80 px`);

const stills: StillResult[] = [];
for (const target of faces) {
  for (const source of faces) {
    if (source === target) continue;
    stills.push(await swapAndMeasure(target, source, topology));
  }
  console.log(`  ${stills.length} pairs measured`);
}

// A glasses frame, and a hand, across every face, the next face in the list swapped in.
const occluders: GlassesResult[] = [];
for (const [i, target] of faces.entries()) occluders.push(await measureGlasses(target, faces[(i + 1) % faces.length]!, topology));
console.log(`  ${occluders.length} faces with glasses measured`);
const hand = handCutout(await demoImage(2));
const hands: OccluderResult[] = [];
for (const [i, target] of faces.entries()) hands.push(await measureHand(target, faces[(i + 1) % faces.length]!, hand, topology));
console.log(`  ${hands.length} faces with a hand measured`);

const largest = (photo: number): DemoFace => {
  const own = faces.filter((face) => face.photo === photo);
  return own[largestIndex(own.map((face) => face.seen.face.box))]!;
};
const small: StillResult[] = [];
for (const target of await demoFaces(topology, 640)) {
  for (const photo of [1, 2, 3, 4, 5, 6]) if (photo !== target.photo) small.push(await swapAndMeasure(target, largest(photo), topology));
}
console.log(`  ${small.length} small-face pairs measured`);

const motion: (MotionResult & { still: StillResult | null })[] = [];
for (const clip of CLIPS) {
  const source = largest(clip.sourcePhoto);
  const result = await measureClip(clip, await readFile(path.join(DEMO_DIR, `sample${clip.sourcePhoto}.jpg`)), source.seen);
  motion.push({ ...result, still: stills.find((r) => r.target.id === result.person && r.source === source) ?? null });
  console.log(`  clip measured: ${clip.name}`);
}

// The same clips with the hand laid across the person's face.
const handMotion: HandMotionResult[] = [];
for (const clip of CLIPS) {
  handMotion.push(await measureHandClip(clip, await readFile(path.join(DEMO_DIR, `sample${clip.sourcePhoto}.jpg`)), hand));
  console.log(`  clip with a hand measured: ${clip.name}`);
}

const markdown = qualityMarkdown({ stills, small, motion, occluders, hands, handMotion, minutes: (performance.now() - started) / 60000 });
await writeFile(new URL('quality.md', DOCS), markdown);
await writeFile(new URL('images/quality-sheet.jpg', DOCS), await contactSheet(samplePairs(stills, small)));
await writeFile(new URL('images/quality-motion.jpg', DOCS), await motionStrip(motion));
await writeFile(new URL('images/quality-occluders.jpg', DOCS), await occluderStrip(stripOf(occluders)));
await writeFile(new URL('images/quality-hands.jpg', DOCS), await occluderStrip(stripOf(hands)));
console.log(markdown.slice(markdown.indexOf('## All pairs')));

/** The sheet's pairs: the weakest identities, each hard bucket's weakest, a few small faces, and an even sample of the rest. */
function samplePairs(all: StillResult[], smallFaces: StillResult[]): { result: StillResult; why: string }[] {
  const margin = (r: StillResult) => (r.margins ? Math.min(r.margins.faceres, r.margins['faceres-deep']) : -Infinity);
  const byMargin = [...all].sort((a, b) => margin(a) - margin(b));
  const picked = new Map<StillResult, string>();
  for (const r of byMargin.slice(0, 3)) picked.set(r, 'weakest');
  for (const bucket of ['profile', 'looking down', 'occluded', 'three-quarter'] as const) {
    const weakest = byMargin.find((r) => r.target.buckets.includes(bucket) && !picked.has(r));
    if (weakest) picked.set(weakest, bucket);
  }
  for (const r of [...smallFaces].sort((a, b) => margin(a) - margin(b)).filter((_, i, list) => i === 0 || i === list.length >> 1)) picked.set(r, 'small');
  const step = Math.floor(all.length / 7);
  for (let i = step >> 1; picked.size < 16 && i < all.length; i += step) if (!picked.has(all[i]!)) picked.set(all[i]!, 'sample');
  return [...picked].map(([result, why]) => ({ result, why }));
}

/** An occluder strip's faces: the four that kept least of their occluder, then four spread over the rest. */
function stripOf<T extends OccluderResult>(all: T[]): T[] {
  const byKept = [...all].sort((a, b) => a.kept - b.kept);
  const rest = byKept.slice(4);
  return [...byKept.slice(0, 4), ...[0, 1, 2, 3].map((i) => rest[Math.round((i * (rest.length - 1)) / 3)]!)];
}
