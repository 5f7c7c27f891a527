import type { IncomingMessage } from 'node:http';

export interface BodyCap {
  /** The body is aborted as soon as it grows past this, whatever Content-Length says. */
  readonly maxBytes: number;
  readonly tooLarge: (what: 'Content-Length' | 'streamed body') => Error;
  /** The connection closed before the body ended. */
  readonly broken: () => Error;
  /** Asked for every chunk before it is kept; false aborts the body with `refused()`. */
  readonly admit?: (bytes: number) => boolean;
  readonly refused?: () => Error;
}

/**
 * The whole body of a response from a host we do not trust, never holding more than the cap:
 * a declared length over it is refused before reading, a stream that grows past it is cut.
 */
export function readCappedBody(res: IncomingMessage, cap: BodyCap): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (Number(res.headers['content-length']) > cap.maxBytes) {
      res.destroy();
      reject(cap.tooLarge('Content-Length'));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap.maxBytes) res.destroy(cap.tooLarge('streamed body'));
      else if (cap.admit && !cap.admit(chunk.length)) res.destroy(cap.refused?.());
      else chunks.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(chunks, size)));
    res.on('error', reject);
    res.on('close', () => {
      if (!res.complete) reject(cap.broken());
    });
  });
}
