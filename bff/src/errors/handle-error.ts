/**
 * The central error handler: logs an error once, at the level its kind
 * deserves, and returns the AppError every transport answers with. Used by
 * the express error middleware, the Kafka consumer and socket.io.
 */
import type { Logger } from '../logger';
import { toAppError, type AppError } from './app-error';

/**
 * Logs and normalises an error.
 * @param logger where to log
 * @param error anything thrown
 * @param context what was being done (e.g. `{ route: 'GET /api/me' }`)
 * @returns the AppError to answer with
 */
export function handleError(logger: Logger, error: unknown, context: Record<string, unknown> = {}): AppError {
  const appError = toAppError(error);
  if (appError.trusted) {
    logger.info({ ...context, code: appError.code, status: appError.httpStatus }, appError.message);
  } else {
    logger.error({ ...context, err: appError.cause ?? appError, code: appError.code }, 'unexpected failure');
  }
  return appError;
}
