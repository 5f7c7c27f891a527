import { getBalances, grantCredits } from '@doppel/core/accounts/credits';
import { requireOption } from '../arguments';
import type { Command } from '../command';
import { CliError } from '../errors';
import { balanceFields, fields } from '../output';
import { requireUser } from '../require-user';
import { MAX_CREDITS, parseAmount, parseBucket } from '../validate';

export const creditsGrant: Command = {
  name: 'credits grant',
  synopsis: '--user USER_ID --bucket permanent|monthly|subscription --amount N',
  summary: 'Add credits to one bucket, recorded as a ledger grant',
  options: ['user', 'bucket', 'amount'],
  prepare(args) {
    const userId = requireOption(args, 'user');
    const bucket = parseBucket(requireOption(args, 'bucket'));
    const amount = parseAmount('amount', requireOption(args, 'amount'));
    return async ({ db }) => {
      await requireUser(db, userId);
      const balances = await grantCredits(db, userId, bucket, amount).catch((error: unknown) => {
        // 22003: numeric_value_out_of_range, the bucket's integer column would overflow.
        if ((error as { code?: string }).code === '22003') {
          throw new CliError(`the ${bucket} balance would exceed ${MAX_CREDITS}; nothing granted`);
        }
        throw error;
      });
      return {
        json: { user_id: userId, granted: { bucket, amount }, credits: balances },
        text: `Granted ${amount} ${bucket} credits to ${userId}.\n${fields(balanceFields(balances))}`,
      };
    };
  },
};

export const creditsShow: Command = {
  name: 'credits show',
  synopsis: '--user USER_ID',
  summary: "Show a user's credit balances by bucket",
  options: ['user'],
  prepare(args) {
    const userId = requireOption(args, 'user');
    return async ({ db }) => {
      await requireUser(db, userId);
      const balances = await getBalances(db, userId);
      return { json: { user_id: userId, credits: balances }, text: fields(balanceFields(balances)) };
    };
  },
};
