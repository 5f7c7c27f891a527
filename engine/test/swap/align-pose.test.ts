import { describe, expect, it } from 'vitest';
import { alignInPlane, alignInPose, type MeshPoints } from '../../src/swap/align-pose';

/** Points of a rough head: an ellipsoid's front half, with a nose standing out in the middle. */
function head(): MeshPoints {
  const mesh: number[] = [];
  const depth: number[] = [];
  for (let i = 0; i < 60; i++) {
    const [u, v] = [((i % 10) / 9 - 0.5) * 2.6, (Math.floor(i / 10) / 5 - 0.5) * 2.4];
    mesh.push(60 * Math.sin(u), 80 * v);
    depth.push(-50 * Math.cos(u) * Math.cos(v / 2) - (Math.abs(u) < 0.3 && Math.abs(v) < 0.4 ? 25 : 0));
  }
  return { mesh: Float32Array.from(mesh), depth: Float32Array.from(depth) };
}

/** `points` turned by `yaw` about the vertical axis and `roll` in the image plane, scaled and moved. */
function posed(points: MeshPoints, yaw: number, roll: number, scale: number, [dx, dy, dz]: number[]): MeshPoints {
  const n = points.depth.length;
  const mesh = new Float32Array(n * 2);
  const depth = new Float32Array(n);
  for (let p = 0; p < n; p++) {
    const [x, y, z] = [points.mesh[p * 2]!, points.mesh[p * 2 + 1]!, points.depth[p]!];
    const [tx, tz] = [x * Math.cos(yaw) + z * Math.sin(yaw), -x * Math.sin(yaw) + z * Math.cos(yaw)];
    mesh[p * 2] = scale * (tx * Math.cos(roll) - y * Math.sin(roll)) + dx!;
    mesh[p * 2 + 1] = scale * (tx * Math.sin(roll) + y * Math.cos(roll)) + dy!;
    depth[p] = scale * tz + dz!;
  }
  return { mesh, depth };
}

describe('aligning a face in another face pose', () => {
  it('turns, scales and moves a face onto the same face seen in three-quarter view', () => {
    const frontal = head();
    const turned = posed(frontal, 0.9, 0.3, 1.6, [400, 250, 30]);
    const aligned = alignInPose(frontal, turned, () => true);
    for (let i = 0; i < aligned.length; i++) expect(aligned[i]).toBeCloseTo(turned.mesh[i]!, 2);
  });

  it('fits only the points asked for', () => {
    const frontal = head();
    const turned = posed(frontal, -0.7, 0, 0.8, [100, 90, 0]);
    const fitted = (p: number) => p % 7 !== 0;
    const moved = { mesh: Float32Array.from(turned.mesh, (v, i) => (Math.floor(i / 2) % 7 === 0 ? v + 300 : v)), depth: turned.depth };
    const aligned = alignInPose(frontal, moved, fitted);
    for (let i = 0; i < aligned.length; i++) expect(aligned[i]).toBeCloseTo(turned.mesh[i]!, 2);
  });

  it('squeezes the far side of a frontal face behind the nose of a profile', () => {
    const frontal = head();
    const profile = posed(frontal, 1.3, 0, 1, [0, 0, 0]);
    const xs = (mesh: Float32Array) => Array.from(mesh).filter((_, i) => i % 2 === 0);
    const width = (mesh: Float32Array) => Math.max(...xs(mesh)) - Math.min(...xs(mesh));
    const aligned = alignInPose(frontal, profile, () => true);
    expect(width(aligned)).toBeCloseTo(width(profile.mesh), 2);
    // Aligned in the image plane, it keeps more of its frontal width, out beyond the profile's nose.
    expect(width(alignInPlane(frontal.mesh, profile.mesh))).toBeGreaterThan(1.1 * width(profile.mesh));
  });
});
