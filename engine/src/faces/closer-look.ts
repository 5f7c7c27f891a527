import { copiedBytes, exportedFunctions, exportedMemory, HeapPlan, wasmKernel, type KernelInstance } from '../wasm/wasm-kernel';
import type { RgbImage } from './decode-image';
import { detectFaces, MESH_MODEL_INPUT, meshBox, meshExtent, type Face } from './detect-faces';
import { MIN_BOX_SCORE } from './human';
import { readMesh, rollOf, type FaceSquare } from './mesh-model';

interface ResampleKernel extends KernelInstance {
  resample(image: number, rowBytes: number, out: number, side: number, taps: number, columnFirst: number, columnShare: number, rowFirst: number, rowShare: number): void;
}

/**
 * About 0.6 kB. The kept instance may grow to 16 MB of memory: a 1280x720 frame's face of 260 px
 * reads a 520 px square: 1.0 MB with the crop.
 */
const resampleKernelFor = wasmKernel<ResampleKernel>('./resample-crop.wasm', 16 * 2 ** 20, (exports) => ({
  memory: exportedMemory(exports, 'resample-crop.wasm'),
  ...exportedFunctions<ResampleKernel>(exports, 'resample-crop.wasm', ['resample']),
}));

/** The crop looked at: this many times the mesh's longer side, around its middle. */
const CROP_SCALE = 2;
/** The crop's side, px: the face fills half of it. */
const CROP_SIDE = 256;
/** Mesh points at each eye's corners and between the lips. */
const RIGHT_EYE = [33, 133];
const LEFT_EYE = [263, 362];
const MOUTH = [13, 14];
/**
 * The square the mesh model reads, placed as Human's detector places its box: on the six demo
 * photos' faces (at 640 and 1920 px, each filling half of such a crop) that box's side came to
 * 3.12 times the distance from between the eyes to the mouth (2.93-3.28 for four faces in five; as a
 * share of the mesh's extent 1.24-1.44, which a hand across a face swells), and its middle a tenth
 * of that distance above the point halfway between them.
 */
const SQUARE_SIDE = 3.12;
const SQUARE_RISE = 0.108;
/**
 * Reads of the mesh model, each from the square the one before gave. From a frame's coarse mesh,
 * one read left the face on three frames of the quality report's MP4 zoom 2.5-3.6 % of the face
 * (mean point distance) from the same face looked at so on the photo the clip was cut from; the
 * second read, 0.8-1.2 %, where the detector run again on the crop came to 1.1-1.3 %. Both reads
 * with the crop take 26 ms on a 1280 px frame's face, the detector's look took 42-45.
 */
const READS = 2;

/**
 * `face` with its mesh taken again from a square crop around its first mesh, the face filling
 * half of it, as Human's own tracker does from one video frame to the next: the mesh model alone
 * reads the square the first mesh gives (`readMesh`), where the face's place is already known.
 * On a video frame the detector's box is coarse, and the mesh model, fed the crop that box gives,
 * placed the points a tenth of the face off: on the quality report's MP4 zoom the mouth's corners
 * a tenth of the face low and the chin on the neck, 10-19 % of the face (mean point distance) from
 * the mesh of the same face looked at so on the photo the clip was cut from; from the crop,
 * 0.8-1.2 %. Where the mesh model finds no face in the square, the face stays as it was.
 * `hidden`: the face was found half hidden (`DetectOptions.hidden`), and the detector is run
 * again on the crop, looking for such faces: its box keeps to the features it sees, where the
 * square from a first mesh swollen over a hand gave meshes over the hand (the report's MP4 zoom with
 * a hand: 16 % of the hand kept in front at the mesh model's usual floor, one frame left unswapped
 * at the floor a half hidden face is found at; 80 % kept and every frame swapped so).
 */
export async function lookCloser(image: RgbImage, face: Face, { hidden = false }: { hidden?: boolean } = {}): Promise<Face> {
  const { minX, maxX, minY, maxY } = meshExtent(face.mesh);
  const side = CROP_SCALE * Math.max(maxX - minX, maxY - minY);
  const scale = side / CROP_SIDE;
  const left = (minX + maxX) / 2 - side / 2;
  const top = (minY + maxY) / 2 - side / 2;
  const crop = resampled(image, left, top, scale);
  const frame = { left, top, scale };
  if (hidden) return detectedIn(crop, face, frame, image);
  // The first mesh on the crop: `CropFrame`'s mapping undone.
  let mesh: Float32Array = face.mesh.map((v, i) => (v - (i % 2 === 0 ? left : top) + 0.5) / scale - 0.5);
  let found: { mesh: Float32Array; depth: Float32Array; side: number } | null = null;
  for (let pass = 0; pass < READS; pass++) {
    const square = squareOf(mesh);
    const read = await readMesh(crop, square);
    // Human keeps a mesh its model scores above the detector's floor: so here.
    if (read.score <= MIN_BOX_SCORE) break;
    found = { ...read, side: square.side };
    mesh = read.mesh;
  }
  if (!found) return face;
  const depthScale = (found.side / MESH_MODEL_INPUT) * scale;
  return withCropMesh(face, found.mesh, found.depth.map((z) => z * depthScale), frame, image);
}

/** Where a crop lies on its image: crop pixel c samples the image at left + (c + 0.5) * scale - 0.5 (see `resampled`). */
interface CropFrame {
  left: number;
  top: number;
  scale: number;
}

/** `face` with a mesh found on the crop (and its depth, already in image pixels), moved onto the image. */
function withCropMesh(face: Face, cropMesh: Float32Array, depth: Float32Array, { left, top, scale }: CropFrame, image: RgbImage): Face {
  const mesh = cropMesh.map((v, i) => (i % 2 === 0 ? left : top) + (v + 0.5) * scale - 0.5);
  return { ...face, mesh, depth, box: meshBox(mesh, image) };
}

/** `face` with the mesh of the face the detector finds nearest the crop's middle, if any. */
async function detectedIn(crop: RgbImage, face: Face, frame: CropFrame, image: RgbImage): Promise<Face> {
  const found = await detectFaces(crop, { hidden: true });
  const middle = (CROP_SIDE - 1) / 2;
  let best: Face | null = null;
  let bestGap = CROP_SIDE / 4;
  for (const candidate of found) {
    const { minX: a, maxX: b, minY: c, maxY: d } = meshExtent(candidate.mesh);
    const gap = Math.hypot((a + b) / 2 - middle, (c + d) / 2 - middle);
    if (gap < bestGap) [best, bestGap] = [candidate, gap];
  }
  if (!best) return face;
  return withCropMesh(face, best.mesh, best.depth.map((z) => z * frame.scale), frame, image);
}

/** The square the mesh model reads for a face whose mesh (in the crop) is `mesh`. */
function squareOf(mesh: Float32Array): FaceSquare {
  const mean = (points: readonly number[]) => {
    let [x, y] = [0, 0];
    for (const p of points) [x, y] = [x + mesh[p * 2]!, y + mesh[p * 2 + 1]!];
    return [x / points.length, y / points.length] as const;
  };
  const [right, left, mouth] = [mean(RIGHT_EYE), mean(LEFT_EYE), mean(MOUTH)];
  const eyes = [(right[0] + left[0]) / 2, (right[1] + left[1]) / 2] as const;
  const reach = Math.hypot(mouth[0] - eyes[0], mouth[1] - eyes[1]);
  const [downX, downY] = [(mouth[0] - eyes[0]) / reach, (mouth[1] - eyes[1]) / reach];
  return {
    x: (eyes[0] + mouth[0]) / 2 - SQUARE_RISE * reach * downX,
    y: (eyes[1] + mouth[1]) / 2 - SQUARE_RISE * reach * downY,
    side: SQUARE_SIDE * reach,
    roll: rollOf(mesh),
  };
}

/**
 * The square of `image` from (`left`, `top`), `scale` image pixels per crop pixel, as a
 * `CROP_SIDE` px image: each crop pixel the mean of bilinear samples a pixel apart across its
 * footprint (one where it is smaller than a pixel), the image mirrored beyond its edges. Where the
 * samples fall is worked out once per column and per row (`samplePlaces`), not per sample: a 720p
 * frame's face, 3 × 3 samples a crop pixel, took 38 ms that way and 10 ms this. The samples are
 * taken in WebAssembly (resample-crop.wat), from a copy of the part of the image they reach.
 */
export function resampled(image: RgbImage, left: number, top: number, scale: number): RgbImage {
  const taps = Math.max(1, Math.ceil(scale));
  const columns = samplePlaces(left, scale, taps, image.width);
  const rows = samplePlaces(top, scale, taps, image.height);
  // The part read: from the first pixel sampled to the one after the last, across and down.
  const [x0, x1] = [least(columns.first), most(columns.first) + 2];
  const [y0, y1] = [least(rows.first), most(rows.first) + 2];
  const rowBytes = (x1 - x0) * 3;
  const plan = new HeapPlan();
  const at = {
    image: plan.take((y1 - y0) * rowBytes),
    out: plan.take(CROP_SIDE * CROP_SIDE * 3),
    columnFirst: plan.take(columns.first.length * 4),
    columnShare: plan.take(columns.share.length * 8),
    rowFirst: plan.take(rows.first.length * 4),
    rowShare: plan.take(rows.share.length * 8),
  };
  const kernel = resampleKernelFor(plan.size);
  const { buffer } = kernel.memory;
  const part = new Uint8Array(buffer, at.image, (y1 - y0) * rowBytes);
  for (let y = y0; y < y1; y++) part.set(image.rgb.subarray((y * image.width + x0) * 3, (y * image.width + x1) * 3), (y - y0) * rowBytes);
  new Int32Array(buffer, at.columnFirst, columns.first.length).set(columns.first.map((x) => x - x0));
  new Float64Array(buffer, at.columnShare, columns.share.length).set(columns.share);
  new Int32Array(buffer, at.rowFirst, rows.first.length).set(rows.first.map((y) => y - y0));
  new Float64Array(buffer, at.rowShare, rows.share.length).set(rows.share);
  kernel.resample(at.image, rowBytes, at.out, CROP_SIDE, taps, at.columnFirst, at.columnShare, at.rowFirst, at.rowShare);
  return { rgb: copiedBytes(kernel.memory, at.out, CROP_SIDE * CROP_SIDE * 3), width: CROP_SIDE, height: CROP_SIDE };
}

/**
 * Where the `taps` samples of each of a crop side's `CROP_SIDE` pixels fall on an image side of
 * `size` pixels, from `start`, `scale` image pixels per crop pixel (crop pixel c's t-th sample at
 * start + (c + (t + 0.5) / taps) * scale - 0.5, mirrored beyond the image's edges): the pixel left
 * of (above) it and its share of the next one.
 */
function samplePlaces(start: number, scale: number, taps: number, size: number): { first: Int32Array; share: Float64Array } {
  const period = 2 * (size - 1);
  const first = new Int32Array(CROP_SIDE * taps);
  const share = new Float64Array(CROP_SIDE * taps);
  for (let c = 0, n = 0; c < CROP_SIDE; c++) {
    for (let t = 0; t < taps; t++, n++) {
      const folded = (((start + (c + (t + 0.5) / taps) * scale - 0.5) % period) + period) % period;
      const at = folded < size ? folded : period - folded;
      first[n] = Math.min(size - 2, Math.floor(at));
      share[n] = at - first[n]!;
    }
  }
  return { first, share };
}

const least = (values: Int32Array) => values.reduce((a, v) => Math.min(a, v), Infinity);
const most = (values: Int32Array) => values.reduce((a, v) => Math.max(a, v), -Infinity);
