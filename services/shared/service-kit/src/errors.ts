/**
 * The one error type of every service and the one place that turns any
 * thrown value into a logged, classified AppError. Express (see
 * `./http`), Kafka consumers (see `./consumer`) and socket.io handlers all
 * go through {@link handleError}, so an error is logged the same way
 * wherever it happens. Domain code throws AppError and never imports HTTP:
 * the HTTP status lives here, in one table keyed by the error code.
 */
import { ZodError } from 'zod';
import type { Logger } from './logger';

/** Error code → HTTP status. Codes are the `error.code` field of docs/api.md. */
export const httpStatusByCode = {
  'invalid-argument': 400,
  unauthenticated: 401,
  'permission-denied': 403,
  'not-found': 404,
  'username-taken': 409,
  'email-taken': 409,
  conflict: 409,
  /** A message that looks like it holds contact details, sent without its author's confirmation. */
  'contact-details': 409,
  'payload-too-large': 413,
  'unsupported-media-type': 415,
  'resource-exhausted': 429,
  internal: 500,
  unimplemented: 501,
  unavailable: 503,
} as const;
export type ErrorCode = keyof typeof httpStatusByCode;

/**
 * The words of the failures the kit refuses or reports by itself. An app passes
 * its own to its HTTP edge (`failureMessages` of runApp/runService; Raly's sit
 * in contracts' message table), which answers such a failure in them; anything
 * else (a log line, a dead letter's reason) keeps {@link neutralFailureMessages}.
 */
export interface FailureMessages {
  /** A request refused with no better word: a value the database refuses, a body that cannot be read. */
  badRequest: string;
  /** No route answers the path. */
  notFound: string;
  /** A failure on our side: a bug, or the database, Keycloak or a service behind away. */
  internal: string;
}

export const neutralFailureMessages: FailureMessages = {
  badRequest: 'The request is not valid.',
  notFound: 'Not found.',
  internal: 'Something went wrong. Try again.',
};

export interface AppErrorOptions {
  /** False for bugs and broken infrastructure: logged loudly, never shown as-is. Default true. */
  isTrusted?: boolean;
  cause?: unknown;
  /** Per-field messages for `invalid-argument` (dotted paths). */
  fields?: Record<string, string>;
  /** Overrides the status of the code table (rarely needed). */
  httpStatus?: number;
  /** A failure of the kit's own: the caller reads the app's words for it, not `message`. */
  failure?: keyof FailureMessages;
}

/** An expected (trusted) or unexpected failure, with the code and message the caller sees. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly httpStatus: number;
  readonly isTrusted: boolean;
  readonly fields: Record<string, string> | undefined;
  readonly failure: keyof FailureMessages | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.httpStatus = options.httpStatus ?? httpStatusByCode[code];
    this.isTrusted = options.isTrusted ?? true;
    this.fields = options.fields;
    this.failure = options.failure;
  }
}

/**
 * A failure of the kit's own, in the kit's neutral words until an app's edge
 * says it in its own ({@link inWordsOf}).
 */
export function kitFailure(
  code: ErrorCode,
  failure: keyof FailureMessages,
  options: Omit<AppErrorOptions, 'failure'> = {},
): AppError {
  return new AppError(code, neutralFailureMessages[failure], { ...options, failure });
}

/**
 * The error as the caller reads it: a failure of the kit's own
 * ({@link AppError.failure}) in the app's words, any other as it is.
 */
export function inWordsOf(error: AppError, messages: FailureMessages): AppError {
  if (!error.failure || error.message === messages[error.failure]) return error;
  return new AppError(error.code, messages[error.failure], {
    isTrusted: error.isTrusted,
    cause: error.cause,
    fields: error.fields,
    httpStatus: error.httpStatus,
    failure: error.failure,
  });
}

/** The JSON error body of docs/api.md. */
export interface ErrorBody {
  error: { code: string; message: string; fields?: Record<string, string> };
}

/**
 * The error code for an HTTP status: the first code of {@link httpStatusByCode}
 * with that status, else `invalid-argument` for another 4xx and `internal` for the rest.
 * @param httpStatus e.g. 415
 */
export function errorCodeFor(httpStatus: number): ErrorCode {
  const entry = Object.entries(httpStatusByCode).find(([, status]) => status === httpStatus);
  if (entry) return entry[0] as ErrorCode;
  return httpStatus >= 400 && httpStatus < 500 ? 'invalid-argument' : 'internal';
}

/** Postgres SQLSTATE class 22 "data exception" (22001 too long, 22021 NUL byte, 22P02 bad uuid…). */
const DATA_EXCEPTION = /^22[0-9A-Z]{3}$/;

/** The `cause` of a `DriverAdapterError` that `@prisma/adapter-pg` raised (`convertDriverError`). */
interface DriverAdapterCause {
  kind?: unknown;
  originalCode?: unknown;
  code?: unknown;
}

/**
 * The adapter's account of a database error: `meta.driverAdapterError.cause`
 * of a Prisma error raised through `@prisma/adapter-pg`, or `cause` of the
 * adapter's own `DriverAdapterError` when it reaches the caller unwrapped.
 * @returns e.g. `{ kind: 'postgres', originalCode: '57P01', … }` or
 *   `{ kind: 'DatabaseNotReachable', host, port }`, or undefined for anything else
 */
function driverAdapterCauseOf(error: object): DriverAdapterCause | undefined {
  const candidate = error as {
    name?: unknown;
    cause?: unknown;
    meta?: { driverAdapterError?: { cause?: unknown } };
  };
  const cause =
    candidate.meta?.driverAdapterError?.cause ??
    (candidate.name === 'DriverAdapterError' ? candidate.cause : undefined);
  return cause && typeof cause === 'object' ? (cause as DriverAdapterCause) : undefined;
}

/**
 * The SQLSTATE of a database error, wherever the driver put it: `code` of a
 * pg `DatabaseError`, or `originalCode` of the `@prisma/adapter-pg` cause
 * (`meta.driverAdapterError.cause` of a Prisma error, `cause` of a bare
 * `DriverAdapterError`).
 * @returns e.g. `22021`, or undefined for anything else (a socket failure the
 *   adapter mapped to a kind of its own has none)
 */
export function sqlStateOf(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const candidate = error as { code?: unknown; severity?: unknown };
  // pg's DatabaseError carries `severity`; node's system errors (`ECONNREFUSED`) do not.
  if (typeof candidate.code === 'string' && typeof candidate.severity === 'string')
    return candidate.code;
  const cause = driverAdapterCauseOf(error);
  const code = cause?.originalCode ?? cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * True when the database refused a value the caller sent (SQLSTATE class 22:
 * a NUL byte, a string too long for its column, text that is not a uuid):
 * the caller's mistake, answered 400, never a 500.
 */
export function isDatabaseDataError(error: unknown): boolean {
  return DATA_EXCEPTION.test(sqlStateOf(error) ?? '');
}

/**
 * SQLSTATEs of a database that is away for the moment, not of a bad request:
 * class 08 "connection exception", 57P01–57P03 (the server ended the
 * connection: `pg_terminate_backend`, a shutdown, a crash restart; or cannot
 * take connections yet) and 53300 (too many connections).
 */
const DATABASE_AWAY = /^(08[0-9A-Z]{3}|57P0[1-3]|53300)$/;
/** node's system error codes of a connection that failed or dropped (on pg's socket). */
const CONNECTION_FAILURES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
]);

/**
 * The kinds `@prisma/adapter-pg` gives a connection that failed
 * (`mapSocketError`: ECONNREFUSED/ENOTFOUND → DatabaseNotReachable,
 * ECONNRESET → ConnectionClosed, ETIMEDOUT → SocketTimeout; SQLSTATE 53300 →
 * TooManyConnections). The socket kinds carry no `originalCode`, so no
 * SQLSTATE tells them.
 */
const ADAPTER_CONNECTION_KINDS = new Set([
  'ConnectionClosed',
  'DatabaseNotReachable',
  'SocketTimeout',
  'TooManyConnections',
]);

/**
 * Prisma's error codes (https://www.prisma.io/docs/orm/reference/error-reference)
 * of a database away or too busy for the moment: P1001 cannot reach the
 * server, P1002 reached but timed out, P1008 operation timed out, P1017 the
 * server closed the connection, P2024 timed out fetching a connection from
 * the pool, P2037 too many connections, and P2028 the interactive
 * transaction API (no connection free within `maxWait`, a transaction past
 * its `timeout`: a pool or database too busy). P2028 is also what a query on
 * a transaction already committed or rolled back gets (a forgotten `await`,
 * a bug), with no field that tells it apart; it is answered 503 as well, and
 * logged at error level with its cause like every 5xx.
 */
const PRISMA_DATABASE_AWAY = new Set([
  'P1001',
  'P1002',
  'P1008',
  'P1017',
  'P2024',
  'P2028',
  'P2037',
]);

/**
 * pg's own errors of a connection that failed, which carry no `code` and no
 * `severity`, nothing but their message: pg (lib/client.js) and
 * pg-pool (index.js) raise them as bare `new Error(text)`, and the adapter
 * rethrows them unmapped (its `convertDriverError` knows coded errors only),
 * so Prisma hands them on as they are. Their fixed texts are the only mark
 * they have; any other text, even one that contains these, is not matched.
 */
const PG_UNCODED_CONNECTION_FAILURES = new Set([
  // The socket closed with a query in flight and no message from the server.
  'Connection terminated unexpectedly',
  // The next query on a connection that already failed (e.g. ended by
  // pg_terminate_backend between two statements of a transaction).
  'Client has encountered a connection error and is not queryable',
  // pg-pool: no connection free within `connectionTimeoutMillis`.
  'timeout exceeded when trying to connect',
  // pg-pool: a new connection did not open within `connectionTimeoutMillis`.
  'Connection terminated due to connection timeout',
]);

/** The `P…` code of a Prisma error (`code` of a request error, `errorCode` of an initialization error). */
function prismaCodeOf(error: object): string | undefined {
  const candidate = error as { clientVersion?: unknown; code?: unknown; errorCode?: unknown };
  // Every Prisma client error carries `clientVersion`; a pg or node error never does.
  if (typeof candidate.clientVersion !== 'string') return undefined;
  const code = candidate.code ?? candidate.errorCode;
  return typeof code === 'string' ? code : undefined;
}

/**
 * True when a query failed because the database could not be reached, ended
 * the connection or had no connection to give in time: a transient failure
 * answered 503 `unavailable`, so that clients and the chaos run tell it from
 * a bug. Recognised, structured fields first:
 * - a SQLSTATE of DATABASE_AWAY ({@link sqlStateOf}; e.g. 57P01 of a query
 *   running when `pg_terminate_backend` ended its connection);
 * - a `@prisma/adapter-pg` cause kind of ADAPTER_CONNECTION_KINDS (e.g.
 *   `DatabaseNotReachable` of Prisma's P1001);
 * - a Prisma code of PRISMA_DATABASE_AWAY (e.g. P2028, no connection free
 *   within the transaction's `maxWait`);
 * - a node system error of CONNECTION_FAILURES (`syscall` and `code`, e.g.
 *   ECONNREFUSED from pg's socket);
 * - and, having no field to read, pg's bare connection errors by their exact
 *   text (PG_UNCODED_CONNECTION_FAILURES).
 * @param error whatever a query, a transaction or a pool threw
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  if (DATABASE_AWAY.test(sqlStateOf(error) ?? '')) return true;
  const kind = driverAdapterCauseOf(error)?.kind;
  if (typeof kind === 'string' && ADAPTER_CONNECTION_KINDS.has(kind)) return true;
  if (PRISMA_DATABASE_AWAY.has(prismaCodeOf(error) ?? '')) return true;
  const candidate = error as { code?: unknown; syscall?: unknown };
  if (typeof candidate.syscall === 'string' && typeof candidate.code === 'string')
    return CONNECTION_FAILURES.has(candidate.code);
  return (
    error instanceof Error &&
    candidate.code === undefined &&
    PG_UNCODED_CONNECTION_FAILURES.has(error.message)
  );
}

/**
 * ioredis's own errors of a Redis that is away, which carry no code, only
 * their fixed text: a command in flight or queued when the connection closed
 * (`CONNECTION_CLOSED_ERROR_MSG`), and a command that waited through
 * `maxRetriesPerRequest` reconnection attempts (`MaxRetriesPerRequestError`,
 * whose class name a bundle may rename, so its text is read).
 */
const REDIS_CONNECTION_CLOSED = 'Connection is closed.';
const REDIS_MAX_RETRIES = /^Reached the max retries per request limit \(which is \d+\)\./;

/**
 * True when a Redis command (ioredis) failed because Redis is away for the
 * moment: the connection closed under it, it ran out of reconnection
 * attempts, or the socket could not connect (a node system error of
 * CONNECTION_FAILURES). Answered 503 `unavailable` like a database away
 * ({@link isDatabaseUnavailable}): the read model, rate limits and session
 * revocations of the BFF live in Redis, and a restart of it must not read as
 * a bug (500).
 * @param error whatever an ioredis command threw
 */
export function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.message === REDIS_CONNECTION_CLOSED || REDIS_MAX_RETRIES.test(error.message))
    return true;
  const candidate = error as { code?: unknown; syscall?: unknown };
  return (
    typeof candidate.syscall === 'string' &&
    typeof candidate.code === 'string' &&
    CONNECTION_FAILURES.has(candidate.code)
  );
}

/** Postgres SQLSTATE `unique_violation`. */
const UNIQUE_VIOLATION = '23505';

/**
 * The unique constraint a write broke, by its Postgres name (e.g.
 * `users_email_key`, `usernames_pkey`), wherever the driver put it: `constraint`
 * of a pg `DatabaseError`, or `meta.driverAdapterError.cause.constraint.index`
 * of a Prisma P2002 raised through `@prisma/adapter-pg`. Repositories map the
 * name to the field that clashed; never read an error's message text.
 * @returns `{ constraint }` (null when the driver did not name it), or
 *   undefined when the error is not a unique violation
 */
export function uniqueViolationOf(error: unknown): { constraint: string | null } | undefined {
  if (sqlStateOf(error) !== UNIQUE_VIOLATION) return undefined;
  const candidate = error as {
    constraint?: unknown;
    meta?: { driverAdapterError?: { cause?: { constraint?: { index?: unknown } } } };
  };
  const name = candidate.constraint ?? candidate.meta?.driverAdapterError?.cause?.constraint?.index;
  return { constraint: typeof name === 'string' ? name : null };
}

/**
 * The AppError of an operation that failed for a reason the caller cannot
 * fix, with the spec's message for it (e.g. 'There was a problem updating
 * your account. Try again.', spec §8): `unavailable` (503, worth trying
 * again) when the cause is a database or Redis away for the moment
 * ({@link isDatabaseUnavailable}, {@link isRedisUnavailable}) or an `unavailable` AppError of a service
 * behind, else `internal` (500). Both untrusted: the cause is logged.
 * @param message what the caller reads
 * @param cause what failed
 */
export function failedBecauseOf(message: string, cause: unknown): AppError {
  const away =
    isDatabaseUnavailable(cause) ||
    isRedisUnavailable(cause) ||
    (cause instanceof AppError && cause.code === 'unavailable');
  return new AppError(away ? 'unavailable' : 'internal', message, { isTrusted: false, cause });
}

/**
 * Classifies any thrown value as an AppError: AppError as is; ZodError as
 * `invalid-argument` with the first message per field (dotted paths); a
 * database data exception (SQLSTATE class 22) as `invalid-argument`
 * `badRequest`; a database or Redis away for the moment
 * ({@link isDatabaseUnavailable}, {@link isRedisUnavailable}) as an untrusted
 * `unavailable` (503) `internal`; anything else as an
 * untrusted `internal` (500) `internal` ({@link FailureMessages}).
 */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) {
    const fields: Record<string, string> = {};
    for (const issue of error.issues) fields[issue.path.join('.')] ??= issue.message;
    const first = Object.values(fields)[0];
    if (first === undefined) return kitFailure('invalid-argument', 'badRequest', { cause: error });
    return new AppError('invalid-argument', first, { fields, cause: error });
  }
  if (isDatabaseDataError(error))
    return kitFailure('invalid-argument', 'badRequest', { cause: error });
  const options = { isTrusted: false, cause: error };
  if (isDatabaseUnavailable(error) || isRedisUnavailable(error))
    return kitFailure('unavailable', 'internal', options);
  return kitFailure('internal', 'internal', options);
}

/**
 * The central error handler: classifies, then logs (untrusted and 5xx at
 * error level with the cause, trusted 4xx at info).
 * @param error whatever was thrown
 * @param logger where to log; `context` is merged into the log line
 * @returns the classified error, for the caller to answer with
 */
export function handleError(
  error: unknown,
  logger: Logger,
  context: Record<string, unknown> = {},
): AppError {
  const appError = toAppError(error);
  if (!appError.isTrusted || appError.httpStatus >= 500) {
    logger.error(
      { ...context, err: appError.cause ?? appError, code: appError.code },
      appError.message,
    );
  } else {
    logger.info({ ...context, code: appError.code }, appError.message);
  }
  return appError;
}

/** The body docs/api.md prescribes for `error`. */
export function toErrorBody(error: AppError): ErrorBody {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.fields ? { fields: error.fields } : {}),
    },
  };
}
