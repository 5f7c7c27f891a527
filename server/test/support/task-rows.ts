import type { Insertable } from 'kysely';
import type { FaceDetectTasksTable, NewSwap } from '@doppel/core/db/schema';
import { newId } from '@doppel/core/ids';
import type { TestAccount } from './app';

/** A swap row of this account, as task creation would store it. */
export function swapRow(account: TestAccount, fields: Partial<NewSwap> = {}): NewSwap {
  return {
    id: newId('swp'),
    api_key_id: account.apiKeyId,
    user_id: account.userId,
    type: 'image',
    status: 'queued',
    credit_cost: 1,
    updated_at: new Date(),
    result_url: null,
    error: null,
    metadata: null,
    webhook_url: null,
    params: JSON.stringify({}),
    inputs: JSON.stringify({}),
    completed_at: null,
    ...fields,
  };
}

/** A face-detection row of this account, as task creation would store it. */
export function faceDetectRow(
  account: TestAccount,
  fields: Partial<Insertable<FaceDetectTasksTable>> = {},
): Insertable<FaceDetectTasksTable> {
  return {
    id: newId('fdt'),
    api_key_id: account.apiKeyId,
    status: 'queued',
    target: JSON.stringify({}),
    faces: null,
    faces_detected: null,
    error: null,
    completed_at: null,
    ...fields,
  };
}
