import path from 'node:path';
import type { Config } from '../config';
import { LocalStorage } from './local-storage';
import { S3Storage } from './s3-storage';
import type { Storage } from './storage';

/** Public path prefix of files kept by the local backend. */
export const LOCAL_FILES_PREFIX = '/files';

export function openStorage(config: Config): Storage {
  if (config.storage.kind === 's3') return new S3Storage(config.storage);
  return new LocalStorage(path.join(config.dataDir, 'files'), `${config.publicUrl}${LOCAL_FILES_PREFIX}`);
}
