import { meshCentre } from '../../src/animation/face-motion';
import { followFaces } from '../../src/animation/follow-faces';
import { IdentityGallery } from '../../src/animation/identity-gallery';
import { GIF_FOLLOW } from '../../src/animation/swap-gif';
import type { RgbImage } from '../../src/faces/decode-image';
import { detectFaces, type Face } from '../../src/faces/detect-faces';
import { videoFollowOptions } from '../../src/video/swap-chunk';
import { meshSpread } from '../../test/quality/mesh-spread';

/** The clips' MP4s run at this rate (`swapClip`). */
const CLIP_FPS = 25;

/**
 * How steadily a person is followed: the mean frame-to-frame change of the face's offset from where
 * the camera puts it, and of its size against the size there, as shares of the face.
 */
export interface Steadiness {
  place: number;
  size: number;
}

/** How steadily a clip's person is followed: by the engine's follow, and by the detector frame by frame. */
export interface Wobble {
  followed: Steadiness;
  detected: Steadiness;
}

/**
 * Where the camera's move puts the centre of the person's mesh on a frame, the face's size there,
 * and the mesh's spread there (`meshSpread` of the person's mesh on the photo, grown with the
 * camera's zoom); null where the person is not in view.
 */
export type ExpectedFace = { x: number; y: number; size: number; spread: number } | null;

/**
 * The wobble of the person's face over a clip's in-view frames: the mean change, from one frame to
 * the next, of its mesh centre's offset from where the camera's move puts the person (`expected`),
 * as a share of the face's size there, and of its mesh's spread against the spread expected there
 * (the change of their ratio's logarithm: a face that swells by 2 % and shrinks back counts 2 %
 * twice). Measured on the engine's follow (`followFaces` with the GIF or video swap's options, the
 * person picked as the swap picks by default) over the clip's frames as generated (the swaps see
 * them after one encoding), and, as the baseline, on the detector's own face nearest the person on
 * each frame.
 */
export async function wobbleOf(kind: 'gif' | 'mp4', frames: RgbImage[], expected: ExpectedFace[]): Promise<Wobble> {
  const gallery = IdentityGallery.fromReferences([{ faces: await detectFaces(frames[0]!, { descriptors: true }), picks: [{ person: 0, pick: { frameLabel: 'frame 0' } }] }]);
  async function* all() {
    yield* frames;
  }
  const followed: (Face | null)[] = [];
  for await (const frame of followFaces(all(), gallery, kind === 'gif' ? GIF_FOLLOW : videoFollowOptions(CLIP_FPS))) followed.push(frame.faces[0] ?? null);
  const detected: (Face | null)[] = [];
  for (const [i, frame] of frames.entries()) detected.push(nearest(await detectFaces(frame), expected[i] ?? null));
  return { followed: wobble(followed, expected), detected: wobble(detected, expected) };
}

/** Of `faces`, the one whose mesh centre is nearest the expected one, within half the face's size. */
function nearest(faces: Face[], to: ExpectedFace): Face | null {
  if (!to) return null;
  const gap = (face: Face) => {
    const [x, y] = meshCentre(face.mesh);
    return Math.hypot(x - to.x, y - to.y);
  };
  const best = faces.reduce<Face | null>((a, b) => (!a || gap(b) < gap(a) ? b : a), null);
  return best && gap(best) < to.size / 2 ? best : null;
}

function wobble(faces: (Face | null)[], expected: ExpectedFace[]): Steadiness {
  const sum = { place: 0, size: 0 };
  let steps = 0;
  let previous: { offset: [number, number]; size: number } | null = null;
  for (const [i, face] of faces.entries()) {
    const at = expected[i];
    if (!face || !at) {
      previous = null;
      continue;
    }
    const [x, y] = meshCentre(face.mesh);
    const now = { offset: [(x - at.x) / at.size, (y - at.y) / at.size] as [number, number], size: Math.log(meshSpread(face.mesh) / at.spread) };
    if (previous) {
      sum.place += Math.hypot(now.offset[0] - previous.offset[0], now.offset[1] - previous.offset[1]);
      sum.size += Math.abs(now.size - previous.size);
      steps++;
    }
    previous = now;
  }
  return { place: sum.place / Math.max(1, steps), size: sum.size / Math.max(1, steps) };
}
