import type { RgbImage } from '../../src/faces/decode-image';
import { EngineError } from '../../src/faces/engine-error';
import { handAcross, type HandCutout } from '../../test/quality/hand';
import { demoImage } from './faces';
import { clipFrames, onFrame, personOf, swapClip, visibleShare, windowOf, type Clip } from './motion';

/** A hand pixel counts as kept when every channel is within this of the clip's own frame passed through the same decoding and encoding. */
const KEPT_WITHIN = 12;
/** Kept below this share on a frame, the hand counts as drawn over there (for counting on/off switches). */
const DRAWN_OVER = 0.5;

export interface HandMotionResult {
  clip: Clip;
  /** Per frame where at least half of the person's face is in view, the share of the hand's pixels kept. */
  kept: number[];
  /** How often the hand went from kept to drawn over, or back, between one in-view frame and the next. */
  switches: number;
  /** Why the engine refused the clip (the hand hid the face on the reference frame), if it did. */
  refused: string | null;
}

/**
 * The clip with a hand laid across its person's face (`handAcross`, on the photo before the frames
 * are cut), swapped as the engine's GIF or video swap does: how much of the hand stays in front on
 * each frame where the person is in view, and whether it flickers off and on.
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
    if (error instanceof EngineError) return { clip, kept: [], switches: 0, refused: error.message };
    throw error;
  }
  const { swapped, passed } = output;
  const isHand = new Uint8Array(image.width * image.height);
  for (const p of onFace) isHand[p] = 1;
  const kept: number[] = [];
  for (let i = 0; i < clip.frames; i++) {
    if (visibleShare(clip, onFrame(clip, i, person.box)) < 0.5) continue;
    const pixels = handOnFrame(clip, i, isHand, image);
    const same = pixels.filter((p) => [0, 1, 2].every((k) => Math.abs(swapped[i]!.rgb[p * 3 + k]! - passed[i]!.rgb[p * 3 + k]!) <= KEPT_WITHIN));
    if (pixels.length > 0) kept.push(same.length / pixels.length);
  }
  let switches = 0;
  for (let i = 1; i < kept.length; i++) if (kept[i]! < DRAWN_OVER !== kept[i - 1]! < DRAWN_OVER) switches++;
  return { clip, kept, switches, refused: null };
}

/** The pixels of frame `index` that show the hand (inside it, not at its edge). */
function handOnFrame(clip: Clip, index: number, isHand: Uint8Array, photo: RgbImage): number[] {
  const w = windowOf(clip, index);
  const pixels: number[] = [];
  for (let y = 0; y < clip.height; y++) {
    for (let x = 0; x < clip.width; x++) {
      const [px, py] = [Math.floor(w.x + ((x + 0.5) * w.width) / clip.width), Math.floor(w.y + ((y + 0.5) * w.height) / clip.height)];
      let inside = px > 0 && py > 0 && px < photo.width - 1 && py < photo.height - 1;
      for (let dy = -1; dy <= 1 && inside; dy++) for (let dx = -1; dx <= 1 && inside; dx++) inside = isHand[(py + dy) * photo.width + px + dx] === 1;
      if (inside) pixels.push(y * clip.width + x);
    }
  }
  return pixels;
}
