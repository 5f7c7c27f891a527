import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Where the result lives in storage, so retention can delete it with the task.
  await db.schema.alterTable('swaps').addColumn('result_key', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('swaps').dropColumn('result_key').execute();
}
