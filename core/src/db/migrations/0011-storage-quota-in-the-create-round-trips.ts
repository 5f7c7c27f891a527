import { sql, type Kysely } from 'kysely';
import * as createInFewerRoundTrips from './0010-create-in-fewer-round-trips';

/**
 * The storage quota's two checks of a create ride on statements the create makes anyway.
 * - doppel_reserve_create (replacing 0010's) also refuses a user already at the quota, after
 *   the slot and balance checks, and returns the bytes stored with its outcome: the refusal
 *   before any media is fetched no longer costs a round trip of its own.
 * - doppel_record_stored_files counts files toward their user (the trigger of 0009 keeps the
 *   total) and returns the user's total after them, read by a statement of its own inside the
 *   function, so it sees the trigger's update. That update keeps the total's row locked until the
 *   transaction ends: a total read this way, inside the create's transaction, is exact. Two
 *   creates of one user cannot both take the last room.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop function doppel_reserve_create(text, text, text, integer, integer, integer, oid)`.execute(db);
  await sql`
    create function doppel_reserve_create(
      p_id text, p_key text, p_user text, p_cap integer, p_min_credits integer, p_quota bigint, p_instance integer, p_lock_namespace oid,
      out outcome text, out stored_bytes bigint)
    language plpgsql as $$
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
        outcome := 'concurrent';
        return;
      end if;
      select coalesce(sum(subscription + monthly + permanent), 0) into v_credits from credit_balances where user_id = p_user;
      if v_credits < p_min_credits then
        outcome := 'credits';
        return;
      end if;
      select coalesce(sum(u.bytes), 0) into stored_bytes from storage_usage u where u.user_id = p_user;
      if stored_bytes >= p_quota then
        outcome := 'storage';
        return;
      end if;
      insert into create_reservations (id, api_key_id, owner_instance) values (p_id, p_key, p_instance);
      outcome := 'reserved';
    end $$`.execute(db);
  await sql`
    create function doppel_record_stored_files(p_user text, p_keys text[], p_bytes bigint[]) returns bigint
    language plpgsql as $$
    declare
      v_total bigint;
    begin
      insert into stored_files (key, user_id, bytes)
      select f.key, p_user, f.bytes from unnest(p_keys, p_bytes) as f(key, bytes)
      on conflict (key) do update set user_id = excluded.user_id, bytes = excluded.bytes;
      select u.bytes into v_total from storage_usage u where u.user_id = p_user;
      return coalesce(v_total, 0);
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists doppel_record_stored_files(text, text[], bigint[])`.execute(db);
  await sql`drop function if exists doppel_reserve_create(text, text, text, integer, integer, bigint, integer, oid)`.execute(db);
  await createInFewerRoundTrips.up(db);
}
