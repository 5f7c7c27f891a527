import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/schema';
import type { Storage } from './storage';

/** A file kept for one of a user's tasks, and its size. */
export interface StoredFile {
  key: string;
  bytes: number;
}

/**
 * Counting files as SQL, to run as an expression of a larger statement (the create's last
 * write): doppel_record_stored_files (migration 0011) counts them toward their user's stored
 * bytes and evaluates to the user's total after them. A key written again (a thumbnail made
 * twice) counts once, at its latest size. Inside a transaction the total is exact: its row stays
 * locked until the transaction ends, so no other transaction can add to it meanwhile.
 */
export function recordStoredFilesStep(userId: string, files: StoredFile[]): RawBuilder<number> {
  return sql<number>`doppel_record_stored_files(${userId}, ${files.map((file) => file.key)}::text[], ${files.map((file) => file.bytes)}::bigint[])`;
}

/**
 * Counts files toward their user's stored bytes (`stored_files`; the trigger of migration 0009
 * keeps the user's total) and returns that total after them. Given a transaction, they count
 * exactly when its rows commit.
 */
export async function recordStoredFiles(db: Kysely<Database>, userId: string, files: StoredFile[]): Promise<number> {
  const { rows } = await sql<{ stored_bytes: number }>`select ${recordStoredFilesStep(userId, files)} as stored_bytes`.execute(db);
  return rows[0]!.stored_bytes;
}

/** Stops counting files that are gone; keys never counted (stored before 0009) are ignored. */
export async function forgetStoredFiles(db: Kysely<Database>, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.deleteFrom('stored_files').where('key', 'in', keys).execute();
}

/** The bytes the user's tasks keep in storage now: one row, whatever the number of files. */
export async function storedBytes(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db.selectFrom('storage_usage').select('bytes').where('user_id', '=', userId).executeTakeFirst();
  return row?.bytes ?? 0;
}

/** Writes a file of the user's and counts it. */
export async function putUserFile(
  db: Kysely<Database>,
  storage: Storage,
  userId: string,
  file: { key: string; body: Buffer; contentType: string },
): Promise<void> {
  await storage.put(file.key, file.body, file.contentType);
  await recordStoredFiles(db, userId, [{ key: file.key, bytes: file.body.length }]);
}

/**
 * Deletes files and stops counting them. The files go first: should the database fail between the
 * two, the count stays high (and the next run, finding the rows, deletes again) rather than a file
 * living on uncounted.
 */
export async function deleteUserFiles(db: Kysely<Database>, storage: Storage, keys: string[]): Promise<void> {
  await storage.delete(keys);
  await forgetStoredFiles(db, keys);
}
