import { sql } from 'kysely';
import type { Db } from '../db/connect';
import { ownerAlive } from '../db/instance-liveness';
import { ApiError } from '../errors';
import { newId } from '../ids';
import { unfinishedSwapCount } from '../tasks/swaps';

/**
 * Takes one of the key's concurrent-create slots (spec 4.3 rule 1), before any side effect.
 * A slot is held by every create in flight and every swap not yet terminal; the check and the
 * reservation happen under one per-key lock, so N simultaneous creates can never pass a cap
 * smaller than N. A create's slot is held only while its process lives: one that crashed
 * mid-create frees it at once.
 */
export async function reserveCreateSlot(db: Db, apiKeyId: string, cap: number, ownerInstance: number): Promise<string> {
  return db.transaction().execute(async (trx) => {
    // A reservation outlives no crash of the database that matters (the create in flight fails
    // with it), so its commit need not wait for the disk.
    await sql`select set_config('synchronous_commit', 'off', true), pg_advisory_xact_lock(hashtext(${`create-slots:${apiKeyId}`}))`.execute(trx);
    const { held } = await sql<{ held: number }>`
      select
        ${unfinishedSwapCount(apiKeyId)}
        + (select count(*) from create_reservations r where api_key_id = ${apiKeyId} and ${ownerAlive(sql.ref('r.owner_instance'))})
        as held`
      .execute(trx)
      .then((r) => ({ held: Number(r.rows[0]!.held) }));
    if (held >= cap) {
      throw new ApiError(
        'rate_limited_concurrent',
        `This API key already has ${cap} swaps in flight; wait for one to finish.`,
        { headers: { 'retry-after': '5' } },
      );
    }
    const id = newId('res');
    await trx.insertInto('create_reservations').values({ id, api_key_id: apiKeyId, owner_instance: ownerInstance }).execute();
    return id;
  });
}

export async function releaseCreateSlot(db: Pick<Db, 'deleteFrom'>, reservationId: string): Promise<void> {
  await db.deleteFrom('create_reservations').where('id', '=', reservationId).execute();
}

/** Reservations whose process is gone (the count above ignores them already); run by maintenance. */
export async function deleteOrphanedReservations(db: Db): Promise<void> {
  await db
    .deleteFrom('create_reservations as r')
    .where(({ not }) => not(ownerAlive(sql.ref('r.owner_instance'))))
    .execute();
}
