import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('content_scans')
    .addColumn('sha256', 'text', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('media_kind', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('scores', 'jsonb')
    .addColumn('reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('completed_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('create_reservations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('create_reservations_key').on('create_reservations').column('api_key_id').execute();

  // Waiters (wait=true, the create's scan gate) sleep on these channels instead of polling.
  await sql`
    create function doppel_notify_swap() returns trigger language plpgsql as $$
    begin
      perform pg_notify('doppel_swap', new.id);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger swaps_notify after update of status, progress on swaps
    for each row when (old.status is distinct from new.status or old.progress is distinct from new.progress)
    execute function doppel_notify_swap()`.execute(db);
  await sql`
    create function doppel_notify_scan() returns trigger language plpgsql as $$
    begin
      perform pg_notify('doppel_scan', new.sha256);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger content_scans_notify after update of status on content_scans
    for each row when (old.status is distinct from new.status)
    execute function doppel_notify_scan()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists content_scans_notify on content_scans`.execute(db);
  await sql`drop trigger if exists swaps_notify on swaps`.execute(db);
  await sql`drop function if exists doppel_notify_scan()`.execute(db);
  await sql`drop function if exists doppel_notify_swap()`.execute(db);
  await db.schema.dropTable('create_reservations').ifExists().execute();
  await db.schema.dropTable('content_scans').ifExists().execute();
}
