/**
 * Where inputs and results live. Keys are relative paths made of safe characters; every key
 * carries random parts, so a public URL cannot be guessed from another one.
 */
export interface Storage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  /** A second key for stored bytes, made without sending them again; the two live independently. */
  copy(from: string, to: string): Promise<void>;
  delete(keys: string[]): Promise<void>;
  /** The public, unsigned URL of a stored object (spec 1: no signed URLs in v1). */
  publicUrl(key: string): string;
}

const KEY_PATTERN = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

export function assertStorageKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`invalid storage key: ${key}`);
  }
}
