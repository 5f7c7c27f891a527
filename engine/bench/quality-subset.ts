import { meshTopology } from '../src/faces/mesh-topology';
import { median, passes, worst } from './quality/report';
import { demoFaces, swapAndMeasure, type StillResult } from './quality/stills';

/**
 * A quick look at swap quality while trying a change: every Nth ordered pair of the quality
 * report's 462 (`pnpm bench:quality-subset [N]`, N 3 by default: 154 pairs, about 2 minutes), in the
 * report's order, so a figure here is comparable with the "tried and not kept" rows of
 * docs/engine.md. Prints passes and margins' sums by each recogniser, tone, seam and pose, and the
 * failing pairs; writes nothing.
 */
const every = Number(process.argv[2] ?? 3);
if (!Number.isInteger(every) || every < 1) throw new Error(`expected a whole number of pairs to step by, got ${process.argv[2]}`);

const topology = await meshTopology();
const faces = await demoFaces(topology);
const results: StillResult[] = [];
let pair = 0;
for (const target of faces) {
  for (const source of faces) {
    if (source === target || pair++ % every !== 0) continue;
    results.push(await swapAndMeasure(target, source, topology));
  }
}

const count = (which: Parameters<typeof passes>[1]) => results.filter((r) => passes(r, which)).length;
const sum = (recogniser: 'faceres' | 'faceres-deep') => results.reduce((total, r) => total + (r.margins?.[recogniser] ?? 0), 0);
const spread = (values: number[], digits: number) => `${median(values).toFixed(digits)} / ${worst(values).toFixed(digits)}`;
console.log(`one pair in ${every}: ${results.length} pairs
identity by both ${count('both')}, faceres ${count('faceres')} (margins' sum ${sum('faceres').toFixed(1)}), faceres-deep ${count('faceres-deep')} (margins' sum ${sum('faceres-deep').toFixed(1)})
face-centre tone ΔE median / worst ${spread(results.map((r) => r.tone), 2)}
seam ratio median / worst ${spread(results.map((r) => r.seam), 2)}
pose offset median ${median(results.flatMap((r) => (r.pose === null ? [] : [r.pose]))).toFixed(3)}
failing by either (target ← source): ${results.filter((r) => !passes(r, 'both')).map((r) => `${r.target.id} ← ${r.source.id}`).join(', ') || 'none'}`);
