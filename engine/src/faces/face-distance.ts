/**
 * Euclidean distance between two faceres descriptors: smaller means more alike. Photos of one
 * person typically land well below photos of two different people; the engine's tests and bench
 * only compare distances, so no absolute threshold is claimed.
 */
export function faceDistance(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new Error(`descriptor lengths differ: ${a.length} and ${b.length}`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    sum += d * d;
  }
  return Math.sqrt(sum);
}
