/**
 * Access logs of every app through pino-http: one line per
 * answered request on the app's logger — method, path (no query string),
 * status, route pattern, response time in ms — at ACCESS_LOG_LEVEL (default
 * `info`). The line goes through the logger's asynchronous destination
 * (./logger), so it never blocks on a write; when the level is
 * below the logger's (`ACCESS_LOG_LEVEL=debug` with `LOG_LEVEL=info`, or
 * `silent`), pino-http is not even mounted and a request costs nothing.
 * Headers are never logged (they carry access tokens and cookies); errors
 * are logged apart, with their cause, by the central error handler.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from './logger';
import { routeOf } from './metrics';

/** The pino levels an access line may take, and `silent` for none. */
export const ACCESS_LOG_LEVELS = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
] as const;
export type AccessLogLevel = (typeof ACCESS_LOG_LEVELS)[number];

/**
 * Reads ACCESS_LOG_LEVEL.
 * @param env default `process.env`
 * @returns its level, `info` when unset
 * @throws Error naming the variable when it is not a pino level or `silent`
 */
export function accessLogLevelFromEnv(
  env: Record<string, string | undefined> = process.env,
): AccessLogLevel {
  const value = env.ACCESS_LOG_LEVEL?.trim() || 'info';
  if (!(ACCESS_LOG_LEVELS as readonly string[]).includes(value))
    throw new Error(
      `Invalid configuration:\n  ACCESS_LOG_LEVEL: expected one of ${ACCESS_LOG_LEVELS.join(', ')}; got ${value}`,
    );
  return value as AccessLogLevel;
}

/**
 * The access-log middleware.
 * @param logger the app's logger (lines carry its `service` and a `component: 'access'`)
 * @param level the level of each line; default {@link accessLogLevelFromEnv}
 * @returns express middleware, or undefined when `level` would not be written
 */
export function accessLog(
  logger: Logger,
  level: AccessLogLevel = accessLogLevelFromEnv(),
): RequestHandler | undefined {
  if (level === 'silent' || !logger.isLevelEnabled(level)) return undefined;
  return pinoHttp({
    logger: logger.child({ component: 'access' }),
    customLogLevel: () => level,
    // No per-request child logger is handed to handlers (req.log): nothing reads it.
    quietReqLogger: true,
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request',
    customSuccessObject: (req, _res, line) => ({ ...line, route: routeOf(req as Request) }),
    customErrorObject: (req, _res, _error, line) => ({ ...line, route: routeOf(req as Request) }),
    serializers: {
      req: (req: IncomingMessage & { url?: string }) => ({
        method: req.method,
        path: (req.url ?? '').split('?')[0],
      }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
    wrapSerializers: false,
  }) as unknown as RequestHandler;
}
