import { mediaKindOfExtension, mimeTypeOf } from '@doppel/contract';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '@doppel/core/errors';
import type { LocalStorage } from '@doppel/core/storage/local-storage';
import { LOCAL_FILES_PREFIX } from '@doppel/core/storage/open-storage';

/**
 * Serves results kept by the local backend at their public URLs. Only `results/` is public:
 * inputs and scan copies stay private even to someone who learns their key.
 */
export async function serveLocalFiles(app: FastifyInstance, storage: LocalStorage): Promise<void> {
  app.get(`${LOCAL_FILES_PREFIX}/results/*`, async (request, reply) => {
    const key = `results/${(request.params as { '*': string })['*']}`;
    const file = storage.filePath(key);
    const kind = mediaKindOfExtension(path.extname(key).slice(1));
    const type = kind && mimeTypeOf(kind);
    const info = file && type ? await stat(file).catch(() => null) : null;
    if (!file || !type || !info?.isFile()) throw new ApiError('not_found', 'No file at this address.');
    return reply
      .header('content-type', type)
      .header('content-length', info.size)
      // Result keys are never reused, so a result can be cached forever.
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(createReadStream(file));
  });
}
