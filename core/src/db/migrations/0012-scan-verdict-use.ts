import { sql, type Kysely } from 'kysely';

/**
 * When each content-scan verdict was last looked up by a create, so that maintenance can drop
 * the verdicts no create has needed for the retention period instead of keeping them for ever.
 * Verdicts already there count as used now: none is dropped before a whole period has passed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('content_scans')
    .addColumn('last_used_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('content_scans_last_used_at').on('content_scans').column('last_used_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('content_scans').dropColumn('last_used_at').execute();
}
