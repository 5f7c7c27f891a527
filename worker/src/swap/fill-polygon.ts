import type { Box } from '../faces/face-order';

/**
 * Sets `mask` to `value` on the pixels of the box whose centres lie inside a closed polygon given
 * in image coordinates (x, y pairs), by even-odd scanline filling.
 */
export function fillPolygon(mask: Uint8Array, box: Box, polygon: Float32Array, value: number): void {
  const count = polygon.length / 2;
  const crossings: number[] = [];
  for (let y = 0; y < box.height; y++) {
    const scan = box.y + y;
    crossings.length = 0;
    for (let i = 0, j = count - 1; i < count; j = i++) {
      const yi = polygon[i * 2 + 1]!, yj = polygon[j * 2 + 1]!;
      if (yi > scan === yj > scan) continue;
      const xi = polygon[i * 2]!, xj = polygon[j * 2]!;
      crossings.push(xi + ((scan - yi) / (yj - yi)) * (xj - xi));
    }
    crossings.sort((a, b) => a - b);
    for (let k = 0; k + 1 < crossings.length; k += 2) {
      const from = Math.max(0, Math.ceil(crossings[k]! - box.x));
      const to = Math.min(box.width - 1, Math.floor(crossings[k + 1]! - box.x));
      if (to >= from) mask.fill(value, y * box.width + from, y * box.width + to + 1);
    }
  }
}
