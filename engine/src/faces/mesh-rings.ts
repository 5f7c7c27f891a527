/**
 * For each mesh point, how many mesh edges separate it from the face's outline (0 on the
 * outline), capped at 255. The triangulation's boundary (edges used by one triangle only) forms
 * two loops: the outline (36 points) and the mouth opening (20 points); the longer is the outline.
 */
export function meshRings(triangles: Uint16Array, points: number): Uint8Array {
  const edgeUse = new Map<number, number>();
  const neighbours: number[][] = Array.from({ length: points }, () => []);
  for (let t = 0; t < triangles.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = triangles[t + k]!, b = triangles[t + ((k + 1) % 3)]!;
      const key = Math.min(a, b) * points + Math.max(a, b);
      edgeUse.set(key, (edgeUse.get(key) ?? 0) + 1);
      neighbours[a]!.push(b);
      neighbours[b]!.push(a);
    }
  }
  const boundary: number[][] = Array.from({ length: points }, () => []);
  for (const [key, uses] of edgeUse) {
    if (uses !== 1) continue;
    const a = Math.floor(key / points), b = key % points;
    boundary[a]!.push(b);
    boundary[b]!.push(a);
  }
  const walked = new Set<number>();
  let outline: number[] = [];
  for (let i = 0; i < points; i++) {
    if (boundary[i]!.length === 0 || walked.has(i)) continue;
    const loop = walk(boundary, i);
    for (const j of loop) walked.add(j);
    if (loop.length > outline.length) outline = loop;
  }
  const rings = new Uint8Array(points).fill(255);
  for (const i of outline) rings[i] = 0;
  let frontier = outline;
  for (let ring = 1; frontier.length > 0 && ring < 255; ring++) {
    const next: number[] = [];
    for (const i of frontier) {
      for (const j of neighbours[i]!) {
        if (rings[j] !== 255) continue;
        rings[j] = ring;
        next.push(j);
      }
    }
    frontier = next;
  }
  return rings;
}

function walk(boundary: number[][], start: number): number[] {
  const seen = new Set([start]);
  const loop = [start];
  for (let at = start; ; ) {
    const next = boundary[at]!.find((j) => !seen.has(j));
    if (next === undefined) return loop;
    seen.add(next);
    loop.push(next);
    at = next;
  }
}
