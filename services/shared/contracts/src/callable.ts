/**
 * The callable protocol of spec §7–8: the client posts JSON `{data}` with a
 * bearer token; the answer is `{data}` on success or `{error: {status,
 * message}}` with a callable status code. A response without a data field
 * is read as `internal`.
 */
import { z } from 'zod';
import { lookupValueSchema } from './validation';

/** HTTP status → callable status code (spec §8). */
export const callableCodeByHttpStatus = {
  400: 'invalid-argument',
  401: 'unauthenticated',
  403: 'permission-denied',
  404: 'not-found',
  409: 'aborted',
  429: 'resource-exhausted',
  499: 'cancelled',
  500: 'internal',
  501: 'unimplemented',
  503: 'unavailable',
  504: 'deadline-exceeded',
} as const;

export type CallableCode = (typeof callableCodeByHttpStatus)[keyof typeof callableCodeByHttpStatus];

/**
 * The callable code for an HTTP status: the table's entry, else `internal`
 * (also for 2xx answers that lack a data field — see {@link readCallableResponse}).
 */
export function callableCodeFor(httpStatus: number): CallableCode {
  return (callableCodeByHttpStatus as Record<number, CallableCode>)[httpStatus] ?? 'internal';
}

/** The error of a failed call, with its callable code. */
export class CallableError extends Error {
  constructor(
    readonly code: CallableCode,
    message: string,
    readonly httpStatus: number,
  ) {
    super(message);
    this.name = 'CallableError';
  }
}

/**
 * Reads a callable answer.
 * @param httpStatus the HTTP status of the answer
 * @param body the parsed JSON body (or undefined when it was not JSON)
 * @returns the `data` field
 * @throws CallableError with the mapped code for non-2xx, or `internal` when
 *   a 2xx body has no `data` field
 */
export function readCallableResponse<T>(httpStatus: number, body: unknown): T {
  const record = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  if (httpStatus < 200 || httpStatus >= 300) {
    const error = record.error as { message?: unknown } | undefined;
    const message = typeof error?.message === 'string' ? error.message : 'Request failed';
    throw new CallableError(callableCodeFor(httpStatus), message, httpStatus);
  }
  if (!('data' in record))
    throw new CallableError('internal', 'Response is missing data', httpStatus);
  return record.data as T;
}

/**
 * Callables the BFF serves under `/api/callable/<name>`, with their request
 * schemas: each argument at most 255 characters, without control characters.
 */
export const callables = {
  checkEmailExists: z.object({ email: lookupValueSchema }),
  checkUsernameExists: z.object({ username: lookupValueSchema }),
} as const;
export type CallableName = keyof typeof callables;
