import { MESH_POINTS } from './detect-faces';
import { loadHuman } from './human';
import { meshMirror, triangleSides } from './mesh-mirror';
import { meshRings } from './mesh-rings';
import { outlineReach } from './outline-reach';
import { belowEyeLineTriangles, browLineTriangles, browTriangles, eyePoints, featureTriangles, openingTriangles, outlineFeatureTriangles, skinTriangles } from './skin-regions';

/** What the swap needs to know about the mesh's structure; the same for every face. */
export interface MeshTopology {
  /** The 880 triangles (3 point indices each) Human publishes for its 468-point mesh. The mouth
   * opening is a hole in it, so painting the triangles leaves the mouth interior untouched. */
  triangles: Uint16Array;
  /** Per point, its distance in mesh edges from the face outline (see `meshRings`). */
  rings: Uint8Array;
  /** Per point, how far the swap reaches beyond it, 0..1 (see `outlineReach`). */
  reach: Float32Array;
  /** Per point, its mirror point across the face's centre line. */
  mirror: Uint16Array;
  /** Per triangle, the half of the face it lies in: -1, 1, or 0 on the centre line. */
  sides: Int8Array;
  /** Per triangle, 1 if it lies on plain skin (see `skinTriangles`). */
  skin: Uint8Array;
  /** Per triangle, 1 if it touches an eye, a brow, the lips or a nostril (see `featureTriangles`). */
  features: Uint8Array;
  /** Per triangle, 1 if it is a feature at the face's outline (see `outlineFeatureTriangles`). */
  outlineFeatures: Uint8Array;
  /** Per triangle, 1 if it is a feature above the eyes: a brow or the skin around it (see `browTriangles`). */
  brows: Uint8Array;
  /** Per triangle, 1 if it touches an eye's or the lips' contour (see `openingTriangles`). */
  openings: Uint8Array;
  /** Per triangle, 1 if it lies between a brow's contours, the brow itself (see `browLineTriangles`). */
  browLines: Uint8Array;
  /** Per triangle, 1 if it lies below the line through the eyes' corners (see `belowEyeLineTriangles`). */
  belowEyes: Uint8Array;
  /** Per point, 1 if it lies on an eye or its brow (see `eyePoints`). */
  eyes: Uint8Array;
}

let topology: MeshTopology | undefined;

export async function meshTopology(): Promise<MeshTopology> {
  if (!topology) {
    const human = await loadHuman();
    const triangles = Uint16Array.from(human.faceTriangulation);
    const uv = human.faceUVMap.slice(0, MESH_POINTS);
    const rings = meshRings(triangles, MESH_POINTS);
    const features = featureTriangles(triangles, uv);
    topology = {
      triangles,
      rings,
      reach: outlineReach(uv, rings),
      mirror: meshMirror(uv),
      sides: triangleSides(triangles, uv),
      skin: skinTriangles(triangles, uv, rings),
      features,
      outlineFeatures: outlineFeatureTriangles(triangles, features, rings),
      brows: browTriangles(triangles, features, uv),
      openings: openingTriangles(triangles),
      browLines: browLineTriangles(triangles),
      belowEyes: belowEyeLineTriangles(triangles, uv),
      eyes: eyePoints(uv),
    };
  }
  return topology;
}
