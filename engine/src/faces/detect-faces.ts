import type { FaceResult } from '@vladmandic/human';
import { initTf } from '../tf/backend';
import sharp from 'sharp';
import { MAX_INPUT_PIXELS, type RgbImage } from './decode-image';
import { compareFaceBoxes, isLargeEnough, type Box } from './face-order';
import { loadHuman, MIN_BOX_SCORE, type Recogniser } from './human';

/** Points in Human's face mesh (MediaPipe's 468-point topology; iris points are off). */
export const MESH_POINTS = 468;

/** One face found in an image. */
export interface Face {
  /** Position in the documented face order (see `compareFaceBoxes`). */
  index: number;
  /** Smallest pixel rectangle holding the whole mesh, clipped to the image. */
  box: Box;
  /** The 468 mesh points as x, y pairs in image pixels (may fall outside a cut-off face). */
  mesh: Float32Array;
  /**
   * Each mesh point's depth, in image pixels as x and y are, larger further from the camera
   * (Human's z, which it leaves in the mesh model's 192 px input): with it the mesh is a 3D face,
   * which can be turned to another face's pose.
   */
  depth: Float32Array;
  /** Confidence of the mesh, 0..1. */
  score: number;
  /** faceres identity descriptor, when asked for. */
  descriptor: Float32Array | null;
  /** Found only as a face half hidden from the detector (`DetectOptions.hidden`). */
  hidden?: boolean;
}

export interface DetectOptions {
  /** Also compute each face's identity descriptor (about 100 ms per face). */
  descriptors?: boolean;
  /** Which recogniser computes the descriptors (default: faceres, the engine's own). */
  recogniser?: Recogniser;
  /**
   * Also find faces cut by the image's edge: the image is extended by this share of its short
   * side on every side, mirrored, before detection. Half a face next to its own mirror image looks
   * like a face to the detector, where next to nothing it is often missed. Boxes are still clipped
   * to the image; a face less than about a quarter inside it is dropped (so are the mirror images
   * of faces near the edge).
   */
  padding?: number;
  /**
   * Which faces near the image's edge are looked at again for a truer mesh (see `EDGE_REACH`);
   * every one when not given. Following people through a video, only theirs are.
   */
  refine?: (face: Face) => boolean;
  /**
   * Also find a large face the detector is unsure of because something hides half of it (a hand
   * across it), marked `hidden`: see `HIDDEN_BOX_SCORE`. Costs a second detection, so it is asked
   * for only where such a face is looked for (a video's or GIF's reference frame, a person
   * followed from one).
   */
  hidden?: boolean;
}

/**
 * With `hidden`, boxes from this detector score are looked at too, and kept where the mesh model
 * is near sure there is a face (`HIDDEN_MESH_SCORE`) and the face is large (`HIDDEN_MIN_SIZE` of
 * the image's short side). The quality report's hand across a face in a 640x360 zoom left it at
 * 0.22-0.46 on every frame (mesh 0.98-1.0, its mesh 118-360 px across), so she was never swapped;
 * the same scores came from the backs of heads cut by a pan's frame edge (60-73 px tall) and a
 * 38 px badge on a sleeve, which the size keeps out. The six demo photos gain no face.
 */
const HIDDEN_BOX_SCORE = 0.2;
const HIDDEN_MESH_SCORE = 0.95;
const HIDDEN_MIN_SIZE = 0.3;

/**
 * Pixels the face models are given at most (2048 x 2048). Larger images are detected on a
 * downscaled copy and the points mapped back: the models' tensors (int32 and float32, 4 bytes per
 * channel) live in the thread's WebAssembly heap, which grows to fit the largest and never
 * shrinks, so a 50-megapixel still would keep well over 1 GB per thread. At this size faces of
 * about 24 px and more in the copy are still found.
 */
export const DETECTION_MAX_PIXELS = 2048 * 2048;

/** What the face models look at: the image itself, or a copy scaled down to the pixel bound. */
async function detectionCopy(image: RgbImage): Promise<{ copy: RgbImage; scaleX: number; scaleY: number }> {
  const pixels = image.width * image.height;
  if (pixels <= DETECTION_MAX_PIXELS) return { copy: image, scaleX: 1, scaleY: 1 };
  const shrink = Math.sqrt(DETECTION_MAX_PIXELS / pixels);
  const width = Math.max(1, Math.floor(image.width * shrink));
  const height = Math.max(1, Math.floor(image.height * shrink));
  const { data } = await sharp(image.rgb, { raw: { width: image.width, height: image.height, channels: 3 }, limitInputPixels: MAX_INPUT_PIXELS })
    .resize(width, height, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const copy = { rgb: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width, height };
  return { copy, scaleX: image.width / width, scaleY: image.height / height };
}

/**
 * Frames up to 1920x1080 are given to the models through one buffer kept by the thread. The models
 * work in float32: handed bytes as int32, tfjs first copied them into a new int32 array and Human
 * then cast that to float32, two whole-frame copies per detection that the buffer saves (a
 * 1280x720 frame's int32 copy alone was an 11 MB allocation, and video detects about four frames
 * a second). Larger stills allocate their own.
 */
const KEPT_VALUES = 1920 * 1080 * 3;
let keptValues = new Float32Array(0);

/**
 * The image's bytes as float32, as the models read them; valid until the next call. The buffer
 * only grows: a video's keyframe alternates the frame with closer looks at 256 px crops, and
 * sized to each in turn it was an 11 MB allocation after every look at 1280x720.
 */
function modelValues(rgb: Uint8Array): Float32Array {
  // Converted natively (the constructor, `set`): a loop in code took 3 ms at 1280x720 once
  // optimised, 50 before.
  if (rgb.length > KEPT_VALUES) return new Float32Array(rgb);
  if (keptValues.length < rgb.length) keptValues = new Float32Array(rgb.length);
  const values = keptValues.subarray(0, rgb.length);
  values.set(rgb);
  return values;
}

let queue: Promise<unknown> = Promise.resolve();

/** Human keeps per-call state, so calls on one thread run one after another (its models' own runs too: `readMesh`). */
export function serialised<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

/**
 * Finds the faces of an upright RGB image, in face order, ignoring faces smaller than
 * `MIN_FACE_SIZE`. No face is a valid result (an empty array). Images over
 * `DETECTION_MAX_PIXELS` are analysed on a downscaled copy; boxes and points are in the image's
 * own pixels either way. A face near the image's edge takes its mesh from a second look at the
 * image extended by mirroring (see `EDGE_REACH`).
 */
export function detectFaces(image: RgbImage, options: DetectOptions = {}): Promise<Face[]> {
  return withLook(image, options.recogniser, async (look) => {
    const padding = options.padding ?? 0;
    const descriptors = options.descriptors === true;
    let faces = await look(padding, descriptors);
    const again = (face: Face) => nearEdge(face.mesh, image) && (options.refine?.(face) ?? true);
    if (padding < EDGE_PADDING && faces.some(again)) {
      const mirrored = await look(EDGE_PADDING, false);
      faces = faces.map((face) => (again(face) ? withMeshOf(face, mirrored, image) : face));
    }
    if (options.hidden) faces = [...faces, ...(await hiddenBesides(look, faces, descriptors))];
    return inFaceOrder(faces);
  });
}

/**
 * The faces `detectFaces` with `hidden` adds to `seen`, the faces a usual look found on `image`
 * (there or after a closer look), without running that look again: large faces the detector is
 * unsure of that overlap none of `seen`, marked `hidden`, in face order among themselves.
 */
export function detectHiddenFaces(image: RgbImage, seen: readonly Face[], options: Pick<DetectOptions, 'descriptors' | 'recogniser'> = {}): Promise<Face[]> {
  return withLook(image, options.recogniser, async (look) => inFaceOrder(await hiddenBesides(look, seen, options.descriptors === true)));
}

/** One detection on the image extended by `padding` mirrored, keeping boxes from `floor` up. */
type Look = (padding: number, descriptors: boolean, floor?: number) => Promise<Face[]>;

/** Runs `task` with the face models loaded and the image given to them once, however many looks it takes. */
function withLook<T>(image: RgbImage, recogniser: Recogniser | undefined, task: (look: Look) => Promise<T>): Promise<T> {
  return serialised(async () => {
    const [tf, human, { copy, scaleX, scaleY }] = await Promise.all([initTf(), loadHuman(recogniser), detectionCopy(image)]);
    const plain = tf.tensor3d(modelValues(copy.rgb), [copy.height, copy.width, 3], 'float32');
    const look: Look = async (padding, descriptors, floor = MIN_BOX_SCORE) => {
      const pad = Math.round(padding * Math.min(copy.width, copy.height));
      const input = pad > 0 ? tf.mirrorPad(plain, [[pad, pad], [pad, pad], [0, 0]], 'reflect') : plain;
      try {
        // Human merges each call's settings into its own for good: every call names its floor.
        const result = await human.detect(input, { face: { detector: { minConfidence: floor }, description: { enabled: descriptors } } });
        if (result.error) throw new Error(`face detection failed: ${result.error}`);
        const hiddenSize = HIDDEN_MIN_SIZE * Math.min(image.width, image.height);
        // Only a look under the usual floor marks faces hidden: the usual look keeps what Human gives.
        const unsure = (face: FaceResult) => floor < MIN_BOX_SCORE && face.boxScore < MIN_BOX_SCORE;
        return result.face
          .filter((face) => face.mesh.length >= MESH_POINTS && (!unsure(face) || face.faceScore >= HIDDEN_MESH_SCORE))
          .map((face) => {
            const found = toFace(face, image, { pad, scaleX, scaleY, width: copy.width + 2 * pad });
            return unsure(face) ? { ...found, hidden: true } : found;
          })
          .filter((face) => (!face.hidden || Math.min(face.box.width, face.box.height) >= hiddenSize) && isLargeEnough(face.box) && centreInside(face.mesh, image));
      } finally {
        if (input !== plain) input.dispose();
      }
    };
    try {
      return await task(look);
    } finally {
      plain.dispose();
    }
  });
}

/**
 * A look with the lower floor only adds faces: the faces it shares with `seen` can come with other
 * meshes (a lower box taken for the same face, a hand inside it). Descriptors (about 100 ms a face,
 * for every face of the look) only once a face is added.
 */
async function hiddenBesides(look: Look, seen: readonly Face[], descriptors: boolean): Promise<Face[]> {
  const added = (found: Face[]) => found.filter((face) => face.hidden && !seen.some((sure) => overlap(sure.box, face.box)));
  const unsure = added(await look(0, false, HIDDEN_BOX_SCORE));
  return unsure.length > 0 && descriptors ? added(await look(0, true, HIDDEN_BOX_SCORE)) : unsure;
}

function inFaceOrder(faces: Face[]): Face[] {
  return faces.sort((a, b) => compareFaceBoxes(a.box, b.box)).map((face, index) => ({ ...face, index }));
}

/**
 * The mesh model reads a square crop around each face (the detector's box, which holds the eyes,
 * nose and mouth, grown 1.4 times: about 1.2 times the mesh's extent), and what of it lies beyond
 * the image is black to it, which pulls the mesh off the face: on a GIF pan, a face 8 px from the
 * frame's edge got a mesh a fifth too wide, over the background beside it. A face whose mesh
 * extent, grown to this many times its longer side around its middle, reaches past the image's
 * edge takes its mesh from a second look at the image extended by `EDGE_PADDING` mirrored, where
 * the crop holds a plausible continuation instead.
 */
const EDGE_REACH = 1.2;
const EDGE_PADDING = 0.25;

/** Whether either box's middle lies inside the other. */
function overlap(a: Box, b: Box): boolean {
  const inside = (box: Box, x: number, y: number) => x >= box.x && x < box.x + box.width && y >= box.y && y < box.y + box.height;
  return inside(a, b.x + b.width / 2, b.y + b.height / 2) || inside(b, a.x + a.width / 2, a.y + a.height / 2);
}

/** The smallest rectangle holding every point of a mesh (x, y pairs), not clipped to anything. */
export function meshExtent(mesh: Float32Array): { minX: number; maxX: number; minY: number; maxY: number } {
  let [minX, maxX, minY, maxY] = [Infinity, -Infinity, Infinity, -Infinity];
  for (let i = 0; i < mesh.length; i += 2) {
    [minX, maxX] = [Math.min(minX, mesh[i]!), Math.max(maxX, mesh[i]!)];
    [minY, maxY] = [Math.min(minY, mesh[i + 1]!), Math.max(maxY, mesh[i + 1]!)];
  }
  return { minX, maxX, minY, maxY };
}

/** Whether a face (its mesh) lies near enough the image's edge to be looked at again (see `EDGE_REACH`). */
function nearEdge(mesh: Float32Array, image: RgbImage): boolean {
  const { x, y, width, height } = meshFrame(mesh);
  const half = (EDGE_REACH * Math.max(width, height)) / 2;
  return x - half < 0 || y - half < 0 || x + half > image.width || y + half > image.height;
}

/** The middle and size of a mesh's extent. */
function meshFrame(mesh: Float32Array): { x: number; y: number; width: number; height: number } {
  const { minX, maxX, minY, maxY } = meshExtent(mesh);
  return { x: (minX + maxX) / 2, y: (minY + maxY) / 2, width: maxX - minX, height: maxY - minY };
}

/**
 * `face` with the mesh (and box) of the same face found on the mirrored look: the one whose mesh's
 * middle is nearest, within half the face's size (a mesh pulled off a face cut by the edge lies
 * that far from the true one). Its own descriptor stays: descriptors are compared with ones taken
 * on plain images.
 */
function withMeshOf(face: Face, mirrored: Face[], image: RgbImage): Face {
  const own = meshFrame(face.mesh);
  let best: Face | null = null;
  let bestGap = Math.max(own.width, own.height) / 2;
  for (const other of mirrored) {
    const at = meshFrame(other.mesh);
    const gap = Math.hypot(at.x - own.x, at.y - own.y);
    if (gap < bestGap) [best, bestGap] = [other, gap];
  }
  return best ? { ...face, mesh: best.mesh, depth: best.depth, box: meshBox(best.mesh, image) } : face;
}

/** Whether the middle of the mesh's extent lies inside the image, or within a quarter of that extent of it. */
function centreInside(mesh: Float32Array, image: RgbImage): boolean {
  const { x, y, width, height } = meshFrame(mesh);
  const [mx, my] = [width / 4, height / 4];
  return x >= -mx && x < image.width + mx && y >= -my && y < image.height + my;
}

/** The side of the square crop Human's mesh model reads, px: its z values are in these units. */
export const MESH_MODEL_INPUT = 192;

/**
 * A face from Human's result on the detection copy extended by `pad` pixels on each side (`width`
 * wide in all), in the pixels of `image` (the copy is `scaleX` x `scaleY` times smaller).
 */
function toFace(result: FaceResult, image: RgbImage, copy: { pad: number; scaleX: number; scaleY: number; width: number }): Face {
  const mesh = new Float32Array(MESH_POINTS * 2);
  const depth = new Float32Array(MESH_POINTS);
  // x and y are scaled from the model's crop to pixels, z is not: the crop is the result's unclamped box.
  const depthScale = ((result.boxRaw[2] * copy.width) / MESH_MODEL_INPUT) * copy.scaleX;
  for (let i = 0; i < MESH_POINTS; i++) {
    const point = result.mesh[i]!;
    // Pixel centres line up: centre c of the copy covers (c + 0.5) * scale - 0.5 of the image.
    mesh[i * 2] = (point[0] - copy.pad) * copy.scaleX + (copy.scaleX - 1) / 2;
    mesh[i * 2 + 1] = (point[1] - copy.pad) * copy.scaleY + (copy.scaleY - 1) / 2;
    depth[i] = (point[2] ?? 0) * depthScale;
  }
  return {
    index: -1,
    box: meshBox(mesh, image),
    mesh,
    depth,
    score: result.score,
    descriptor: result.embedding?.length ? Float32Array.from(result.embedding) : null,
  };
}

/** The smallest box of whole pixels holding every point of `mesh`, clipped to the image. */
export function meshBox(mesh: Float32Array, image: { width: number; height: number }): Box {
  const { minX, maxX, minY, maxY } = meshExtent(mesh);
  const x = Math.max(0, Math.floor(minX));
  const y = Math.max(0, Math.floor(minY));
  const right = Math.min(image.width, Math.ceil(maxX) + 1);
  const bottom = Math.min(image.height, Math.ceil(maxY) + 1);
  return { x, y, width: Math.max(0, right - x), height: Math.max(0, bottom - y) };
}
