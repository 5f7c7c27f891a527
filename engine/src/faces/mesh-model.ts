import { initTf } from '../tf/backend';
import type { RgbImage } from './decode-image';
import { MESH_MODEL_INPUT, MESH_POINTS, serialised } from './detect-faces';
import { loadHuman } from './human';

/** A square around a face: its middle, side and roll (radians, Human's sense: see `rollOf`). */
export interface FaceSquare {
  x: number;
  y: number;
  side: number;
  roll: number;
}

export interface MeshReading {
  /** 468 x, y pairs in `image` pixels, each truncated to a whole pixel as Human truncates them. */
  mesh: Float32Array;
  /** Each point's z in the model's input pixels, truncated as Human truncates it. */
  depth: Float32Array;
  /** The mesh model's confidence that the square holds a face, 0..1. */
  score: number;
}

/**
 * Human's face mesh model alone on one square of `image`, the crop cut, scaled and turned upright
 * as Human's face pipeline cuts the box its detector gives (`facemeshutil.ts`:
 * `correctFaceRotation`, `cutAndResize`, `transformRawCoords`: given that box and angle, the
 * same points to the pixel), without running the detector: for a face whose place is already
 * known, the detector (blazeface, 27 ms at its 256 px input on this machine) cost four times the
 * mesh model (7 ms). Human turns the crop upright only beyond a roll of 0.2 rad, to save the
 * turn; here always (a face's crop is small), so a face's mesh does not jump where its roll
 * crosses that line from one frame to the next.
 */
export function readMesh(image: RgbImage, square: FaceSquare): Promise<MeshReading> {
  return serialised(async () => {
    const [tf, human] = await Promise.all([initTf(), loadHuman()]);
    const model = human.models.models['facemesh'];
    if (!model) throw new Error('face models: the mesh model is not loaded');
    const outputs = tf.tidy(() => {
      const whole = tf.tensor4d(Float32Array.from(image.rgb), [1, image.height, image.width, 3]);
      const upright = tf.image.rotateWithOffset(whole, square.roll, 0, [square.x / image.width, square.y / image.height]);
      const half = square.side / 2;
      const cut = [(square.y - half) / image.height, (square.x - half) / image.width, (square.y + half) / image.height, (square.x + half) / image.width];
      const crop = tf.div(tf.image.cropAndResize(upright, [cut], [0], [MESH_MODEL_INPUT, MESH_MODEL_INPUT]), 255);
      const out = model.execute(crop);
      return Array.isArray(out) ? out : [out];
    });
    try {
      const confidence = outputs.find((t) => t.shape[t.shape.length - 1] === 1);
      const points = outputs.find((t) => t.shape[t.shape.length - 1] === MESH_POINTS * 3);
      if (!confidence || !points) throw new Error('face models: the mesh model gave no points');
      const [score] = await confidence.data();
      return { ...toImage(await points.data(), square), score: score ?? 0 };
    } finally {
      tf.dispose(outputs);
    }
  });
}

/** The model's points (x, y, z in its input's pixels) in the image's, as `transformRawCoords` places them. */
function toImage(raw: ArrayLike<number>, { x, y, side, roll }: FaceSquare): Omit<MeshReading, 'score'> {
  const [cos, sin] = [Math.cos(roll), Math.sin(roll)];
  const scale = side / MESH_MODEL_INPUT;
  const mesh = new Float32Array(MESH_POINTS * 2);
  const depth = new Float32Array(MESH_POINTS);
  for (let i = 0; i < MESH_POINTS; i++) {
    const u = scale * (raw[i * 3]! - MESH_MODEL_INPUT / 2);
    const v = scale * (raw[i * 3 + 1]! - MESH_MODEL_INPUT / 2);
    mesh[i * 2] = Math.trunc(x + cos * u - sin * v);
    mesh[i * 2 + 1] = Math.trunc(y + sin * u + cos * v);
    depth[i] = Math.trunc(raw[i * 3 + 2]!);
  }
  return { mesh, depth };
}

/**
 * The mesh points whose line gives a face's roll: the lower lip's inner middle and the nose's tip,
 * where Human's detector measures it from (its mouth and nose keypoints). Measured from the upper
 * lip to the point between the eyes (Human's line for a mesh), the turn of a face looking aside
 * came out a quarter of a radian less, and on the quality report's clips the followed faces'
 * identity fell (faceres on the GIF pan 100 % of its frames → 80 %, the MP4 zoom 30 % → 17 %).
 */
const ROLL_LINE = [14, 4] as const;

/** A mesh's roll as Human measures it along `ROLL_LINE`: 0 upright, positive turned clockwise on the image. */
export function rollOf(mesh: Float32Array): number {
  const [a, b] = ROLL_LINE;
  const angle = Math.PI / 2 - Math.atan2(-(mesh[b * 2 + 1]! - mesh[a * 2 + 1]!), mesh[b * 2]! - mesh[a * 2]!);
  return angle - 2 * Math.PI * Math.floor((angle + Math.PI) / (2 * Math.PI));
}
