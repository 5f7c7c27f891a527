/**
 * The pixels of a `width`-wide map of `length` pixels reached from those `seeds` takes, over
 * 4-neighbours, through those `joins` takes; seeds included. Breadth first with one queue: this
 * runs on every video frame.
 */
export function floodFill(length: number, width: number, seeds: (p: number) => boolean, joins: (p: number) => boolean): Uint8Array {
  const reached = new Uint8Array(length);
  const queue = new Int32Array(length);
  let tail = 0;
  for (let p = 0; p < length; p++) {
    if (!seeds(p)) continue;
    reached[p] = 1;
    queue[tail++] = p;
  }
  const visit = (q: number) => {
    if (reached[q] || !joins(q)) return;
    reached[q] = 1;
    queue[tail++] = q;
  };
  for (let head = 0; head < tail; head++) {
    const p = queue[head]!;
    const x = p % width;
    if (x > 0) visit(p - 1);
    if (x < width - 1) visit(p + 1);
    if (p >= width) visit(p - width);
    if (p + width < length) visit(p + width);
  }
  return reached;
}
