import type { Face } from '../../src/faces/detect-faces';

/** Eye corners (MediaPipe's points): each eye's outer and inner corner. */
const EYE_CORNERS = [
  [33, 133],
  [263, 362],
] as const;

/**
 * A glasses frame over a face, 1.8 % of its box thick: an oval rim round each eye (1.6 times half
 * the eye's width across, 1.15 times down), a bridge between them, and arms out to a fifth of the
 * box beyond its sides (within the image). Returns the frame's pixels and those of the eyes'
 * openings (between their corners, a third of the eye's width high), as indices into the image.
 */
export function glassesOn(face: Face, image: { width: number; height: number }): { frame: number[]; eyes: number[] } {
  const { box, mesh } = face;
  const half = 0.009 * box.width;
  const frame = new Set<number>();
  const add = (pixels: Set<number>, x: number, y: number) => {
    if (x >= 0 && y >= 0 && x < image.width && y < image.height) pixels.add(y * image.width + x);
  };
  const line = (x0: number, y0: number, x1: number, y1: number) => {
    const steps = Math.ceil(Math.hypot(x1 - x0, y1 - y0) * 2);
    for (let i = 0; i <= steps; i++) {
      const [x, y] = [x0 + ((x1 - x0) * i) / steps, y0 + ((y1 - y0) * i) / steps];
      for (let dy = -half; dy <= half; dy++) for (let dx = -half; dx <= half; dx++) add(frame, Math.round(x + dx), Math.round(y + dy));
    }
  };
  const eyes = new Set<number>();
  const rims = EYE_CORNERS.map(([outer, inner]) => {
    const [ox, oy, ix, iy] = [mesh[outer * 2]!, mesh[outer * 2 + 1]!, mesh[inner * 2]!, mesh[inner * 2 + 1]!];
    const [cx, cy, r] = [(ox + ix) / 2, (oy + iy) / 2, Math.hypot(ox - ix, oy - iy) / 2];
    for (let a = 0; a < 2 * Math.PI; a += 0.05) line(cx + 1.6 * r * Math.cos(a), cy + 1.15 * r * Math.sin(a), cx + 1.6 * r * Math.cos(a + 0.05), cy + 1.15 * r * Math.sin(a + 0.05));
    for (let y = Math.round(cy - r / 3); y <= cy + r / 3; y++) for (let x = Math.round(cx - 0.7 * r); x <= cx + 0.7 * r; x++) add(eyes, x, y);
    return { cx, cy, rx: 1.6 * r };
  });
  const [left, right] = rims[0]!.cx < rims[1]!.cx ? [rims[0]!, rims[1]!] : [rims[1]!, rims[0]!];
  line(left.cx + left.rx, left.cy, right.cx - right.rx, right.cy);
  line(box.x - 0.2 * box.width, left.cy, left.cx - left.rx, left.cy);
  line(right.cx + right.rx, right.cy, box.x + 1.2 * box.width, right.cy);
  return { frame: [...frame], eyes: [...eyes] };
}
