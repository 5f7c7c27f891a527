/** A rectangle in pixels of the upright image; x, y is the top-left corner. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Faces whose box is smaller than this on its short side are ignored. */
export const MIN_FACE_SIZE = 24;

/**
 * The documented face order that `face_index` / `target_face_index` count in: left to right by
 * the box's centre x, and on equal centres top to bottom by centre y.
 */
export function compareFaceBoxes(a: Box, b: Box): number {
  const ax = 2 * a.x + a.width;
  const bx = 2 * b.x + b.width;
  if (ax !== bx) return ax - bx;
  return 2 * a.y + a.height - (2 * b.y + b.height);
}

export function isLargeEnough(box: Box): boolean {
  return Math.min(box.width, box.height) >= MIN_FACE_SIZE;
}

/** The face with the largest box area; the earliest in face order on a tie. */
export function largestIndex(boxes: readonly Box[]): number {
  let best = -1;
  let bestArea = -1;
  boxes.forEach((box, index) => {
    const area = box.width * box.height;
    if (area > bestArea) {
      best = index;
      bestArea = area;
    }
  });
  return best;
}
