import { sql, type Kysely } from 'kysely';

/**
 * The request path without per-request bookkeeping that grows:
 * - Rate limits as one row per key (a ring of its last admissions plus the day's count), spent
 *   by one function call. The tables are UNLOGGED: a commit that wrote only to them waits for no
 *   WAL flush, and a crash forgets at most a minute's budget (and the day's count).
 * - Notifications when a key is revoked (or deleted) and when a setting changes, so every
 *   server process can keep keys and the API switch in memory.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop table rate_limit_hits`.execute(db);
  await sql`drop table rate_limit_days`.execute(db);
  await sql`alter table auth_failures set unlogged`.execute(db);

  // ring_size is the per-minute limit the ring was laid out for; admissions in the window sit
  // at slots tail, tail+1, ... (mod ring_size), oldest first.
  await sql`
    create unlogged table rate_limit_budgets (
      api_key_id text primary key,
      ring_size integer not null,
      tail integer not null,
      in_window integer not null,
      last_at timestamptz,
      day date,
      day_count integer not null
    )`.execute(db);
  await sql`
    create unlogged table rate_limit_admissions (
      api_key_id text not null,
      slot integer not null,
      at timestamptz not null,
      primary key (api_key_id, slot)
    )`.execute(db);

  // Admits and counts one request, or refuses it without writing anything. The row lock is
  // held for this statement only; the clock is read after it, so a request that waited is never
  // dated before the ones it waited for. Amortised O(1): each admission leaves the window once.
  await sql`
    create function doppel_spend_request(p_key text, p_per_minute integer, p_per_day integer, p_window interval)
    returns table (exceeded text, used_minute integer, used_today integer, oldest timestamptz, clock timestamptz)
    language plpgsql as $$
    declare
      b rate_limit_budgets%rowtype;
      v_now timestamptz;
      v_today date;
      v_at timestamptz;
      v_kept timestamptz[];
    begin
      select * into b from rate_limit_budgets where api_key_id = p_key for update;
      if not found then
        insert into rate_limit_budgets (api_key_id, ring_size, tail, in_window, day_count)
        values (p_key, p_per_minute, 0, 0, 0) on conflict do nothing;
        select * into b from rate_limit_budgets where api_key_id = p_key for update;
      end if;
      v_now := clock_timestamp();
      v_today := (v_now at time zone 'utc')::date;
      if b.day is distinct from v_today then
        b.day := v_today;
        b.day_count := 0;
      end if;

      if b.ring_size <> p_per_minute then
        -- The limit changed: lay the newest admissions still in the window out afresh.
        select coalesce(array_agg(k.at order by k.at), '{}') into v_kept from (
          select a.at from rate_limit_admissions a
          where a.api_key_id = p_key and (a.slot - b.tail + b.ring_size) % b.ring_size < b.in_window
            and a.at > v_now - p_window
          order by a.at desc limit p_per_minute
        ) k;
        delete from rate_limit_admissions where api_key_id = p_key;
        insert into rate_limit_admissions (api_key_id, slot, at)
        select p_key, i - 1, v_kept[i] from generate_subscripts(v_kept, 1) i;
        b.ring_size := p_per_minute;
        b.tail := 0;
        b.in_window := coalesce(array_length(v_kept, 1), 0);
        update rate_limit_budgets set ring_size = b.ring_size, tail = 0, in_window = b.in_window
        where api_key_id = p_key;
      end if;

      if b.in_window > 0 and b.last_at <= v_now - p_window then
        b.tail := (b.tail + b.in_window) % b.ring_size;
        b.in_window := 0;
      end if;
      while b.in_window > 0 loop
        select a.at into v_at from rate_limit_admissions a where a.api_key_id = p_key and a.slot = b.tail;
        exit when v_at > v_now - p_window;
        b.tail := (b.tail + 1) % b.ring_size;
        b.in_window := b.in_window - 1;
      end loop;

      exceeded := case when b.day_count >= p_per_day then 'day' when b.in_window >= p_per_minute then 'minute' end;
      used_minute := b.in_window;
      used_today := b.day_count;
      oldest := case when b.in_window > 0 then v_at end;
      clock := v_now;
      if exceeded is null then
        insert into rate_limit_admissions (api_key_id, slot, at)
        values (p_key, (b.tail + b.in_window) % b.ring_size, v_now)
        on conflict (api_key_id, slot) do update set at = excluded.at;
        update rate_limit_budgets
        set tail = b.tail, in_window = b.in_window + 1, last_at = v_now, day = b.day, day_count = b.day_count + 1
        where api_key_id = p_key;
      end if;
      return next;
    end
    $$`.execute(db);

  await sql`
    create function doppel_notify_api_key() returns trigger language plpgsql as $$
    begin
      perform pg_notify('doppel_api_key', encode(old.key_hash, 'hex'));
      return null;
    end $$`.execute(db);
  await sql`
    create trigger api_keys_notify after update of revoked_at or delete on api_keys
    for each row execute function doppel_notify_api_key()`.execute(db);
  await sql`
    create function doppel_notify_setting() returns trigger language plpgsql as $$
    begin
      perform pg_notify('doppel_setting', coalesce(new.name, old.name));
      return null;
    end $$`.execute(db);
  await sql`
    create trigger settings_notify after insert or update or delete on settings
    for each row execute function doppel_notify_setting()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists settings_notify on settings`.execute(db);
  await sql`drop function if exists doppel_notify_setting()`.execute(db);
  await sql`drop trigger if exists api_keys_notify on api_keys`.execute(db);
  await sql`drop function if exists doppel_notify_api_key()`.execute(db);
  await sql`drop function if exists doppel_spend_request(text, integer, integer, interval)`.execute(db);
  await sql`drop table if exists rate_limit_admissions`.execute(db);
  await sql`drop table if exists rate_limit_budgets`.execute(db);
  await sql`alter table auth_failures set logged`.execute(db);
  await sql`create table rate_limit_hits (api_key_id text not null, at timestamptz not null)`.execute(db);
  await sql`create index rate_limit_hits_key_at on rate_limit_hits (api_key_id, at)`.execute(db);
  await sql`
    create table rate_limit_days (
      api_key_id text not null, day date not null, count integer not null,
      constraint rate_limit_days_pk primary key (api_key_id, day)
    )`.execute(db);
}
