import { meshCentre } from '../../src/animation/face-motion';

/** Root mean square distance of a mesh's points from its centre: its size, however much of it a frame cuts off. */
export function meshSpread(mesh: Float32Array): number {
  const [cx, cy] = meshCentre(mesh);
  let sum = 0;
  for (let i = 0; i < mesh.length; i += 2) sum += (mesh[i]! - cx) ** 2 + (mesh[i + 1]! - cy) ** 2;
  return Math.sqrt(sum / (mesh.length / 2));
}
