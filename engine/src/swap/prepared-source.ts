import type { RgbImage } from '../faces/decode-image';
import type { Face } from '../faces/detect-faces';
import type { MeshTopology } from '../faces/mesh-topology';
import { meshTurn } from '../faces/mesh-mirror';

/** A face's pixels (its box) with its mesh in the box's coordinates. */
export interface FaceTexture {
  rgb: Uint8Array;
  width: number;
  height: number;
  mesh: Float32Array;
  /** How far the face is turned (`meshTurn`), -1..1. */
  turn: number;
}

/**
 * The source face, cut out once and reusable for any number of targets or video frames, as
 * photographed and mirrored. A face turned one way has its far side squeezed or hidden; when the
 * target is turned the other way, the mirrored face shows that side properly.
 */
export interface PreparedSource {
  face: FaceTexture;
  mirrored: FaceTexture;
}

export function prepareSource(image: RgbImage, face: Face, topology: MeshTopology): PreparedSource {
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
  for (let i = 0; i < mesh.length / 2; i++) {
    mesh[i * 2] = face.mesh[i * 2]! - x;
    mesh[i * 2 + 1] = face.mesh[i * 2 + 1]! - y;
  }
  for (let i = 0; i < mesh.length / 2; i++) {
    const j = topology.mirror[i]!;
    mirroredMesh[i * 2] = width - 1 - mesh[j * 2]!;
    mirroredMesh[i * 2 + 1] = mesh[j * 2 + 1]!;
  }
  const texture = (pixels: Uint8Array, points: Float32Array): FaceTexture => ({
    rgb: pixels,
    width,
    height,
    mesh: points,
    turn: meshTurn(points, topology.triangles, topology.sides),
  });
  return { face: texture(rgb, mesh), mirrored: texture(flipped, mirroredMesh) };
}
