import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('email_verified', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('subscription_tier', 'text', (c) => c.notNull().defaultTo('free'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('key_ciphertext', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('api_keys_user').on('api_keys').column('user_id').execute();
  await db.schema.createIndex('api_keys_prefix').on('api_keys').column('prefix').execute();

  await db.schema
    .createTable('credit_balances')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('subscription', 'integer', (c) => c.notNull().defaultTo(0).check(sql`subscription >= 0`))
    .addColumn('monthly', 'integer', (c) => c.notNull().defaultTo(0).check(sql`monthly >= 0`))
    .addColumn('permanent', 'integer', (c) => c.notNull().defaultTo(0).check(sql`permanent >= 0`))
    .execute();

  await db.schema
    .createTable('swaps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('credit_cost', 'integer', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('result_url', 'text')
    .addColumn('error', 'text')
    .addColumn('metadata', 'jsonb')
    .addColumn('webhook_url', 'text')
    .addColumn('params', 'jsonb', (c) => c.notNull())
    .addColumn('inputs', 'jsonb', (c) => c.notNull())
    .addColumn('refunded', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('completed_at', 'timestamptz')
    .execute();
  // Serves the list's keyset pagination: newest first, then id, per key.
  await sql`create index swaps_key_page on swaps (api_key_id, created_at desc, id desc)`.execute(db);
  await sql`create index swaps_key_active on swaps (api_key_id) where status in ('queued', 'preparing', 'processing')`.execute(db);

  await db.schema
    .createTable('credit_ledger')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('swap_id', 'text')
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('credit_ledger_user').on('credit_ledger').column('user_id').execute();
  await db.schema.createIndex('credit_ledger_swap').on('credit_ledger').column('swap_id').execute();

  await db.schema
    .createTable('face_detect_tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('target', 'jsonb', (c) => c.notNull())
    .addColumn('faces', 'jsonb')
    .addColumn('faces_detected', 'integer')
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('completed_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['api_key_id', 'key'])
    .execute();

  await db.schema
    .createTable('rate_limit_hits')
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limit_hits_key_at').on('rate_limit_hits').columns(['api_key_id', 'at']).execute();

  await db.schema
    .createTable('rate_limit_days')
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_days_pk', ['api_key_id', 'day'])
    .execute();

  await db.schema
    .createTable('auth_failures')
    .addColumn('client', 'text', (c) => c.notNull())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('auth_failures_pk', ['client', 'window_start'])
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'jsonb', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'settings', 'auth_failures', 'rate_limit_days', 'rate_limit_hits', 'idempotency_keys',
    'face_detect_tasks', 'credit_ledger', 'swaps', 'credit_balances', 'api_keys', 'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
