import type { RgbImage } from '../faces/decode-image';
import type { Face } from '../faces/detect-faces';
import type { MeshTopology } from '../faces/mesh-topology';
import { meshTurn } from '../faces/mesh-mirror';
import { extendOutline } from './extend-outline';
import { toLab } from './lab-colour';
import { faceSkinLikeness } from './skin-likeness';

/** A face's pixels (the box of the region a swap reaches: `extendOutline`) with its mesh in the box's coordinates. */
export interface FaceTexture {
  rgb: Uint8Array;
  width: number;
  height: number;
  mesh: Float32Array;
  /** Each mesh point's depth (`Face.depth`). */
  depth: Float32Array;
  /** How far the face is turned (`meshTurn`), -1..1. */
  turn: number;
  /** Per pixel, how much it looks like the face's own skin (`skinLikeness`), 0..255. */
  likeness: Uint8Array;
}

/**
 * How far from its skin's colour a source pixel may be and still be drawn (see `skinLikeness`):
 * strict enough to leave out hair and background across the face, loose enough to keep a shadow
 * or make-up that runs to the outline.
 */
const SOURCE_TOLERANCE = 1.5;

/**
 * The source face, cut out once and reusable for any number of targets or video frames, as
 * photographed and mirrored. A face turned one way has its far side squeezed or hidden; when the
 * target is turned the other way, the mirrored face shows that side properly.
 */
export interface PreparedSource {
  face: FaceTexture;
  mirrored: FaceTexture;
}

export function prepareSource(image: RgbImage, detected: Face, topology: MeshTopology): PreparedSource {
  // The source is cut as far as a swap reaches, so the band beyond its outline maps onto the target's.
  const face = extendOutline(detected, image, topology);
  const { x, y, width, height } = face.box;
  const rgb = new Uint8Array(width * height * 3);
  const flipped = new Uint8Array(width * height * 3);
  for (let row = 0; row < height; row++) {
    const from = ((y + row) * image.width + x) * 3;
    rgb.set(image.rgb.subarray(from, from + width * 3), row * width * 3);
    for (let col = 0; col < width; col++) {
      const to = (row * width + width - 1 - col) * 3;
      flipped[to] = image.rgb[from + col * 3]!;
      flipped[to + 1] = image.rgb[from + col * 3 + 1]!;
      flipped[to + 2] = image.rgb[from + col * 3 + 2]!;
    }
  }
  const mesh = new Float32Array(face.mesh.length);
  const mirroredMesh = new Float32Array(face.mesh.length);
  const mirroredDepth = new Float32Array(face.depth.length);
  for (let i = 0; i < mesh.length / 2; i++) {
    mesh[i * 2] = face.mesh[i * 2]! - x;
    mesh[i * 2 + 1] = face.mesh[i * 2 + 1]! - y;
  }
  for (let i = 0; i < mesh.length / 2; i++) {
    const j = topology.mirror[i]!;
    mirroredMesh[i * 2] = width - 1 - mesh[j * 2]!;
    mirroredMesh[i * 2 + 1] = mesh[j * 2 + 1]!;
    mirroredDepth[i] = face.depth[j]!;
  }
  const likeness = quantise(faceSkinLikeness(toLab(rgb), mesh, topology, width, height, { tolerance: SOURCE_TOLERANCE, features: 'entered', followLight: true, hue: true }).likeness);
  const texture = (pixels: Uint8Array, points: Float32Array, depth: Float32Array, skin: Uint8Array): FaceTexture => ({
    rgb: pixels,
    width,
    height,
    mesh: points,
    depth,
    turn: meshTurn(points, topology.triangles, topology.sides),
    likeness: skin,
  });
  return {
    face: texture(rgb, mesh, face.depth, likeness),
    mirrored: texture(flipped, mirroredMesh, mirroredDepth, flipRows(likeness, width, height)),
  };
}

function quantise(map: Float32Array): Uint8Array {
  return Uint8Array.from(map, (v) => Math.round(v * 255));
}

function flipRows(map: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(map.length);
  for (let row = 0; row < height; row++) for (let col = 0; col < width; col++) out[row * width + width - 1 - col] = map[row * width + col]!;
  return out;
}
