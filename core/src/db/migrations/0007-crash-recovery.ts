import { sql, type Kysely } from 'kysely';

/**
 * What a restart or a crash must not break.
 *
 * - A stored create response holds the swap's `metadata`, which may contain `\u0000` or a lone
 *   surrogate (spec 2.1: any JSON object). jsonb refuses both, so such a create failed after all
 *   its work, on every retry; json keeps the text as written, like `swaps.metadata` (0005).
 * - Idempotency claims and create reservations name the process that holds them
 *   (`owner_instance`, see db/instance-liveness.ts), so they are free the moment it dies. A
 *   claim also carries a fencing token, changed when a retry takes it over: the first owner's
 *   late finish then matches nothing and rolls back.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table idempotency_keys alter column response_body type json using response_body::json`.execute(db);
  await sql`alter table idempotency_keys add column owner_instance integer, add column owner_token text`.execute(db);
  await sql`alter table create_reservations add column owner_instance integer`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table create_reservations drop column owner_instance`.execute(db);
  await sql`alter table idempotency_keys drop column owner_instance, drop column owner_token`.execute(db);
  await sql`alter table idempotency_keys alter column response_body type jsonb using response_body::jsonb`.execute(db);
}
