import { getBalances, grantCredits, type Balances } from '@doppel/core/accounts/credits';
import { createUser, findUserByEmail } from '@doppel/core/accounts/users';
import { INVITE_HOURS, issueInvite } from '@doppel/core/dashboard/invites';
import type { UserRow } from '@doppel/core/db/schema';
import { requireOption } from '../arguments';
import type { Command, Result } from '../command';
import { CliError } from '../errors';
import { balanceFields, fields, timestamp } from '../output';
import { parseAmount, parseEmail, parseTier } from '../validate';

export const usersCreate: Command = {
  name: 'users create',
  synopsis: '--email EMAIL [--tier TIER] [--credits N]',
  summary: 'Create a user; --credits go to the permanent bucket (tier defaults to free)',
  options: ['email', 'tier', 'credits'],
  prepare(args) {
    const email = parseEmail(requireOption(args, 'email'));
    const tier = args.options.tier === undefined ? undefined : parseTier(args.options.tier);
    const credits = args.options.credits === undefined ? undefined : parseAmount('credits', args.options.credits);
    return async ({ db }) => {
      const user = await createUser(db, { email, tier }).catch((error: unknown) => {
        if ((error as { code?: string }).code === '23505') throw new CliError(`a user with email ${email} already exists`);
        throw error;
      });
      // Not one transaction with the user row: the amount is validated above, so the grant can only
      // fail if the database goes away in between, and then the operator sees the error and the id.
      const balances = credits ? await grantCredits(db, user.id, 'permanent', credits) : await getBalances(db, user.id);
      return userResult(user, balances);
    };
  },
};

export const usersShow: Command = {
  name: 'users show',
  synopsis: '--email EMAIL',
  summary: "Show a user's id, tier and credits, found by the exact email it was created with",
  options: ['email'],
  prepare(args) {
    const email = parseEmail(requireOption(args, 'email'));
    return async ({ db }) => {
      const user = await findUserByEmail(db, email);
      if (!user) throw new CliError(`no user with email ${email}`);
      return userResult(user, await getBalances(db, user.id));
    };
  },
};

export const usersInvite: Command = {
  name: 'users invite',
  synopsis: '--email EMAIL',
  summary: `Print a one-time dashboard link to set the password (valid ${INVITE_HOURS} h; replaces the previous link)`,
  options: ['email'],
  prepare(args) {
    const email = parseEmail(requireOption(args, 'email'));
    return async ({ db, config }) => {
      const user = await findUserByEmail(db, email);
      if (!user) throw new CliError(`no user with email ${email}`);
      const invite = await issueInvite(db, user.id, config.publicUrl);
      return {
        json: { url: invite.url, expires_at: invite.expiresAt },
        text: fields([
          ['url', invite.url],
          ['expires', timestamp(invite.expiresAt)],
        ]),
        notice: 'Send this link to the user only: whoever opens it sets the password. It works once.',
      };
    };
  },
};

/** A user as `users create` and `users show` print it: the id first, then tier and credits. */
function userResult(user: UserRow, balances: Balances): Result {
  return {
    json: {
      id: user.id,
      email: user.email,
      subscription_tier: user.subscription_tier,
      email_verified: user.email_verified,
      created_at: user.created_at,
      credits: balances,
    },
    text: fields([
      ['id', user.id],
      ['email', user.email],
      ['tier', user.subscription_tier],
      ['created', timestamp(user.created_at)],
      ...balanceFields(balances).map(([bucket, amount]): [string, number] => [`credits ${bucket}`, amount]),
    ]),
  };
}
