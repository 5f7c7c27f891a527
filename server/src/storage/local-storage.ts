import { copyFile, link, mkdir, readFile, rm, writeFile, rename } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { assertStorageKey, type Storage } from './storage';

/** Files under a folder of the data dir, served by the API process at `<publicBase>/<key>`. */
export class LocalStorage implements Storage {
  constructor(
    private readonly root: string,
    private readonly publicBase: string,
  ) {}

  private pathOf(key: string): string {
    assertStorageKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, body: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Write then rename, so a reader never sees half a file.
    const temp = `${file}.${randomBytes(4).toString('hex')}.part`;
    await writeFile(temp, body);
    await rename(temp, file);
  }

  get(key: string): Promise<Buffer> {
    return readFile(this.pathOf(key));
  }

  /** A hard link: no bytes written, and deleting either name leaves the other. Files are never rewritten in place. */
  async copy(from: string, to: string): Promise<void> {
    const source = this.pathOf(from);
    const file = this.pathOf(to);
    await mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${randomBytes(4).toString('hex')}.part`;
    // A file system without hard links gets a copy.
    await link(source, temp).catch(() => copyFile(source, temp));
    await rename(temp, file);
  }

  async delete(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.pathOf(key), { force: true })));
  }

  publicUrl(key: string): string {
    assertStorageKey(key);
    return `${this.publicBase}/${key}`;
  }

  /** The file behind a public path, or null for anything that is not a valid key. */
  filePath(key: string): string | null {
    try {
      return this.pathOf(key);
    } catch {
      return null;
    }
  }
}
