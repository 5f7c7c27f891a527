import { createHash } from 'node:crypto';
import type { FaceTexture, PreparedSource } from './prepared-source';

/** Memory the cache may hold by default: about 60 faces prepared from 1920 px photos. */
export const DEFAULT_SOURCE_CACHE_BYTES = 64 * 1024 * 1024;

/** The cache key of a source photo: the SHA-256 of its bytes, so equal bytes hit whoever sent them. */
export function sourceKey(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Bytes a prepared source holds (its two textures, meshes and skin maps). */
export function preparedBytes(prepared: PreparedSource): number {
  return [prepared.face, prepared.mirrored].reduce((sum, t) => sum + t.rgb.byteLength + t.mesh.byteLength + t.depth.byteLength + t.likeness.byteLength, 0);
}

/**
 * Prepared sources (decoded, detected, cut out and mirrored) by the SHA-256 of the photo's bytes,
 * least recently used first out, bounded by the memory they hold. Integrators typically swap one
 * user's face into many targets: with the source found here, a swap skips decoding the source and
 * running the face models on it (about half of a 1024 px image swap).
 */
export class PreparedSourceCache {
  private readonly entries = new Map<string, PreparedSource>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes = DEFAULT_SOURCE_CACHE_BYTES) {}

  get(key: string): PreparedSource | undefined {
    const found = this.entries.get(key);
    if (!found) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Map keeps insertion order: re-inserting makes this the most recently used.
    this.entries.delete(key);
    this.entries.set(key, found);
    return found;
  }

  set(key: string, prepared: PreparedSource): void {
    const size = preparedBytes(prepared);
    if (size > this.maxBytes) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= preparedBytes(previous);
    }
    this.entries.set(key, prepared);
    this.bytes += size;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= preparedBytes(entry);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get heldBytes(): number {
    return this.bytes;
  }
}

/**
 * The prepared source with its pixels and meshes moved into SharedArrayBuffers. Posting it to or
 * from a worker thread then shares the memory instead of copying it, so one copy in the pool's
 * cache serves every thread.
 */
export function toShared(prepared: PreparedSource): PreparedSource {
  const share = (texture: FaceTexture): FaceTexture => {
    const rgb = new Uint8Array(new SharedArrayBuffer(texture.rgb.byteLength));
    rgb.set(texture.rgb);
    const mesh = new Float32Array(new SharedArrayBuffer(texture.mesh.byteLength));
    mesh.set(texture.mesh);
    const depth = new Float32Array(new SharedArrayBuffer(texture.depth.byteLength));
    depth.set(texture.depth);
    const likeness = new Uint8Array(new SharedArrayBuffer(texture.likeness.byteLength));
    likeness.set(texture.likeness);
    return { ...texture, rgb, mesh, depth, likeness };
  };
  return { face: share(prepared.face), mirrored: share(prepared.mirrored) };
}
