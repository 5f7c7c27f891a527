import type { FaceResult } from '@vladmandic/human';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../src/faces/decode-image';
import { loadHuman } from '../../src/faces/human';
import { readMesh, rollOf } from '../../src/faces/mesh-model';
import { initTf } from '../../src/tf/backend';
import { demoPhotoAs } from './fixtures';

/** Human's whole face pipeline on a 640 px copy of demo photo 5: what it finds, with and without its mesh model. */
async function humanOnPhoto() {
  const image = await decodeImage(await demoPhotoAs(5, 640, 'png'));
  const [tf, human] = await Promise.all([initTf(), loadHuman()]);
  const input = tf.tensor3d(Float32Array.from(image.rgb), [image.height, image.width, 3]);
  try {
    const withMesh = await human.detect(input, { face: { description: { enabled: false } } });
    // With the mesh model off, Human gives the detector's own box and its six keypoints.
    const boxesOnly = await human.detect(input, { face: { mesh: { enabled: false }, description: { enabled: false } } });
    return { image, withMesh: withMesh.face, boxesOnly: boxesOnly.face };
  } finally {
    // Human keeps every call's settings: the mesh model is turned back on for the tests after.
    await human.detect(input, { face: { mesh: { enabled: true } } });
    input.dispose();
  }
}

/** The angle Human turns a face's crop by, from the detector's mouth and nose keypoints (`computeRotation`). */
function detectorRoll(face: FaceResult): number {
  const [nose, mouth] = [face.mesh[2]!, face.mesh[3]!];
  const angle = Math.PI / 2 - Math.atan2(-(nose[1] - mouth[1]), nose[0] - mouth[0]);
  return angle - 2 * Math.PI * Math.floor((angle + Math.PI) / (2 * Math.PI));
}

describe('reading a face mesh without the detector', () => {
  it("gives Human's own mesh, to the pixel, for the box and turn Human's detector gives", async () => {
    const { image, withMesh, boxesOnly } = await humanOnPhoto();
    // Human rounds its box's corners, so a box can come out a pixel taller than wide: those are not squares.
    const squares = boxesOnly.filter((face) => Math.abs(face.boxRaw[2] * image.width - face.boxRaw[3] * image.height) < 1e-6);
    expect(squares.length).toBeGreaterThanOrEqual(2);
    for (const detected of squares) {
      // Human reads the crop as it is below a turn of 0.2 rad (`readMesh` always turns it).
      const roll = Math.abs(detectorRoll(detected)) > 0.2 ? detectorRoll(detected) : 0;
      const [x, y, side] = [(detected.boxRaw[0] + detected.boxRaw[2] / 2) * image.width, (detected.boxRaw[1] + detected.boxRaw[3] / 2) * image.height, detected.boxRaw[2] * image.width];
      const read = await readMesh(image, { x, y, side, roll });
      const middle = (face: FaceResult) => [face.boxRaw[0] + face.boxRaw[2] / 2, face.boxRaw[1] + face.boxRaw[3] / 2] as const;
      const gapTo = (face: FaceResult) => Math.hypot(middle(face)[0] - middle(detected)[0], middle(face)[1] - middle(detected)[1]);
      const human = withMesh.reduce((a, b) => (gapTo(b) < gapTo(a) ? b : a));
      let gap = 0;
      for (let p = 0; p < human.mesh.length; p++) {
        gap += Math.hypot(read.mesh[p * 2]! - human.mesh[p]![0], read.mesh[p * 2 + 1]! - human.mesh[p]![1]) + Math.abs(read.depth[p]! - human.mesh[p]![2]!);
      }
      expect(gap / human.mesh.length).toBe(0);
      expect(read.score).toBeCloseTo(human.faceScore, 2);
    }
  });

  it('measures a face turned clockwise on the image as a positive roll, an upright one as none', () => {
    const mesh = new Float32Array(468 * 2);
    const place = (point: number, x: number, y: number) => mesh.set([x, y], point * 2);
    place(14, 100, 150);
    place(4, 100, 100);
    expect(rollOf(mesh)).toBeCloseTo(0, 6);
    place(4, 110, 100);
    expect(rollOf(mesh)).toBeCloseTo(Math.atan2(10, 50), 6);
  });

  it('scores a square that holds no face as no face', async () => {
    const blank = { rgb: new Uint8Array(256 * 256 * 3).fill(128), width: 256, height: 256 };
    expect((await readMesh(blank, { x: 128, y: 128, side: 170, roll: 0 })).score).toBeLessThan(0.5);
  });
});
