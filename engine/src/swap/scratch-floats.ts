/**
 * Float buffers a step uses only while it runs, kept per thread (per module instance) by name and
 * reused: a video frame's swap runs several low-passes and measures, and allocating their buffers
 * afresh each time set off most of the garbage collections that cost a 720p video about a tenth
 * of its time. Larger ones are not kept.
 */
const kept = new Map<string, Float32Array>();
const MAX_KEPT = 2 ** 20;

/** A buffer of `size` floats for the `slot`'s use until the step using it returns; its contents are left over from its last use. */
export function scratchFloats(slot: string, size: number): Float32Array {
  if (size > MAX_KEPT) return new Float32Array(size);
  let buffer = kept.get(slot);
  if (!buffer || buffer.length < size) kept.set(slot, (buffer = new Float32Array(Math.max(size, Math.ceil((buffer?.length ?? 0) * 1.5)))));
  return buffer.subarray(0, size);
}
