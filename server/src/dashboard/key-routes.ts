import { dashboardContract, type DashboardKey } from '@doppel/contract/dashboard';
import { issueApiKey, listApiKeys, revokeUserApiKey } from '@doppel/core/accounts/api-keys';
import type { ApiKeyRow } from '@doppel/core/db/schema';
import { tsRest } from '../routes/ts-rest';
import { notFound } from './errors';
import { sessionOf } from './session-guard';

type KeyRow = Pick<ApiKeyRow, 'id' | 'name' | 'prefix' | 'created_at' | 'last_used_at' | 'revoked_at'>;

const toKey = (row: KeyRow): DashboardKey => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  created_at: row.created_at.toISOString(),
  last_used_at: row.last_used_at?.toISOString() ?? null,
  revoked_at: row.revoked_at?.toISOString() ?? null,
});

export const listKeys = tsRest.route(dashboardContract.listKeys, async ({ request }) => {
  const rows = await listApiKeys(request.server.deps.db, sessionOf(request).userId);
  return { status: 200, body: { data: rows.reverse().map(toKey) } };
});

export const createKey = tsRest.route(dashboardContract.createKey, async ({ request, body }) => {
  const { db, vault } = request.server.deps;
  const issued = await issueApiKey(db, vault, sessionOf(request).userId, body.name || null);
  const key = toKey({ ...issued, created_at: issued.createdAt, last_used_at: null, revoked_at: null });
  return { status: 201, body: { key, secret: issued.key } };
});

export const revokeKey = tsRest.route(dashboardContract.revokeKey, async ({ request, params }) => {
  const row = await revokeUserApiKey(request.server.deps.db, sessionOf(request).userId, params.keyId);
  if (!row) throw notFound('API key');
  return { status: 200, body: toKey(row) };
});
