/**
 * The one error type of the BFF. Domain code throws it with a stable code
 * and the spec's message; the central handlers (express, Kafka consumer,
 * socket.io) turn it into an answer or a log line.
 */
import { messages } from '@raly/contracts/messages';

export type AppErrorCode =
  | 'invalid-argument'
  | 'unauthenticated'
  | 'permission-denied'
  | 'not-found'
  | 'unavailable'
  | 'internal'
  // Codes of the owning service, forwarded unchanged (docs/api.md).
  | (string & {});

export interface AppErrorOptions {
  /** HTTP status the answer carries. */
  httpStatus: number;
  /** Trusted errors are expected failures; untrusted ones are bugs or outages. */
  trusted?: boolean;
  /** Per-field messages (validation). */
  fields?: Record<string, string>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly httpStatus: number;
  readonly trusted: boolean;
  readonly fields: Record<string, string> | undefined;

  constructor(
    readonly code: AppErrorCode,
    message: string,
    options: AppErrorOptions,
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.httpStatus = options.httpStatus;
    this.trusted = options.trusted ?? true;
    this.fields = options.fields;
  }
}

/** The expected failures of the BFF, each with its spec message (spec §8), in one table. */
export const failures = {
  incorrectLogin: (cause?: unknown) =>
    new AppError('unauthenticated', messages.incorrectLogin, { httpStatus: 401, cause }),
  unauthenticated: (cause?: unknown) =>
    new AppError('unauthenticated', 'unauthenticated', { httpStatus: 401, cause }),
  invalidArgument: (message: string, fields?: Record<string, string>) =>
    new AppError('invalid-argument', message, { httpStatus: 400, fields }),
  notFound: (message: string = messages.pageNotFound) =>
    new AppError('not-found', message, { httpStatus: 404 }),
  createAccountFailed: (cause?: unknown) =>
    new AppError('internal', messages.createAccountFailed, { httpStatus: 500, trusted: false, cause }),
  upstreamUnavailable: (what: string, cause?: unknown) =>
    new AppError('unavailable', messages.genericProblem, {
      httpStatus: 503,
      trusted: false,
      cause: cause ?? new Error(`${what} unavailable`),
    }),
} as const;

/**
 * Normalises anything thrown into an AppError.
 * @param error what was thrown
 * @returns the AppError itself, or an untrusted `internal` 500 wrapping it
 */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  return new AppError('internal', messages.genericProblem, {
    httpStatus: 500,
    trusted: false,
    cause: error,
  });
}
