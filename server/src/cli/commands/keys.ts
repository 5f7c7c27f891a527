import { issueApiKey, listApiKeys, revokeApiKey } from '@doppel/core/accounts/api-keys';
import { requireOption } from '../arguments';
import type { Command } from '../command';
import { CliError } from '../errors';
import { table, timestamp } from '../output';
import { requireUser } from '../require-user';

export const keysCreate: Command = {
  name: 'keys create',
  synopsis: '--user USER_ID',
  summary: 'Issue an API key; the full key is printed this once only',
  options: ['user'],
  prepare(args) {
    const userId = requireOption(args, 'user');
    return async ({ db, vault }) => {
      await requireUser(db, userId);
      const issued = await issueApiKey(db, vault, userId);
      return {
        json: { id: issued.id, user_id: issued.userId, prefix: issued.prefix, key: issued.key, created_at: issued.createdAt },
        // Only the key on stdout, so `KEY=$(doppel keys create --user ...)` captures just the key.
        text: issued.key,
        notice:
          `Issued key ${issued.id} (prefix ${issued.prefix}) to ${userId}. ` +
          'Store it now: the full key is not shown again, and cannot be recovered.',
      };
    };
  },
};

export const keysList: Command = {
  name: 'keys list',
  synopsis: '--user USER_ID',
  summary: "List a user's keys by id and prefix (never the keys themselves)",
  options: ['user'],
  prepare(args) {
    const userId = requireOption(args, 'user');
    return async ({ db }) => {
      await requireUser(db, userId);
      const keys = await listApiKeys(db, userId);
      return {
        json: {
          user_id: userId,
          keys: keys.map((k) => ({
            id: k.id,
            prefix: k.prefix,
            created_at: k.created_at,
            last_used_at: k.last_used_at,
            revoked_at: k.revoked_at,
          })),
        },
        text:
          keys.length === 0
            ? `No keys for ${userId}.`
            : table(
                ['ID', 'PREFIX', 'CREATED', 'LAST USED', 'REVOKED'],
                keys.map((k) => [k.id, k.prefix, timestamp(k.created_at), timestamp(k.last_used_at, 'never'), timestamp(k.revoked_at)]),
              ),
      };
    };
  },
};

export const keysRevoke: Command = {
  name: 'keys revoke',
  synopsis: 'KEY_PREFIX_OR_ID',
  summary: 'Revoke a live key by its id or its listed prefix; requests with it fail at once',
  options: [],
  positionals: ['KEY_PREFIX_OR_ID'],
  prepare(args) {
    const target = args.positionals[0]!;
    return async ({ db }) => {
      const { revoked, ambiguous } = await revokeApiKey(db, target);
      if (ambiguous) {
        throw new CliError(`'${target}' matches several live keys; nothing revoked, revoke by id (see 'doppel keys list')`);
      }
      if (!revoked) throw new CliError(`no live key has the id or prefix '${target}'`);
      return {
        json: { revoked: { id: revoked.id, prefix: revoked.prefix } },
        text: `Revoked key ${revoked.id} (prefix ${revoked.prefix}).`,
      };
    };
  },
};
