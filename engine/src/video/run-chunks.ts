/**
 * Runs `work` on every chunk, in order, at most `concurrency` at once: each time one finishes the
 * next starts, so a thread that finishes early takes the next chunk, and a chunk waits in the
 * pool's queue behind other renders queued before it rather than all of a video's chunks at once.
 * On the first failure the chunks still running are aborted (through their signal) and no more
 * start; once every started chunk has settled, that failure is thrown. `signal` aborts them all.
 */
export async function runChunks<T, R>(
  chunks: readonly T[],
  concurrency: number,
  signal: AbortSignal | undefined,
  work: (chunk: T, index: number, signal: AbortSignal) => Promise<R>,
): Promise<R[]> {
  const stop = new AbortController();
  const stopped = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  const results: R[] = [];
  const failures: unknown[] = [];
  let next = 0;
  const lane = async () => {
    while (failures.length === 0 && next < chunks.length) {
      const index = next++;
      try {
        stopped.throwIfAborted();
        results[index] = await work(chunks[index]!, index, stopped);
      } catch (error) {
        failures.push(error);
        stop.abort();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, lane));
  if (failures.length > 0) throw failures[0];
  return results;
}
