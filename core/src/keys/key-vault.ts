import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/connect';
import { settleMasterKeyFingerprint } from '../settings';

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

/**
 * Refuses a master key other than the one the database's keys were sealed with: a host started
 * without DOPPEL_MASTER_KEY next to others that have it would otherwise fail only when it tries
 * to sign a webhook. The database keeps a fingerprint, never the key.
 */
export async function checkMasterKey(db: Db, masterKey: Buffer): Promise<void> {
  const fingerprint = createHash('sha256').update('doppel-master-key').update(masterKey).digest('hex').slice(0, 32);
  if ((await settleMasterKeyFingerprint(db, fingerprint)) !== fingerprint) {
    throw new Error(
      'the master key differs from the one this database was set up with: set DOPPEL_MASTER_KEY to the key the other hosts use',
    );
  }
}
