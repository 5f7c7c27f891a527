import { EngineError } from '../../src/faces/engine-error';
import { handAcross, handOnFrame, type HandCutout } from '../../test/quality/hand';
import { keptShare } from '../../test/quality/image-region';
import { demoImage } from './faces';
import { changeInside, clipFrames, clipped, onFrame, personOf, swapClip, visibleShare, windowOf, type Clip } from './motion';

/** Kept below this share on a frame, the hand counts as drawn over there (for counting on/off switches). */
const DRAWN_OVER = 0.5;

export interface HandMotionResult {
  clip: Clip;
  /** Per frame where at least half of the person's face is in view and swapped, the share of the hand's pixels kept. */
  kept: number[];
  /** Frames where the person is in view but was left as they were (the hand can hide the face from the detector). */
  notSwapped: number;
  /** How often the hand went from kept to drawn over, or back, between one in-view frame and the next. */
  switches: number;
  /** Why the engine refused the clip (the hand hid the face on the reference frame), if it did. */
  refused: string | null;
}

/**
 * The clip with a hand laid across its person's face (`handAcross`, on the photo before the frames
 * are cut), swapped as the engine's GIF or video swap does: how much of the hand stays in front on
 * each frame where the person is in view and swapped, on how many such frames they were not
 * swapped, and whether the hand flickers off and on.
 */
export async function measureHandClip(clip: Clip, source: Buffer, hand: HandCutout): Promise<HandMotionResult> {
  const photo = await demoImage(clip.photo, clip.photoWidth);
  const person = await personOf(clip, photo, (await clipFrames({ ...clip, frames: 1 }, photo))[0]!);
  const { image, onFace } = handAcross(photo, person.box, hand);
  const frames = await clipFrames(clip, image);
  let output: Awaited<ReturnType<typeof swapClip>>;
  try {
    output = await swapClip(clip, frames, source);
  } catch (error) {
    if (error instanceof EngineError) return { clip, kept: [], notSwapped: 0, switches: 0, refused: error.message };
    throw error;
  }
  const { swapped, passed } = output;
  const isHand = new Uint8Array(image.width * image.height);
  for (const p of onFace) isHand[p] = 1;
  const kept: number[] = [];
  let notSwapped = 0;
  for (let i = 0; i < clip.frames; i++) {
    const where = onFrame(clip, i, person.box);
    if (visibleShare(clip, where) < 0.5) continue;
    // As the motion table counts a frame swapped: the face's pixels changed by more than 3 levels beyond re-encoding's change elsewhere.
    if (changeInside(frames[i]!, swapped[i]!, clipped(clip, where)) < 3) {
      notSwapped++;
      continue;
    }
    const pixels = handOnFrame(isHand, image, windowOf(clip, i), clip.width, clip.height);
    if (pixels.length > 0) kept.push(keptShare(swapped[i]!.rgb, passed[i]!.rgb, pixels));
  }
  let switches = 0;
  for (let i = 1; i < kept.length; i++) if (kept[i]! < DRAWN_OVER !== kept[i - 1]! < DRAWN_OVER) switches++;
  return { clip, kept, notSwapped, switches, refused: null };
}
