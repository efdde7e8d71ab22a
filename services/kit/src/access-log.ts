/**
 * Access logs of every app (issue 11): one line per answered request on the
 * app's logger — method, path (no query string), status, route pattern,
 * response time in ms — at ACCESS_LOG_LEVEL (default `info`). The line goes
 * through the logger's asynchronous destination (./logger), so it never
 * blocks on a write (issue 10); when the level is below the logger's
 * (`ACCESS_LOG_LEVEL=debug` with `LOG_LEVEL=info`, or `silent`), no line is
 * built and a request costs nothing.
 *
 * The line is written by the kit's request-metrics middleware when the
 * answer is sent (./metrics `httpMetrics`: one listener and one route lookup
 * per request for both), in pino-http's shape (`req`, `res`, `responseTime`,
 * `reqId`, message `request`) but without pino-http's two child loggers per
 * request, which cost about 0.1 ms of CPU per request (docs/benchmarks.md).
 * Headers are never logged (they carry access tokens and cookies); errors
 * are logged apart, with their cause, by the central error handler.
 */
import type { Request, Response } from 'express';
import type { Logger } from './logger';

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
 * Writes the access line of one request.
 * @param route the request's route pattern (./metrics `routeOf`)
 * @param responseTimeMs from the request's arrival to its answer (or to the connection closing)
 * @param completed false when the connection closed before the answer was sent (`aborted: true`)
 */
export type AccessLine = (
  req: Request,
  res: Response,
  route: string,
  responseTimeMs: number,
  completed: boolean,
) => void;

/**
 * The access-line writer of an app.
 * @param logger the app's logger (lines carry its `service` and a `component: 'access'`)
 * @param level the level of each line; default {@link accessLogLevelFromEnv}
 * @returns the writer, or undefined when `level` would not be written
 */
export function accessLog(
  logger: Logger,
  level: AccessLogLevel = accessLogLevelFromEnv(),
): AccessLine | undefined {
  if (level === 'silent' || !logger.isLevelEnabled(level)) return undefined;
  const access = logger.child({ component: 'access' });
  const write = access[level].bind(access);
  let lastId = 0;
  return (req, res, route, responseTimeMs, completed) => {
    lastId = (lastId + 1) & 0x7fffffff;
    const url = req.originalUrl;
    const query = url.indexOf('?');
    write(
      {
        reqId: lastId,
        req: { method: req.method, path: query === -1 ? url : url.slice(0, query) },
        res: { statusCode: res.statusCode },
        responseTime: Math.round(responseTimeMs),
        route,
        ...(completed ? {} : { aborted: true }),
      },
      'request',
    );
  };
}
