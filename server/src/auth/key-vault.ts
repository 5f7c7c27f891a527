import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Keeps API keys encrypted at rest with AES-256-GCM. The service must be able to read a key
 * back because webhooks are signed with the key itself (spec 5.5); a hash alone would not do.
 * Stored form: iv (12 bytes) | auth tag (16 bytes) | ciphertext.
 */
export class KeyVault {
  constructor(private readonly masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('the master key must be 32 bytes');
  }

  seal(plaintext: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.masterKey, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  open(sealed: Buffer): string {
    const decipher = createDecipheriv('aes-256-gcm', this.masterKey, sealed.subarray(0, IV_BYTES));
    decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}

/**
 * The configured master key, or the one kept in the data dir (generated on first use). Several
 * hosts sharing one database must all be given the same DOPPEL_MASTER_KEY.
 */
export async function loadMasterKey(configured: Buffer | undefined, dataDir: string): Promise<Buffer> {
  if (configured) return configured;
  const file = path.join(dataDir, 'master.key');
  if (existsSync(file)) return Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
  await mkdir(dataDir, { recursive: true });
  const key = randomBytes(32);
  await writeFile(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
  return key;
}
