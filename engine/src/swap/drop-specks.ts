/** Widest patch that counts as a speck, and the radius it is compared over, as shares of the box's short side. */
const SPECK_SIZE = 0.03;
/** A pixel belongs to a speck when its likeness is below this share of the likeness around it. */
const SPECK_CONTRAST = 0.5;

/**
 * Specks of a likeness map (`skinLikeness`), raised to the likeness around them: patches scored far
 * less skin than what surrounds them (`SPECK_CONTRAST`) and no wider than `SPECK_SIZE` of the face,
 * not touching the box's edge. A pixel clearly not skin keeps its own score so that a thin strand of
 * hair is not averaged away, but in hair the colour of the skin, scored partly skin, its darkest
 * pixels are such pixels one by one, and kept in front of the new face they showed as black specks
 * at the temple (every swap into photo 2's face 2). A strand, a glasses frame or a hand is longer than a speck.
 */
export function dropSpecks(likeness: Float32Array, width: number, height: number): void {
  const side = Math.min(width, height);
  const size = Math.max(2, SPECK_SIZE * side);
  // Only a pixel below the contrast itself can be below that share of what is around it.
  if (!hasBelow(likeness, SPECK_CONTRAST)) return;
  const around = windowMeans(likeness, width, height, Math.max(2, Math.round(size)));
  const low = new Uint8Array(width * height);
  for (let p = 0; p < low.length; p++) low[p] = likeness[p]! < SPECK_CONTRAST && likeness[p]! < SPECK_CONTRAST * around(p) ? 1 : 0;
  const seen = new Uint8Array(width * height);
  const stack: number[] = [];
  const patch: number[] = [];
  for (let start = 0; start < low.length; start++) {
    if (seen[start] || !low[start]) continue;
    seen[start] = 1;
    stack.push(start);
    patch.length = 0;
    let edge = false;
    let minX = width, maxX = 0, minY = height, maxY = 0;
    while (stack.length > 0) {
      const p = stack.pop()!;
      patch.push(p);
      const x = p % width, y = (p - x) / width;
      minX = Math.min(minX, x); maxX = Math.max(maxX, x);
      minY = Math.min(minY, y); maxY = Math.max(maxY, y);
      if (x === 0 || y === 0 || x === width - 1 || y === height - 1) {
        edge = true;
        continue;
      }
      for (const q of [p - 1, p + 1, p - width, p + width, p - width - 1, p - width + 1, p + width - 1, p + width + 1]) {
        if (seen[q] || !low[q]) continue;
        seen[q] = 1;
        stack.push(q);
      }
    }
    if (edge || Math.max(maxX - minX, maxY - minY) + 1 > size) continue;
    raiseToSurroundings(likeness, patch, low, width);
  }
}

/** Whether any value is below `bound`: a plain loop, several times faster than `every` with a closure per pixel. */
function hasBelow(values: Float32Array, bound: number): boolean {
  for (let p = 0; p < values.length; p++) if (values[p]! < bound) return true;
  return false;
}

/**
 * The mean of `values` over the square of `radius` px around a pixel, cut by the box's edge, from a
 * summed-area table, read only at the few pixels that might be specks: a blur of the whole map
 * made the step five times slower (a 250 px map: 3.3 against 0.7 ms), on every video frame.
 */
function windowMeans(values: Float32Array, width: number, height: number, radius: number): (p: number) => number {
  const stride = width + 1;
  const sums = new Float64Array(stride * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += values[y * width + x]!;
      sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1]! + row;
    }
  }
  return (p) => {
    const x = p % width, y = (p - x) / width;
    const left = Math.max(0, x - radius), right = Math.min(width, x + radius + 1);
    const top = Math.max(0, y - radius), bottom = Math.min(height, y + radius + 1);
    const sum = sums[bottom * stride + right]! - sums[top * stride + right]! - sums[bottom * stride + left]! + sums[top * stride + left]!;
    return sum / ((right - left) * (bottom - top));
  };
}

/** Sets the patch's pixels to the mean likeness of the pixels bordering it. */
function raiseToSurroundings(likeness: Float32Array, patch: number[], low: Uint8Array, width: number): void {
  let sum = 0, count = 0;
  for (const p of patch) {
    for (const q of [p - 1, p + 1, p - width, p + width]) {
      if (low[q]) continue;
      sum += likeness[q]!;
      count++;
    }
  }
  const value = count > 0 ? sum / count : 1;
  for (const p of patch) likeness[p] = value;
}
