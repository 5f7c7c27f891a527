import { findUser } from '@doppel/core/accounts/users';
import type { Db } from '@doppel/core/db/connect';
import { CliError } from './errors';

/** Commands naming a user fail on a typo instead of showing an empty result. */
export async function requireUser(db: Db, id: string): Promise<void> {
  if (!(await findUser(db, id))) throw new CliError(`no user with id ${id}`);
}
