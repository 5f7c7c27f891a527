import { sql, type Kysely } from 'kysely';

/**
 * Bytes stored per user, for the storage quota. `stored_files` holds one row per file a user's
 * tasks keep in storage (inputs, results, thumbnails); a trigger keeps each user's total in
 * `storage_usage` in the same transaction as the row change, so a create reads one row instead of
 * summing files, and the total cannot drift from the rows whatever path adds or deletes them.
 * Files stored before this migration have no row: they are not counted, and leave with retention.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('stored_files')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('bytes', 'bigint', (c) => c.notNull().check(sql`bytes >= 0`))
    .execute();
  await db.schema
    .createTable('storage_usage')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    create function doppel_count_stored_bytes() returns trigger language plpgsql as $$
    begin
      if tg_op in ('UPDATE', 'DELETE') then
        update storage_usage set bytes = bytes - old.bytes where user_id = old.user_id;
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        insert into storage_usage (user_id, bytes) values (new.user_id, new.bytes)
        on conflict (user_id) do update set bytes = storage_usage.bytes + excluded.bytes;
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger stored_files_count after insert or update or delete on stored_files
    for each row execute function doppel_count_stored_bytes()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists stored_files_count on stored_files`.execute(db);
  await sql`drop function if exists doppel_count_stored_bytes()`.execute(db);
  await db.schema.dropTable('storage_usage').ifExists().execute();
  await db.schema.dropTable('stored_files').ifExists().execute();
}
