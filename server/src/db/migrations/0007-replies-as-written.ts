import { sql, type Kysely } from 'kysely';

/**
 * A stored create response holds the swap's `metadata`, which may contain `\u0000` or a lone
 * surrogate (spec 2.1: any JSON object). jsonb refuses both, so the create failed after all its
 * work, on every retry; json keeps the text as written, like `swaps.metadata` (0005).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table idempotency_keys alter column response_body type json using response_body::json`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table idempotency_keys alter column response_body type jsonb using response_body::jsonb`.execute(db);
}
