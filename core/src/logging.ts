import type { FastifyRequest } from 'fastify';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type { Config } from './config';

const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi;
const API_KEY = /\bdpl_[A-Za-z0-9_-]+/g;

/** Removes URL user-info and anything shaped like an API key from text bound for the logs. */
export function scrubSecrets(text: string): string {
  return text.replace(URL_CREDENTIALS, '$1[redacted]@').replace(API_KEY, 'dpl_[redacted]');
}

/**
 * The process's one logger, shared by the API and the job workers: structured JSON, with the
 * request id on every line of a request. Requests are logged as method, path
 * and address only: never headers (Authorization), never bodies. Redaction guards against a
 * header or body object being logged by mistake.
 */
export function createLogger(config: Config, stream?: NodeJS.WritableStream): Logger {
  const options: LoggerOptions = {
    level: config.logLevel,
    redact: {
      paths: ['headers', 'body', 'req.headers', 'req.body', '*.authorization', '*.apiKey', '*.databaseUrl'],
      censor: '[redacted]',
    },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: scrubSecrets(request.url),
        remoteAddress: request.ip,
      }),
      res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
      err: (error: Error & { code?: unknown }) => ({
        type: error.name,
        code: error.code,
        message: scrubSecrets(String(error.message)),
        stack: scrubSecrets(error.stack ?? ''),
      }),
    },
  };
  return stream ? pino(options, stream as DestinationStream) : pino(options);
}
