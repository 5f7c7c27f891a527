import { copyFile, link, mkdir, readFile, rm, rmdir, writeFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { randomToken } from '../random-token';
import { assertStorageKey, type Storage } from './storage';

/** Files under a folder of the data dir, served by the API process at `<publicBase>/<key>`. */
export class LocalStorage implements Storage {
  /** Folders being made now: writes into one folder side by side (a create's inputs) make it once. */
  private readonly making = new Map<string, Promise<unknown>>();

  constructor(
    private readonly root: string,
    private readonly publicBase: string,
  ) {}

  private pathOf(key: string): string {
    assertStorageKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  private async makeFolderOf(file: string): Promise<void> {
    const folder = path.dirname(file);
    let made = this.making.get(folder);
    if (!made) {
      made = mkdir(folder, { recursive: true }).finally(() => this.making.delete(folder));
      this.making.set(folder, made);
    }
    await made;
  }

  async put(key: string, body: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await this.makeFolderOf(file);
    // Write then rename, so a reader never sees half a file.
    const temp = `${file}.${randomToken(6)}.part`;
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
    await this.makeFolderOf(file);
    const temp = `${file}.${randomToken(6)}.part`;
    // A file system without hard links gets a copy.
    await link(source, temp).catch(() => copyFile(source, temp));
    await rename(temp, file);
  }

  /** Deletes the files, then their folders where that left them empty (a task's own folder). */
  async delete(keys: string[]): Promise<void> {
    const files = keys.map((key) => this.pathOf(key));
    await Promise.all(files.map((file) => rm(file, { force: true })));
    const folders = new Set(files.map((file) => path.dirname(file)).filter((folder) => folder !== this.root));
    // rmdir refuses a folder that still holds something: exactly the ones to keep.
    await Promise.all([...folders].map((folder) => rmdir(folder).catch(() => undefined)));
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
