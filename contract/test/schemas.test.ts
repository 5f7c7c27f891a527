import { describe, expect, it } from 'vitest';
import type { ZodTypeAny } from 'zod';
import {
  CreateFaceDetectBodySchema,
  CreateSwapBodySchema,
  CreateSwapQuerySchema,
  DEFAULT_PAGE_SIZE,
  HttpsUrlSchema,
  httpsUrlProblem,
  IdempotencyKeySchema,
  ListSwapsQuerySchema,
  MAX_METADATA_BYTES,
  MAX_METADATA_DEPTH,
  MAX_PAGE_SIZE,
  nestsDeeperThan,
} from '../src/index';

const accepts = (schema: ZodTypeAny, value: unknown) => schema.safeParse(value).success;

/** Paths of the fields a value is rejected for, e.g. ['source_url']. */
function rejectedFields(schema: ZodTypeAny, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
}

const face = 'https://media.example.com/faces/alice.jpg';
const otherFace = 'https://media.example.com/faces/bob.jpg';
const target = 'https://media.example.com/targets/poster.jpg';

describe('a create-swap body', () => {
  it('accepts the minimal body of every type', () => {
    expect(accepts(CreateSwapBodySchema, { type: 'image', source_url: face, target_url: target })).toBe(true);
    expect(accepts(CreateSwapBodySchema, { type: 'gif', source_url: face, target_url: target })).toBe(true);
    expect(accepts(CreateSwapBodySchema, { type: 'video', source_url: face, target_url: target })).toBe(true);
    expect(
      accepts(CreateSwapBodySchema, {
        type: 'multi_face_image',
        target_url: target,
        face_swaps: [{ face_index: 0, source_url: face }],
      }),
    ).toBe(true);
  });

  it('requires source_url for image and gif swaps', () => {
    expect(rejectedFields(CreateSwapBodySchema, { type: 'image', target_url: target })).toEqual(['source_url']);
    expect(rejectedFields(CreateSwapBodySchema, { type: 'gif', target_url: target })).toEqual(['source_url']);
  });

  it('requires target_url', () => {
    expect(rejectedFields(CreateSwapBodySchema, { type: 'image', source_url: face })).toEqual(['target_url']);
  });

  it('requires face_swaps for a multi-face image', () => {
    expect(rejectedFields(CreateSwapBodySchema, { type: 'multi_face_image', target_url: target })).toEqual([
      'face_swaps',
    ]);
    expect(
      rejectedFields(CreateSwapBodySchema, { type: 'multi_face_image', target_url: target, face_swaps: [] }),
    ).toEqual(['face_swaps']);
  });

  it('rejects an unknown type', () => {
    expect(accepts(CreateSwapBodySchema, { type: 'audio', source_url: face, target_url: target })).toBe(false);
  });

  it('rejects keep_audio outside video swaps', () => {
    expect(accepts(CreateSwapBodySchema, { type: 'image', source_url: face, target_url: target, keep_audio: false })).toBe(
      false,
    );
    expect(accepts(CreateSwapBodySchema, { type: 'video', source_url: face, target_url: target, keep_audio: false })).toBe(
      true,
    );
  });

  it('rejects unknown fields', () => {
    expect(accepts(CreateSwapBodySchema, { type: 'image', source_url: face, target_url: target, colour: 'red' })).toBe(
      false,
    );
    expect(
      accepts(CreateSwapBodySchema, {
        type: 'multi_face_image',
        target_url: target,
        face_swaps: [{ face_index: 0, source_url: face, strength: 1 }],
      }),
    ).toBe(false);
  });

  it('takes a video source from either source_url or face_swaps, never both or neither', () => {
    const videoFaces = [{ frame_time_seconds: 1, face_index: 0, source_url: face }];
    expect(accepts(CreateSwapBodySchema, { type: 'video', target_url: target, face_swaps: videoFaces })).toBe(true);
    expect(
      rejectedFields(CreateSwapBodySchema, { type: 'video', target_url: target, source_url: face, face_swaps: videoFaces }),
    ).toEqual(['source_url']);
    expect(rejectedFields(CreateSwapBodySchema, { type: 'video', target_url: target })).toEqual(['source_url']);
  });

  it('rejects the same face twice', () => {
    expect(
      rejectedFields(CreateSwapBodySchema, {
        type: 'multi_face_image',
        target_url: target,
        face_swaps: [
          { face_index: 1, source_url: face },
          { face_index: 1, source_url: otherFace },
        ],
      }),
    ).toEqual(['face_swaps.1']);
  });

  it('allows one face index at different video frames, but not twice at the same frame', () => {
    const video = (frames: number[]) => ({
      type: 'video',
      target_url: target,
      face_swaps: frames.map((frame_time_seconds) => ({ frame_time_seconds, face_index: 0, source_url: face })),
    });
    expect(accepts(CreateSwapBodySchema, video([1, 2]))).toBe(true);
    expect(rejectedFields(CreateSwapBodySchema, video([1, 1]))).toEqual(['face_swaps.1']);
  });

  it(`caps metadata at ${MAX_METADATA_BYTES} bytes of JSON`, () => {
    const withMetadata = (bytes: number) => ({
      type: 'image',
      source_url: face,
      target_url: target,
      // {"note":"..."} is 11 bytes around the text.
      metadata: { note: 'x'.repeat(bytes - 11) },
    });
    expect(accepts(CreateSwapBodySchema, withMetadata(MAX_METADATA_BYTES))).toBe(true);
    expect(rejectedFields(CreateSwapBodySchema, withMetadata(MAX_METADATA_BYTES + 1))).toEqual(['metadata']);
  });

  it(`caps metadata at ${MAX_METADATA_DEPTH} levels of nesting, however deep it goes`, () => {
    const nested = (depth: number) => {
      let value: unknown = { leaf: 1 };
      for (let level = 1; level < depth; level++) value = level % 2 ? [value] : { o: value };
      return value;
    };
    const body = (metadata: unknown) => ({ type: 'image', source_url: face, target_url: target, metadata });
    /** `{"deep":[[...]]}`, `depth` levels in all. */
    const chain = (depth: number): unknown => {
      let value: unknown = [];
      for (let level = 2; level < depth; level++) value = [value];
      return { deep: value };
    };
    expect(accepts(CreateSwapBodySchema, body(chain(MAX_METADATA_DEPTH)))).toBe(true);
    expect(rejectedFields(CreateSwapBodySchema, body(chain(MAX_METADATA_DEPTH + 1)))).toEqual(['metadata']);
    // Far past the depth at which JSON.stringify overflows the call stack.
    expect(rejectedFields(CreateSwapBodySchema, body(chain(200_000)))).toEqual(['metadata']);
    expect(nestsDeeperThan(nested(MAX_METADATA_DEPTH), MAX_METADATA_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_METADATA_DEPTH + 1), MAX_METADATA_DEPTH)).toBe(true);
  });

  it('requires an HTTPS webhook_url', () => {
    const body = { type: 'image', source_url: face, target_url: target };
    expect(accepts(CreateSwapBodySchema, { ...body, webhook_url: 'https://hooks.example.com/doppel' })).toBe(true);
    expect(rejectedFields(CreateSwapBodySchema, { ...body, webhook_url: 'http://hooks.example.com/doppel' })).toEqual([
      'webhook_url',
    ]);
  });
});

describe('a media URL', () => {
  it('must be absolute HTTPS without credentials', () => {
    expect(accepts(HttpsUrlSchema, 'https://media.example.com/a.jpg')).toBe(true);
    expect(accepts(HttpsUrlSchema, 'http://media.example.com/a.jpg')).toBe(false);
    expect(accepts(HttpsUrlSchema, 'ftp://media.example.com/a.jpg')).toBe(false);
    expect(accepts(HttpsUrlSchema, '/a.jpg')).toBe(false);
    expect(accepts(HttpsUrlSchema, 'https://user:secret@media.example.com/a.jpg')).toBe(false);
    expect(accepts(HttpsUrlSchema, `https://media.example.com/${'a'.repeat(2048)}`)).toBe(false);
  });

  it.each(['https://media.example.com/a\u0000.jpg', 'https://media.example.com/a\ud800.jpg', 'https://media.example.com/\u0085'])(
    'must hold no control character or unpaired surrogate (%j), which no database text column could keep',
    (url) => {
      expect(httpsUrlProblem(url)).toBe('must not contain control characters or unpaired surrogates');
      expect(accepts(HttpsUrlSchema, 'https://media.example.com/caf\u00e9/\ud83d\ude00.jpg')).toBe(true);
    },
  );

  it.each(['https://0x7f.1/', 'https://2130706433/', 'https://0177.0.0.1/', 'https://127.1/'])(
    'rejects the non-canonical IPv4 literal %s',
    (url) => {
      expect(accepts(HttpsUrlSchema, url)).toBe(false);
      expect(rejectedFields(CreateFaceDetectBodySchema, { target_url: url })).toEqual(['target_url']);
    },
  );

  it.each(['https://0x7f.1\\@127.0.0.1/', 'https://2130706433\\@93.184.216.34/x'])(
    'rejects the non-canonical IPv4 literal hidden before a backslash in %s',
    (url) => {
      expect(httpsUrlProblem(url)).toBe('must write an IP address in canonical dotted-decimal form');
    },
  );

  it.each([
    ['https://[0:0:0:0:0:0:0:1]/', '[::1]'],
    ['https://[::FFFF:127.0.0.1]/a.jpg', '[::ffff:7f00:1]'],
    ['https://[2001:DB8::1]:8443/', '[2001:db8::1]'],
  ])('rejects the non-canonical IPv6 literal %s, naming the canonical form', (url, canonical) => {
    expect(httpsUrlProblem(url)).toBe(`must write an IPv6 address in canonical form, as ${canonical}`);
    expect(rejectedFields(CreateFaceDetectBodySchema, { target_url: url })).toEqual(['target_url']);
  });

  it('accepts a canonical IPv4 or IPv6 literal (the address guard, not the schema, judges the address)', () => {
    expect(accepts(HttpsUrlSchema, 'https://[2001:db8::1]/a.jpg')).toBe(true);
    expect(accepts(HttpsUrlSchema, 'https://93.184.216.34/')).toBe(true);
    expect(accepts(HttpsUrlSchema, 'https://93.184.216.34:8443/a.jpg')).toBe(true);
  });
});

describe('the list query', () => {
  it(`defaults limit to ${DEFAULT_PAGE_SIZE} and reads it from query-string text`, () => {
    expect(ListSwapsQuerySchema.parse({})).toEqual({ limit: DEFAULT_PAGE_SIZE });
    expect(ListSwapsQuerySchema.parse({ limit: '1' }).limit).toBe(1);
    expect(ListSwapsQuerySchema.parse({ limit: String(MAX_PAGE_SIZE) }).limit).toBe(MAX_PAGE_SIZE);
  });

  it(`rejects a limit outside 1..${MAX_PAGE_SIZE} or not a whole number`, () => {
    for (const limit of ['0', String(MAX_PAGE_SIZE + 1), '-5', '2.5', 'ten']) {
      expect(rejectedFields(ListSwapsQuerySchema, { limit }), limit).toEqual(['limit']);
    }
  });

  it('accepts only a task-id string as cursor', () => {
    expect(accepts(ListSwapsQuerySchema, { cursor: 'swp_3q9XcM7vTf2LkR8bNw1YzA' })).toBe(true);
    for (const cursor of ['', 'a/b', 'swp 1', 'x'.repeat(65)]) {
      expect(rejectedFields(ListSwapsQuerySchema, { cursor }), cursor).toEqual(['cursor']);
    }
  });
});

describe('the create query and headers', () => {
  it('takes wait as the text true or false', () => {
    expect(accepts(CreateSwapQuerySchema, { wait: 'true' })).toBe(true);
    expect(accepts(CreateSwapQuerySchema, {})).toBe(true);
    expect(accepts(CreateSwapQuerySchema, { wait: 'yes' })).toBe(false);
  });

  it('takes an Idempotency-Key of 1 to 64 visible ASCII characters', () => {
    expect(accepts(IdempotencyKeySchema, 'k')).toBe(true);
    expect(accepts(IdempotencyKeySchema, 'k'.repeat(64))).toBe(true);
    expect(accepts(IdempotencyKeySchema, '')).toBe(false);
    expect(accepts(IdempotencyKeySchema, 'k'.repeat(65))).toBe(false);
    expect(accepts(IdempotencyKeySchema, 'order 1042')).toBe(false);
    expect(accepts(IdempotencyKeySchema, 'clé')).toBe(false);
  });
});
