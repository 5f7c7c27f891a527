import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import type { RgbImage } from '../../src/faces/decode-image';
import { detectFaces, type Face } from '../../src/faces/detect-faces';
import type { Box } from '../../src/faces/face-order';
import type { Recogniser } from '../../src/faces/human';
import { meshTurn } from '../../src/faces/mesh-mirror';
import type { MeshTopology } from '../../src/faces/mesh-topology';
import { nearestFace } from '../../src/animation/face-motion';
import { cut } from '../../test/quality/image-region';

const require = createRequire(import.meta.url);
const DEMO_DIR = path.join(path.dirname(require.resolve('@vladmandic/face-api')), '..', 'demo');

export const RECOGNISERS: Recogniser[] = ['faceres', 'faceres-deep'];

/** A face as the report sees it: where it is, who it is by each recogniser, how it is turned. */
export interface SeenFace {
  face: Face;
  descriptors: Record<Recogniser, Float32Array>;
}

/** A demo photo (1-6) decoded to RGB, optionally resized to `width`. */
export async function demoImage(n: number, width?: number): Promise<RgbImage> {
  let pipeline = sharp(await readFile(path.join(DEMO_DIR, `sample${n}.jpg`))).removeAlpha();
  if (width) pipeline = pipeline.resize({ width });
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return { rgb: data, width: info.width, height: info.height };
}

/** A region around a box, grown by half its size on each side and clipped to the image. */
function around(image: { width: number; height: number }, box: Box): Box {
  const grow = 0.5 * Math.max(box.width, box.height);
  const x = Math.max(0, Math.floor(box.x - grow));
  const y = Math.max(0, Math.floor(box.y - grow));
  return { x, y, width: Math.min(image.width, Math.ceil(box.x + box.width + grow)) - x, height: Math.min(image.height, Math.ceil(box.y + box.height + grow)) - y };
}

/** Recognisers see faces at about their input size (faceres: 224 px); larger crops only cost detection time. */
const MAX_CROP = 480;

async function shrunk(crop: RgbImage): Promise<{ crop: RgbImage; scale: number }> {
  const scale = Math.max(crop.width, crop.height) / MAX_CROP;
  if (scale <= 1) return { crop, scale: 1 };
  const [width, height] = [Math.round(crop.width / scale), Math.round(crop.height / scale)];
  const rgb = await sharp(crop.rgb, { raw: { width: crop.width, height: crop.height, channels: 3 } }).resize(width, height).raw().toBuffer();
  return { crop: { rgb, width, height }, scale: crop.width / width };
}

/** A face found on a (scaled) crop, in the coordinates of the image the crop was cut at (dx, dy) from. */
function moved(face: Face, scale: number, dx: number, dy: number): Face {
  const mesh = Float32Array.from(face.mesh, (v, i) => v * scale + (i % 2 === 0 ? dx : dy));
  const { box } = face;
  return { ...face, box: { x: box.x * scale + dx, y: box.y * scale + dy, width: box.width * scale, height: box.height * scale }, mesh };
}

/**
 * The face at `where` in `image`, seen by both recognisers: both run on the same crop around it
 * (so every face, before and after a swap, is described from the same surroundings), and the face
 * nearest `where` is taken. Null when no face is found there.
 */
export async function seeFaceAt(image: RgbImage, where: Face): Promise<SeenFace | null> {
  const region = around(image, where.box);
  const { crop, scale } = await shrunk(cut(image, region));
  const descriptors = {} as Record<Recogniser, Float32Array>;
  let found: Face | null = null;
  for (const recogniser of RECOGNISERS) {
    const faces = (await detectFaces(crop, { descriptors: true, recogniser })).map((face) => moved(face, scale, region.x, region.y));
    const face = nearestFace(where, faces);
    if (!face?.descriptor) return null;
    descriptors[recogniser] = face.descriptor;
    found ??= face;
  }
  return { face: found!, descriptors };
}

/** How the face is posed and framed, for the report's buckets. */
export interface FaceTraits {
  /** Mesh turn, -1..1 (`meshTurn`): 0 frontal, towards ±1 profile. */
  turn: number;
  /** Nose tip's height between the eyes and the chin, 0..1; lower when the face looks down. */
  noseHeight: number;
  size: number;
}

// MediaPipe mesh points: eye corners, nose tip, chin.
const [RIGHT_EYE, LEFT_EYE, NOSE_TIP, CHIN] = [33, 263, 1, 152];

export function traitsOf(face: Face, topology: MeshTopology): FaceTraits {
  const y = (i: number) => face.mesh[i * 2 + 1]!;
  const eyes = (y(RIGHT_EYE) + y(LEFT_EYE)) / 2;
  return {
    turn: meshTurn(face.mesh, topology.triangles, topology.sides),
    noseHeight: (y(NOSE_TIP) - eyes) / Math.max(1, y(CHIN) - eyes),
    size: Math.min(face.box.width, face.box.height),
  };
}
