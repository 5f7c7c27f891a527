import { TaskIdSchema } from '@doppel/contract';
import { DoppelError } from '../core/errors';

/**
 * Ids are pasted into the URL path unescaped, so an id like `../me` or `` would reach another
 * endpoint. Reject anything outside the contract's id pattern before sending.
 */
export function assertTaskId(id: string): string {
  if (!TaskIdSchema.safeParse(id).success) {
    throw new DoppelError(`Invalid task id ${JSON.stringify(id)}: must match [A-Za-z0-9_-]{1,64}`);
  }
  return id;
}
