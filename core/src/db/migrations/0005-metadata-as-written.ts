import { sql, type Kysely } from 'kysely';

/**
 * `metadata` is echoed back unchanged (spec 2.1). jsonb reorders an object's keys and refuses
 * `\u0000` (a 500 for a body that passed validation); json keeps the text as it was written.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table swaps alter column metadata type json using metadata::json`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table swaps alter column metadata type jsonb using metadata::jsonb`.execute(db);
}
