import { describe, expect, it } from 'vitest';
import type { SwapRow } from '@doppel/core/db/schema';
import { webhookBody } from '@doppel/core/webhooks/events';
import { signWebhook } from '../../src/webhooks/signature';
import { verifyWebhook } from '@doppel/sdk';

// The worked example of docs/webhooks.md: if these change, change the docs with them.
const EXAMPLE_KEY = 'dpl_EXAMPLE_only_never_use_this_key_for_real_00';
const EXAMPLE_TIMESTAMP = 1767225900;
const EXAMPLE_BODY =
  '{"event":"swap.completed","id":"swp_Q2xp3dVq8kYb1mTn0aR7xw","type":"image","status":"done","credit_cost":1,' +
  '"progress":100,"created_at":"2026-01-01T00:00:00.000Z",' +
  '"result_url":"https://cdn.example.com/results/Xq7n2VbK9pLm4RtW0sYc3A/swp_Q2xp3dVq8kYb1mTn0aR7xw.jpg","error":null,' +
  '"metadata":{"order":"A-17"},"webhook_url":"https://example.com/webhooks/doppel"}';
const EXAMPLE_HEADER = 't=1767225900,v1=2cc8a0260cecbf57484be62730195c1cfcf87512c4fd5f01cdedc573edac2d04';

const exampleSwap: SwapRow = {
  id: 'swp_Q2xp3dVq8kYb1mTn0aR7xw',
  api_key_id: 'key_example',
  user_id: 'usr_example',
  type: 'image',
  status: 'done',
  credit_cost: 1,
  progress: 100,
  created_at: new Date('2026-01-01T00:00:00Z'),
  updated_at: new Date('2026-01-01T00:05:00Z'),
  result_url: 'https://cdn.example.com/results/Xq7n2VbK9pLm4RtW0sYc3A/swp_Q2xp3dVq8kYb1mTn0aR7xw.jpg',
  error: null,
  metadata: { order: 'A-17' },
  webhook_url: 'https://example.com/webhooks/doppel',
  params: { source_url: 'https://cdn.example.com/internal/source.jpg' },
  inputs: { target: { key: 'inputs/internal/target.jpg', kind: 'jpeg', mimeType: 'image/jpeg' }, sources: [] },
  refunded: false,
  completed_at: new Date('2026-01-01T00:05:00Z'),
  result_key: 'results/internal/swp_Q2xp3dVq8kYb1mTn0aR7xw.jpg',
};

describe('the documented webhook example', () => {
  it('builds the flat body: event first, then the PublicSwap fields, no internal columns', () => {
    expect(webhookBody('swap.completed', exampleSwap)).toBe(EXAMPLE_BODY);
  });

  it('signs `<t>.<raw body>` with HMAC-SHA256 keyed by the API key, in lower-case hex', () => {
    expect(signWebhook(EXAMPLE_BODY, EXAMPLE_KEY, EXAMPLE_TIMESTAMP)).toBe(EXAMPLE_HEADER);
  });

  it('is accepted by the SDK at that time, and a changed byte is not', () => {
    expect(verifyWebhook(EXAMPLE_BODY, EXAMPLE_HEADER, EXAMPLE_KEY, { now: EXAMPLE_TIMESTAMP }).id).toBe(exampleSwap.id);
    expect(() =>
      verifyWebhook(EXAMPLE_BODY.replace('A-17', 'A-18'), EXAMPLE_HEADER, EXAMPLE_KEY, { now: EXAMPLE_TIMESTAMP }),
    ).toThrow(expect.objectContaining({ reason: 'no_matching_signature' }));
  });
});
