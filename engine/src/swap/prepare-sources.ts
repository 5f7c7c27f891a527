import { loadSource } from './load-source';
import type { PreparedSource } from './prepared-source';
import { sourceKey } from './source-cache';

/**
 * Distinct sources prepared at once by one swap: one can decode (on sharp's threads) while another
 * is analysed (detection runs one at a time per thread anyway). Ten 50-megapixel sources decoded
 * side by side would hold 1.5 GB of pixels.
 */
export const SOURCE_PREPARE_CONCURRENCY = 2;

export interface SourceToPrepare {
  source: Buffer;
  /** Already prepared (from the pool's cache): neither decoded nor analysed again. */
  prepared?: PreparedSource;
}

/**
 * Each mapping's source as it will be prepared, in mapping order. Identical bytes (by SHA-256,
 * whatever buffer or URL they came from) are prepared once and share one result; distinct ones
 * at most `concurrency` at a time. `load` turns a photo into its prepared face.
 */
export function prepareSources(
  mappings: SourceToPrepare[],
  load: (bytes: Buffer) => Promise<PreparedSource> = loadSource,
  concurrency = SOURCE_PREPARE_CONCURRENCY,
): Promise<PreparedSource>[] {
  const byKey = new Map<string, Promise<PreparedSource>>();
  const waiting: (() => void)[] = [];
  let running = 0;
  const limited = async (bytes: Buffer): Promise<PreparedSource> => {
    if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await load(bytes);
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
  return mappings.map((mapping) => {
    if (mapping.prepared) return Promise.resolve(mapping.prepared);
    const key = sourceKey(mapping.source);
    let pending = byKey.get(key);
    if (!pending) {
      pending = limited(mapping.source);
      byKey.set(key, pending);
    }
    return pending;
  });
}
