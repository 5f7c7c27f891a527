import type { RequestValidationError } from '@ts-rest/fastify';
import type { ZodError } from 'zod';
import { ApiError } from '@doppel/core/errors';

const MAX_ISSUES = 5;

function describe(error: ZodError | null, where: string): string[] {
  return (error?.issues ?? []).map((issue) => `${issue.path.join('.') || where}: ${issue.message}`);
}

/**
 * Turns ts-rest's request validation failure into validation_error, naming each failing field,
 * e.g. "limit: Number must be less than or equal to 100".
 */
export function validationFailure(error: RequestValidationError): never {
  const problems = [
    ...describe(error.pathParams, 'path'),
    ...describe(error.query, 'query'),
    ...describe(error.headers, 'headers'),
    ...describe(error.body, 'body'),
  ];
  const shown = problems.slice(0, MAX_ISSUES).join('; ');
  const more = problems.length > MAX_ISSUES ? ` (and ${problems.length - MAX_ISSUES} more)` : '';
  throw new ApiError('validation_error', `${shown}${more}`);
}
