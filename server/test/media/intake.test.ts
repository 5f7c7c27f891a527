import { httpsUrlProblem } from '@doppel/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '@doppel/core/errors';
import { createFetchGuard, type FetchGuard } from '@doppel/core/media/fetch-guard';
import { fetchMedia, vetPublicUrl } from '../../src/media/intake';
import { FACE_DETECT_MEDIA, SOURCE_MEDIA, TARGET_MEDIA_BY_SWAP_TYPE } from '@doppel/core/media/sniff';
import { startDohServer, type DohServer } from '@doppel/core/testing/doh-server';
import { makeGif, makeMp4, makePng, makeWebm } from '@doppel/core/testing/media-files';
import { answerStatus, sendBytes, startMediaServer, streamBytes, type MediaServer } from '@doppel/core/testing/media-server';
import { createTestCa } from '@doppel/core/testing/test-ca';

let media: MediaServer;
let doh: DohServer;
let guard: FetchGuard;
let png: Buffer;

// The server's default cap for images (DOPPEL_MAX_IMAGE_BYTES); every fixture but /huge fits in it.
const MAX_BYTES = 15 * 2 ** 20;

beforeAll(async () => {
  const ca = (await createTestCa()).certPem;
  png = await makePng();
  doh = await startDohServer({
    answers: {
      'media.test': { addresses: ['127.0.0.1'] },
      'inside.test': { addresses: ['10.0.0.9'] },
      'gone.test': { rcode: 'NXDOMAIN' },
    },
  });
  media = await startMediaServer({
    routes: {
      // The Content-Type lies each time: only the bytes count.
      '/face.txt': sendBytes(png, { 'content-type': 'text/plain' }),
      '/anim': sendBytes(await makeGif(), { 'content-type': 'image/png' }),
      '/clip': sendBytes(await makeMp4(), { 'content-type': 'image/gif' }),
      '/clip.webm': sendBytes(await makeWebm()),
      '/page': sendBytes(Buffer.from('<html>hello</html>'), { 'content-type': 'image/jpeg' }),
      '/huge': streamBytes(MAX_BYTES + 1024 * 1024),
      '/missing': answerStatus(404),
    },
  });
  guard = createFetchGuard({ dohResolvers: [doh.url], allowPrivateCidrs: ['127.0.0.0/8'], ca });
});

afterAll(async () => {
  await Promise.all([media.close(), doh.close()]);
});

async function apiErrorOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const url = (path: string) => media.url('media.test', path);

describe('media intake', () => {
  it('returns the bytes and the sniffed type, whatever Content-Type said', async () => {
    const fetched = await fetchMedia({ url: url('/face.txt'), role: 'source', allowed: SOURCE_MEDIA, maxBytes: MAX_BYTES, guard });
    expect(fetched).toMatchObject({ kind: 'png', mimeType: 'image/png', finalUrl: url('/face.txt') });
    expect(fetched.bytes.equals(png)).toBe(true);
  });

  it.each([
    ['/anim', 'gif', 'gif'],
    ['/clip', 'video', 'mp4'],
    ['/clip.webm', 'video', 'webm'],
  ] as const)('accepts %s as the target of a %s swap', async (path, type, kind) => {
    const fetched = await fetchMedia({
      url: url(path),
      role: 'target',
      allowed: TARGET_MEDIA_BY_SWAP_TYPE[type],
      maxBytes: MAX_BYTES,
      guard,
    });
    expect(fetched.kind).toBe(kind);
  });

  it('refuses a type outside the allowlist of the declared swap type', async () => {
    const error = await apiErrorOf(
      fetchMedia({ url: url('/anim'), role: 'target', allowed: TARGET_MEDIA_BY_SWAP_TYPE.image, maxBytes: MAX_BYTES, guard }),
    );
    expect(error.code).toBe('unsupported_media_type');
    expect(error.message).toBe('target_url is image/gif; accepted here: image/jpeg, image/png, image/webp.');
  });

  it('refuses bytes that are no media at all', async () => {
    const error = await apiErrorOf(
      fetchMedia({ url: url('/page'), role: 'target', allowed: FACE_DETECT_MEDIA, maxBytes: MAX_BYTES, guard }),
    );
    expect(error.code).toBe('unsupported_media_type');
    expect(error.message).toContain('target_url is not a recognised media file');
  });

  it('refuses media over the cap as payload_too_large', async () => {
    const error = await apiErrorOf(
      fetchMedia({ url: url('/huge'), role: 'target', allowed: SOURCE_MEDIA, maxBytes: MAX_BYTES, guard }),
    );
    expect(error.code).toBe('payload_too_large');
    expect(error.message).toBe('target_url is larger than the 15 MiB limit for this input.');
  });

  it('names the input that failed without echoing where it resolved', async () => {
    const error = await apiErrorOf(
      fetchMedia({
        url: 'https://inside.test/face.png',
        role: 'source',
        field: 'face_swaps[1].source_url',
        allowed: SOURCE_MEDIA,
        maxBytes: MAX_BYTES,
        guard,
      }),
    );
    expect(error.code).toBe('source_unreachable');
    expect(error.message).toBe('face_swaps[1].source_url could not be fetched: its host does not resolve to a public address.');
    expect(error.message).not.toContain('10.0.0.9');
  });

  it.each([
    ['https://gone.test/x.png', 'target_url could not be fetched: its host name could not be resolved.'],
    ['https://metadata.google.internal/computeMetadata/v1/', 'target_url could not be fetched: its host is not a public internet host.'],
    ['https://169.254.169.254/latest/meta-data/', 'target_url could not be fetched: its host does not resolve to a public address.'],
  ])('answers %s with source_unreachable', async (target, message) => {
    const error = await apiErrorOf(fetchMedia({ url: target, role: 'target', allowed: SOURCE_MEDIA, maxBytes: MAX_BYTES, guard }));
    expect(error.code).toBe('source_unreachable');
    expect(error.message).toBe(message);
  });

  it('answers an upstream error status with source_unreachable', async () => {
    const error = await apiErrorOf(fetchMedia({ url: url('/missing'), role: 'source', allowed: SOURCE_MEDIA, maxBytes: MAX_BYTES, guard }));
    expect(error.code).toBe('source_unreachable');
    expect(error.message).toBe('source_url could not be fetched: its server answered HTTP 404.');
  });

  it.each(['https://0x7f.1/a.png', 'https://2130706433/a.png', 'https://0177.0.0.1/a.png', 'https://127.1/a.png'])(
    'refuses the non-canonical literal %s as validation_error, as the contract does',
    async (target) => {
      expect(httpsUrlProblem(target)).toBe('must write an IP address in canonical dotted-decimal form');
      const error = await apiErrorOf(fetchMedia({ url: target, role: 'target', allowed: SOURCE_MEDIA, maxBytes: MAX_BYTES, guard }));
      expect(error.code).toBe('validation_error');
      expect(error.message).toBe('target_url must write an IP address in canonical dotted-decimal form.');
    },
  );

  it('vets a webhook URL at create time with the same guard, without fetching it', async () => {
    const before = media.requests.length;
    await expect(vetPublicUrl({ url: url('/hook'), field: 'webhook_url', guard })).resolves.toBeUndefined();
    expect(media.requests.length).toBe(before);

    const refused = await apiErrorOf(vetPublicUrl({ url: 'https://inside.test/hook', field: 'webhook_url', guard }));
    expect([refused.code, refused.message]).toEqual([
      'source_unreachable',
      'webhook_url could not be fetched: its host does not resolve to a public address.',
    ]);
    const plain = await apiErrorOf(vetPublicUrl({ url: 'http://media.test/hook', field: 'webhook_url', guard }));
    expect([plain.code, plain.message]).toEqual(['validation_error', 'webhook_url must use https.']);
  });
});
