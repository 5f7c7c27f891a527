import { lookCloser } from './closer-look';
import type { RgbImage } from './decode-image';
import { meshBox, type Face } from './detect-faces';
import type { MeshTopology } from './mesh-topology';

/**
 * `face` with its eyes' and brows' mesh points (and their depths) halfway between where the
 * detector's crop put them and where a closer look puts them (`lookCloser`: the mesh model alone
 * on a square placed by the eyes and mouth). On a turned face the mesh model places the far eye
 * differently from one crop to the next, and either crop alone can miss it: on photo 6's face 1
 * the detector's mesh laid her far eye's contour over her lower lid, her lashes fell in the brows'
 * zone and were taken for hair beside it, and the mirrored view's eye stood in for part of them, a
 * second eye showing through on every target (docs/engine.md, The swap). The rest of the mesh stays
 * the detector's: averaged over the whole face, the other crop moved every source's outline and
 * features, and the quality report's small targets, two clips' frames and the image swap test's
 * photo 1 ← photo 4 lost identity (Tried and not kept).
 */
export async function withTwoLooks(image: RgbImage, face: Face, topology: MeshTopology): Promise<Face> {
  const closer = await lookCloser(image, face);
  if (closer === face) return face;
  const mesh = face.mesh.map((v, i) => (topology.eyes[i >> 1] ? (v + closer.mesh[i]!) / 2 : v));
  const depth = face.depth.map((z, i) => (topology.eyes[i] ? (z + closer.depth[i]!) / 2 : z));
  return { ...face, mesh, depth, box: meshBox(mesh, image) };
}
