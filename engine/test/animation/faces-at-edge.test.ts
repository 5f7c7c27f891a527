import { beforeAll, describe, expect, it } from 'vitest';
import { followFaces } from '../../src/animation/follow-faces';
import { IdentityGallery } from '../../src/animation/identity-gallery';
import type { RgbImage } from '../../src/faces/decode-image';
import { detectFaces, type Face } from '../../src/faces/detect-faces';
import { cameraFrames } from '../faces/fixtures';

/**
 * The quality report's GIF pan: a 480x300 window moves left to right over demo photo 4 (960 px
 * wide), zooming in slightly, so the woman on the left (the largest face on the first frame)
 * slides out through the frame's left edge.
 */
const PAN = { width: 480, height: 300, frames: 8, from: { x: 40, y: 40, zoom: 1 }, to: { x: 217, y: 49, zoom: 1.14 } };

const windowOf = (index: number) => {
  const t = index / (PAN.frames - 1);
  const lerp = (a: number, b: number) => a + (b - a) * t;
  const zoom = lerp(PAN.from.zoom, PAN.to.zoom);
  return { left: Math.round(lerp(PAN.from.x, PAN.to.x)), top: Math.round(lerp(PAN.from.y, PAN.to.y)), width: Math.round(PAN.width / zoom), height: Math.round(PAN.height / zoom) };
};

const leftmost = (faces: Face[]) => faces.reduce((a, b) => (a.box.x < b.box.x ? a : b));

const frames: RgbImage[] = [];
/**
 * The woman's face as found on the first frame, where it is well inside (photo coordinates):
 * where every later frame's mesh should lie, moved and scaled with the window.
 */
let truth: { mesh: Float32Array; width: number; left: number; right: number };

beforeAll(async () => {
  frames.push(...(await cameraFrames(4, 960, Array.from({ length: PAN.frames }, (_, i) => windowOf(i)), PAN.width, PAN.height)).frames);
  const first = leftmost(await detectFaces(frames[0]!));
  const w = windowOf(0);
  const scale = w.width / PAN.width;
  const mesh = first.mesh.map((v, i) => (i % 2 === 0 ? w.left : w.top) + v * scale);
  const xs = mesh.filter((_, i) => i % 2 === 0);
  truth = { mesh, width: first.box.width * scale, left: Math.min(...xs), right: Math.max(...xs) };
});

/** The face on frame 0 in photo coordinates, as `truth` is. */
function onPhoto(face: Face): { mesh: Float32Array; width: number } {
  const w = windowOf(0);
  const scale = w.width / PAN.width;
  return { mesh: face.mesh.map((v, i) => (i % 2 === 0 ? w.left : w.top) + v * scale), width: face.box.width * scale };
}

/**
 * Mean distance of `face`'s mesh points from the first frame's (the detector's, or another `reference`
 * in photo coordinates), moved onto frame `index`, as a share of the face's width there.
 */
function meshError(face: Face, index: number, reference: { mesh: Float32Array; width: number } = truth): number {
  const w = windowOf(index);
  const scale = PAN.width / w.width;
  let sum = 0;
  for (let i = 0; i < face.mesh.length; i += 2) {
    sum += Math.hypot(face.mesh[i]! - (reference.mesh[i]! - w.left) * scale, face.mesh[i + 1]! - (reference.mesh[i + 1]! - w.top) * scale);
  }
  return sum / (face.mesh.length / 2) / (reference.width * scale);
}

/** Share of the face's width inside frame `index`. */
function inside(index: number): number {
  const w = windowOf(index);
  const scale = PAN.width / w.width;
  const [left, right] = [(truth.left - w.left) * scale, (truth.right - w.left) * scale];
  return (Math.min(PAN.width, right) - Math.max(0, left)) / (right - left);
}

describe('faces near and across the frame edge', () => {
  it('gives a face a few pixels from the edge the mesh it has in the middle of the photo', async () => {
    // Frame 3: the woman's hair touches the left edge, her face is 8 px from it.
    const face = leftmost(await detectFaces(frames[3]!));
    expect(meshError(face, 3)).toBeLessThan(0.035);
  });

  it('keeps the followed face on the person while the frame edge cuts it', async () => {
    const gallery = IdentityGallery.fromReferences([{ faces: await detectFaces(frames[0]!, { descriptors: true }), picks: [{ person: 0, pick: { frameLabel: 'frame 0' } }] }]);
    async function* all() {
      yield* frames;
    }
    const errors: number[] = [];
    let index = 0;
    for await (const frame of followFaces(all(), gallery, { keyframeInterval: 1, verifyEvery: 5 })) {
      if (inside(index) >= 0.5) {
        expect(frame.faces[0], `frame ${index}`).not.toBeNull();
        errors.push(meshError(frame.faces[0]!, index));
      }
      index++;
    }
    // Frame 3 has the face 5 px from the edge; frame 4 cuts it (70 % of it inside).
    expect(errors).toHaveLength(5);
    expect(Math.max(...errors)).toBeLessThan(0.1);
  });

  it('gives a person found again a few pixels from the edge, after a keyframe without them, the mesh they were followed with in the middle of the photo', async () => {
    const gallery = IdentityGallery.fromReferences([{ faces: await detectFaces(frames[0]!, { descriptors: true }), picks: [{ person: 0, pick: { frameLabel: 'frame 0' } }] }]);
    const blank = { ...frames[0]!, rgb: new Uint8Array(frames[0]!.rgb.length).fill(128) };
    async function* lostAndFound() {
      yield* [frames[0]!, blank, frames[3]!];
    }
    const followed: (Face | null)[] = [];
    for await (const frame of followFaces(lostAndFound(), gallery, { keyframeInterval: 1, verifyEvery: 5 })) followed.push(frame.faces[0] ?? null);

    expect(followed[1]).toBeNull();
    expect(followed[2]).not.toBeNull();
    expect(meshError(followed[2]!, 3, onPhoto(followed[0]!))).toBeLessThan(0.035);
  });

  it('keeps following it when each frame is changed in place once it is yielded, as the swap does', async () => {
    const gallery = IdentityGallery.fromReferences([{ faces: await detectFaces(frames[0]!, { descriptors: true }), picks: [{ person: 0, pick: { frameLabel: 'frame 0' } }] }]);
    async function* copies() {
      for (const frame of frames) yield { ...frame, rgb: Uint8Array.from(frame.rgb) };
    }
    const errors: number[] = [];
    let index = 0;
    for await (const frame of followFaces(copies(), gallery, { keyframeInterval: 1, verifyEvery: 5 })) {
      const face = frame.faces[0];
      if (inside(index) >= 0.5) errors.push(face ? meshError(face, index) : Infinity);
      // A swap draws another face over the person's: here, their face box painted flat grey.
      if (face) {
        const { x, y, width, height } = face.box;
        for (let row = Math.max(0, y); row < Math.min(PAN.height, y + height); row++) frame.image.rgb.fill(128, (row * PAN.width + Math.max(0, x)) * 3, (row * PAN.width + Math.min(PAN.width, x + width)) * 3);
      }
      index++;
    }
    expect(errors).toHaveLength(5);
    expect(Math.max(...errors)).toBeLessThan(0.1);
  });
});
