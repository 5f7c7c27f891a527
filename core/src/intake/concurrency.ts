import { sql, type RawBuilder } from 'kysely';
import { PREPARED, type Db } from '../db/connect';
import { LOCK_NAMESPACE, ownerAlive } from '../db/instance-liveness';
import { newId } from '../ids';

export interface SlotRequest {
  apiKeyId: string;
  userId: string;
  /** Slots a key may hold at once (spec 4.3 rule 1). */
  cap: number;
  /** Credits the user must hold for the create to be worth starting. */
  minCredits: number;
  /** The user's storage quota: a user storing this much already has no room for any input. */
  quotaBytes: number;
  ownerInstance: number;
}

export type SlotOutcome =
  | { reservation: string }
  | { refused: 'concurrent' }
  | { refused: 'credits' }
  /** `storedBytes`: what the user's tasks keep in storage now. */
  | { refused: 'storage'; storedBytes: number };

/**
 * Takes one of the key's concurrent-create slots (spec 4.3 rule 1), before any side effect,
 * unless the key is at its cap, the user's balance is below `minCredits` or the user's stored
 * bytes are at the quota (checked in that order). A slot is held by every create in flight and
 * every swap not yet terminal; the check and the reservation happen under one per-key lock, so N
 * simultaneous creates can never pass a cap smaller than N. A create's slot is held only while
 * its process lives: one that crashed mid-create frees it at once. One round trip, prepared:
 * doppel_reserve_create (migrations 0010 and 0011).
 */
export async function reserveCreateSlot(db: Db, request: SlotRequest): Promise<SlotOutcome> {
  const id = newId('res');
  const { rows } = await sql<{ outcome: 'reserved' | 'concurrent' | 'credits' | 'storage'; stored_bytes: number | null }>`${PREPARED}
    select outcome, stored_bytes from doppel_reserve_create(${id}, ${request.apiKeyId}, ${request.userId}, ${request.cap},
      ${request.minCredits}, ${request.quotaBytes}, ${request.ownerInstance}, ${LOCK_NAMESPACE})`.execute(db);
  const { outcome, stored_bytes } = rows[0]!;
  if (outcome === 'reserved') return { reservation: id };
  return outcome === 'storage' ? { refused: outcome, storedBytes: stored_bytes ?? 0 } : { refused: outcome };
}

export async function releaseCreateSlot(db: Db, reservationId: string): Promise<void> {
  await releaseSlotStep(reservationId).execute(db);
}

/** The release as a statement of its own or a step of a larger one (the create's last write). */
export const releaseSlotStep = (reservationId: string): RawBuilder<unknown> => sql`delete from create_reservations where id = ${reservationId}`;

/** Reservations whose process is gone (the count above ignores them already); run by maintenance. */
export async function deleteOrphanedReservations(db: Db): Promise<void> {
  await db
    .deleteFrom('create_reservations as r')
    .where(({ not }) => not(ownerAlive(sql.ref('r.owner_instance'))))
    .execute();
}
