import { TASK_ID_PATTERN } from '@doppel/contract';

/** Where a page of GET /swaps ends: the last item's exact creation time and its id. */
export interface SwapCursor {
  /** Microseconds since the epoch, exactly as stored (a JS Date would drop the last three digits). */
  createdAtMicros: bigint;
  id: string;
}

const MICROS_BYTES = 8;

/**
 * Opaque to callers, but still a task-id-shaped string (the contract validates cursors with
 * the task-id pattern): 8 bytes of big-endian microseconds, then the id, in base64url. A 26
 * character swap id gives a 46 character cursor.
 */
export function encodeSwapCursor(cursor: SwapCursor): string {
  const micros = Buffer.alloc(MICROS_BYTES);
  micros.writeBigInt64BE(cursor.createdAtMicros);
  return Buffer.concat([micros, Buffer.from(cursor.id, 'utf8')]).toString('base64url');
}

/** The cursor, or null when the text is not one this API produced. */
export function decodeSwapCursor(text: string): SwapCursor | null {
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.length <= MICROS_BYTES || bytes.toString('base64url') !== text) return null;
  const createdAtMicros = bytes.readBigInt64BE(0);
  const id = bytes.subarray(MICROS_BYTES).toString('utf8');
  if (createdAtMicros < 0n || !TASK_ID_PATTERN.test(id)) return null;
  return { createdAtMicros, id };
}
