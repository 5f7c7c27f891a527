import type { RgbImage } from '../../src/faces/decode-image';
import type { Box } from '../../src/faces/face-order';
import { toLab } from '../../src/swap/lab-colour';
import { cut } from './image-region';

/** A hand cut out of a photo: its pixels, and which of them are the hand. */
export interface HandCutout {
  rgb: Uint8Array;
  /** 1 where the pixel is the hand. */
  mask: Uint8Array;
  width: number;
  height: number;
}

/**
 * The fingers of photo 2's face 0's left hand (in the photo as shipped, 1920 px wide), hanging over the near-black sofa,
 * so the hand is told from what is behind it by lightness alone. Its right edge is cut straight
 * where her knee begins.
 */
const FINGERS: Box = { x: 317, y: 1105, width: 112, height: 185 };
/** Lighter than this (L\*) is the hand; the sofa behind it lies below 30. */
const HAND_LIGHTNESS = 45;

/** The fingers (`FINGERS`) cut out of demo photo 2 as shipped. */
export function handCutout(photo2: RgbImage): HandCutout {
  const { rgb, width, height } = cut(photo2, FINGERS);
  const lab = toLab(rgb);
  const mask = new Uint8Array(width * height);
  for (let p = 0; p < mask.length; p++) mask[p] = lab[p * 3]! > HAND_LIGHTNESS ? 1 : 0;
  return { rgb, mask, width, height };
}

/**
 * `hand` laid across the face in `box`, as a hand resting on a cheek: mirrored so its straight cut
 * faces out, 0.8 of the box's height tall, coming in across the box's left edge (from a tenth of
 * the box beyond it) with its fingers hanging over the cheek and the mouth's corner. Returns the
 * image with the hand and the hand's pixels inside the box (indices into the image).
 */
export function handAcross(image: RgbImage, box: Box, hand: HandCutout): { image: RgbImage; onFace: number[] } {
  const rgb = Uint8Array.from(image.rgb);
  const height = Math.round(0.8 * box.height);
  const width = Math.round((height * hand.width) / hand.height);
  const left = Math.round(box.x - 0.1 * box.width);
  const top = Math.round(box.y + 0.2 * box.height);
  const onFace: number[] = [];
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const [x, y] = [left + col, top + row];
      if (x < 0 || y < 0 || x >= image.width || y >= image.height) continue;
      const from = Math.floor((row * hand.height) / height) * hand.width + hand.width - 1 - Math.floor((col * hand.width) / width);
      if (!hand.mask[from]) continue;
      const p = y * image.width + x;
      rgb.set(hand.rgb.subarray(from * 3, from * 3 + 3), p * 3);
      if (x >= box.x && x < box.x + box.width && y >= box.y && y < box.y + box.height) onFace.push(p);
    }
  }
  return { image: { ...image, rgb }, onFace };
}

/**
 * The pixels of a frame (`width` × `height`) cut from `window` of a photo and resized, that show
 * the hand laid on the photo (`onPhoto`: 1 where a photo pixel is the hand): inside it, not at its
 * edge, where resampling mixes it with what lies beside it.
 */
export function handOnFrame(onPhoto: Uint8Array, photo: { width: number; height: number }, window: Box, width: number, height: number): number[] {
  const pixels: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [px, py] = [Math.floor(window.x + ((x + 0.5) * window.width) / width), Math.floor(window.y + ((y + 0.5) * window.height) / height)];
      let inside = px > 0 && py > 0 && px < photo.width - 1 && py < photo.height - 1;
      for (let dy = -1; dy <= 1 && inside; dy++) for (let dx = -1; dx <= 1 && inside; dx++) inside = onPhoto[(py + dy) * photo.width + px + dx] === 1;
      if (inside) pixels.push(y * width + x);
    }
  }
  return pixels;
}
