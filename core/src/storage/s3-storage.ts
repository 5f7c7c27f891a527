import { CopyObjectCommand, DeleteObjectsCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { assertStorageKey, type Storage } from './storage';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Base of public object URLs, e.g. a CDN or the bucket's website endpoint. */
  publicUrl: string;
}

/** Any S3-compatible object store (AWS S3, MinIO, R2, ...). */
export class S3Storage implements Storage {
  private readonly client: S3Client;

  constructor(private readonly options: S3StorageOptions) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials:
        options.accessKeyId && options.secretAccessKey
          ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
          : undefined,
    });
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertStorageKey(key);
    await this.client.send(
      new PutObjectCommand({ Bucket: this.options.bucket, Key: key, Body: body, ContentType: contentType }),
    );
  }

  async get(key: string): Promise<Buffer> {
    assertStorageKey(key);
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
    return Buffer.from(await object.Body!.transformToByteArray());
  }

  /** Copied inside the bucket by the store itself. */
  async copy(from: string, to: string): Promise<void> {
    assertStorageKey(from);
    assertStorageKey(to);
    await this.client.send(
      new CopyObjectCommand({ Bucket: this.options.bucket, Key: to, CopySource: `${this.options.bucket}/${from}` }),
    );
  }

  async delete(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    keys.forEach(assertStorageKey);
    await this.client.send(
      new DeleteObjectsCommand({
        Bucket: this.options.bucket,
        Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
      }),
    );
  }

  publicUrl(key: string): string {
    assertStorageKey(key);
    return `${this.options.publicUrl.replace(/\/+$/, '')}/${key}`;
  }

  destroy(): void {
    this.client.destroy();
  }
}
