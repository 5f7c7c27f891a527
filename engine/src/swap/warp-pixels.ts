import type { FaceTexture } from './prepared-source';
import { copiedBytes, copiedFloats, exportedFunctions, exportedMemory, HeapPlan, wasmKernel, type KernelInstance } from '../wasm/wasm-kernel';

interface WarpKernel extends KernelInstance {
  warp(...offsetsAndSizes: number[]): number;
  stretched: WebAssembly.Global;
}

/**
 * About 1.4 kB. The kept instance may grow to 16 MB of memory: the largest face box of the demo
 * photos (262x289) needs 3.9 MB, a 720p frame's face about as much.
 */
const warpKernelFor = wasmKernel<WarpKernel>('./warp-pixels.wasm', 16 * 2 ** 20, (exports) => {
  const { stretched } = exports;
  if (!(stretched instanceof WebAssembly.Global)) throw new Error('warp-pixels.wasm exports no stretched');
  return { memory: exportedMemory(exports, 'warp-pixels.wasm'), ...exportedFunctions<WarpKernel>(exports, 'warp-pixels.wasm', ['warp']), stretched };
});

/**
 * How steeply the secondary takes over from a primary pixel that is partly not skin: fully from half
 * skin down. Taking over in proportion to what was not skin left half of a hair strand's edge,
 * drawn as thin dark lines around the patch the other view filled in (source 6-0's temples).
 */
const HAIR_TAKEOVER = 2;
/** Likeness from which a pixel of either view counts as surely skin, for matching their light. */
const SURE_SKIN = 0.9;

/** What the per-pixel loop of `warpFace` reads: the box's triangles, their sharpness, and both views of the source. */
export interface WarpPixelsInput {
  /** Per pixel of the `width` x `height` box, its triangle or -1 (`triangleMap`). */
  map: Int16Array;
  /** Per triangle, its barycentric weights in the box (`barycentricWeights`). */
  weights: Float64Array;
  triangles: Uint16Array;
  width: number;
  height: number;
  /** Per triangle, the primary view's sharpness there. */
  bySharpness: Float32Array;
  /** Per mesh point, each view's sharpness faded across the triangles (`pointSharpness`). */
  ownSharpness: Float32Array;
  otherSharpness: Float32Array;
  primary: FaceTexture;
  secondary: FaceTexture;
}

/** The loop's output: the first four are the caller's; `other` is the secondary view's share, for matching its light. */
export interface WarpedPixels {
  /** The primary view sampled, 3 floats 0..255 per pixel (the secondary not yet mixed in). */
  rgb: Float32Array;
  covered: Uint8Array;
  confidence: Float32Array;
  /** Null where every covered pixel is fully sharp. */
  sharpness: Float32Array | null;
  /** Views into the kernel's memory, valid until the thread's next `warpPixels`. */
  other: {
    /** The secondary view sampled, as `rgb`. */
    rgb: Float32Array;
    /** Per pixel, how far the secondary takes it over. */
    mixes: Float32Array;
    /** 1 where both views show sure skin. */
    both: Uint8Array;
    /** The pixels with a mix above 0, in order. */
    mixed: Int32Array;
  };
}

/**
 * Per covered pixel of the box: both views sampled bilinearly at the pixel's barycentric position
 * on its triangle, the confidence that what is drawn there is the source's own skin, and how far
 * the secondary view takes the pixel over (see `warpFace` for why). Run in WebAssembly
 * (warp-pixels.wat); the inputs are copied in, and the caller's outputs copied back out.
 */
export function warpPixels(input: WarpPixelsInput): WarpedPixels {
  const { map, weights, triangles, width, height, bySharpness, ownSharpness, otherSharpness, primary, secondary } = input;
  const pixels = width * height;
  const plan = new HeapPlan();
  const at = {
    weights: plan.take(weights.byteLength),
    map: plan.take(map.byteLength),
    triangles: plan.take(triangles.byteLength),
    bySharpness: plan.take(bySharpness.byteLength),
    ownSharpness: plan.take(ownSharpness.byteLength),
    otherSharpness: plan.take(otherSharpness.byteLength),
    ownMesh: plan.take(primary.mesh.byteLength),
    ownRgb: plan.take(primary.rgb.byteLength),
    ownLikeness: plan.take(primary.likeness.byteLength),
    otherMesh: plan.take(secondary.mesh.byteLength),
    otherRgb: plan.take(secondary.rgb.byteLength),
    otherLikeness: plan.take(secondary.likeness.byteLength),
  };
  // The outputs, zeroed together: the kernel writes only covered pixels.
  const outputs = plan.size;
  const out = {
    rgb: plan.take(pixels * 12),
    secondRgb: plan.take(pixels * 12),
    confidence: plan.take(pixels * 4),
    sharpness: plan.take(pixels * 4),
    mixes: plan.take(pixels * 4),
    mixed: plan.take(pixels * 4),
    covered: plan.take(pixels),
    both: plan.take(pixels),
  };
  const kernel = warpKernelFor(plan.size);
  const { buffer } = kernel.memory;
  new Float64Array(buffer, at.weights, weights.length).set(weights);
  new Int16Array(buffer, at.map, map.length).set(map);
  new Uint16Array(buffer, at.triangles, triangles.length).set(triangles);
  new Float32Array(buffer, at.bySharpness, bySharpness.length).set(bySharpness);
  new Float32Array(buffer, at.ownSharpness, ownSharpness.length).set(ownSharpness);
  new Float32Array(buffer, at.otherSharpness, otherSharpness.length).set(otherSharpness);
  new Float32Array(buffer, at.ownMesh, primary.mesh.length).set(primary.mesh);
  new Uint8Array(buffer, at.ownRgb, primary.rgb.length).set(primary.rgb);
  new Uint8Array(buffer, at.ownLikeness, primary.likeness.length).set(primary.likeness);
  new Float32Array(buffer, at.otherMesh, secondary.mesh.length).set(secondary.mesh);
  new Uint8Array(buffer, at.otherRgb, secondary.rgb.length).set(secondary.rgb);
  new Uint8Array(buffer, at.otherLikeness, secondary.likeness.length).set(secondary.likeness);
  new Uint8Array(buffer, outputs, plan.size - outputs).fill(0);
  const mixedCount = kernel.warp(
    at.map, at.weights, at.triangles, width, height, at.bySharpness, at.ownSharpness, at.otherSharpness,
    at.ownMesh, at.ownRgb, at.ownLikeness, primary.width, primary.height,
    at.otherMesh, at.otherRgb, at.otherLikeness, secondary.width, secondary.height,
    out.rgb, out.secondRgb, out.covered, out.confidence, out.sharpness, out.mixes, out.both, out.mixed, HAIR_TAKEOVER, SURE_SKIN,
  );
  return {
    rgb: copiedFloats(kernel.memory, out.rgb, pixels * 3),
    covered: copiedBytes(kernel.memory, out.covered, pixels),
    confidence: copiedFloats(kernel.memory, out.confidence, pixels),
    sharpness: kernel.stretched.value === 1 ? copiedFloats(kernel.memory, out.sharpness, pixels) : null,
    other: {
      rgb: new Float32Array(buffer, out.secondRgb, pixels * 3),
      mixes: new Float32Array(buffer, out.mixes, pixels),
      both: new Uint8Array(buffer, out.both, pixels),
      mixed: new Int32Array(buffer, out.mixed, mixedCount),
    },
  };
}
