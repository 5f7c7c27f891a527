import { expect } from 'vitest';
import type { TestAccount, TestApp } from '@doppel/server/testing/app';
import type { IntakeWorld } from './intake-world';

/**
 * A new account holding `credits`, and the image swap of the world's `/face.jpg` into its
 * `/group.jpg` that the account has just created through the API (answered 201).
 */
export async function createImageSwap(app: TestApp, world: IntakeWorld, credits = 2): Promise<{ account: TestAccount; id: string }> {
  const account = await app.createAccount({ credits });
  const created = await app.request('/api/v1/swaps', {
    method: 'POST',
    key: account.apiKey,
    json: { type: 'image', source_url: world.url('/face.jpg'), target_url: world.url('/group.jpg') },
  });
  expect(created.status).toBe(201);
  return { account, id: created.body.id };
}
