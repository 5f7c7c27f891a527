import { describe, expect, it } from 'vitest';
import { contract } from '../src/router';
import { buildOpenApiDocument } from '../src/openapi/index';
import {
  WEBHOOK_SIGNATURE_PATTERN,
  formatWebhookSignature,
  readWebhookSignature,
  webhookSignedPrefix,
} from '../src/webhook-signature';

describe('the webhook signature format', () => {
  it('reads back what it writes, keeping t exactly as written', () => {
    const header = formatWebhookSignature(1767225900, 'ab12');
    expect(header).toBe('t=1767225900,v1=ab12');
    expect(readWebhookSignature(header)).toEqual({ timestampText: '1767225900', hexDigest: 'ab12' });
    expect(readWebhookSignature('t=0123,v1=ff')).toEqual({ timestampText: '0123', hexDigest: 'ff' });
  });

  it.each(['', 'v1=ab,t=1', 't=1, v1=ab', 't=1,v1=AB', 't=1,v1=ab,v1=cd', 't=1,v0=ab', 't=-1,v1=ab', 't=1,v1='])(
    'refuses %j',
    (value) => {
      expect(readWebhookSignature(value)).toBeNull();
    },
  );

  it('signs the timestamp as written, a dot, then the raw body', () => {
    expect(webhookSignedPrefix('0123')).toBe('0123.');
    expect(webhookSignedPrefix(5)).toBe('5.');
  });

  it('is the pattern the OpenAPI document gives the header', () => {
    const document = JSON.stringify(buildOpenApiDocument(contract));
    expect(document).toContain(JSON.stringify({ type: 'string', pattern: WEBHOOK_SIGNATURE_PATTERN.source }));
  });
});
