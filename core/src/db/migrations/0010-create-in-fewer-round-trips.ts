import { sql, type Kysely } from 'kysely';

/**
 * A create's slot in one round trip instead of five (intake/concurrency.ts).
 * - doppel_reserve_create: the per-key lock, the count of slots held, the balance check and the
 *   reservation, in one function call. Each statement of a plpgsql function reads a fresh
 *   snapshot, so the count taken under the lock sees every reservation committed before it;
 *   one statement outside a function could not (its snapshot predates the lock).
 *   Reservations of the calling process are alive by definition; only those of other processes
 *   are looked up in pg_locks (instance-liveness.ts), once per call.
 * - create_reservations is UNLOGGED: a reservation lives no longer than the request that holds
 *   it, and a database crash ends those requests (and every owner's liveness lock) anyway.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table create_reservations set unlogged`.execute(db);
  await sql`
    create function doppel_reserve_create(
      p_id text, p_key text, p_user text, p_cap integer, p_min_credits integer, p_instance integer, p_lock_namespace oid)
    returns text language plpgsql as $$
    declare
      v_held bigint;
      v_credits bigint;
    begin
      perform set_config('synchronous_commit', 'off', true);
      perform pg_advisory_xact_lock(hashtext('create-slots:' || p_key));
      select count(*) into v_held from swaps
      where api_key_id = p_key and status in ('queued', 'preparing', 'processing');
      select v_held + count(*) into v_held from create_reservations r
      where r.api_key_id = p_key
        and (r.owner_instance = p_instance or r.owner_instance::oid in (
          select l.objid from pg_locks l
          where l.locktype = 'advisory' and l.granted and l.objsubid = 2 and l.classid = p_lock_namespace
            and l.database = (select oid from pg_database where datname = current_database())));
      if v_held >= p_cap then
        return 'concurrent';
      end if;
      select coalesce(sum(subscription + monthly + permanent), 0) into v_credits from credit_balances where user_id = p_user;
      if v_credits < p_min_credits then
        return 'credits';
      end if;
      insert into create_reservations (id, api_key_id, owner_instance) values (p_id, p_key, p_instance);
      return 'reserved';
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists doppel_reserve_create(text, text, text, integer, integer, integer, oid)`.execute(db);
  await sql`alter table create_reservations set logged`.execute(db);
}
