import { sql, type Kysely } from 'kysely';

/**
 * The create's last check inside its one statement, so that the statement needs no transaction
 * around it: given whether the charge was made and the user's stored bytes after the create's
 * files (doppel_record_stored_files), it raises when the files pass the quota (SQLSTATE DQ413,
 * the bytes in DETAIL) or the charge was not made (DQ402), in that order. The statement then
 * fails whole, and nothing it wrote (charge, swap, job, files, the slot's release) stays.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function doppel_settle_create(p_charged boolean, p_stored_bytes bigint, p_quota bigint) returns boolean
    language plpgsql as $$
    begin
      if p_stored_bytes > p_quota then
        raise exception 'the inputs pass the storage quota' using errcode = 'DQ413', detail = p_stored_bytes::text;
      end if;
      if not p_charged then
        raise exception 'the balance does not cover the swap' using errcode = 'DQ402';
      end if;
      return true;
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function doppel_settle_create(boolean, bigint, bigint)`.execute(db);
}
