/**
 * The express end of the central error handler. REST routes answer
 * `{ error: { code, message, fields? } }` (docs/api.md); callables add
 * `status`, the callable code of the HTTP status (spec §8).
 */
import { callableCodeFor } from '@raly/contracts/callable';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { handleError, toErrorBody } from '@raly/service-kit/errors';
import type { Logger } from '@raly/service-kit/logger';
import { failures } from '../errors/failures';

/** Marks the request as a callable so errors get the callable shape. */
export const markCallable: RequestHandler = (_request, response, next) => {
  response.locals.callable = true;
  next();
};

/** A body that is not JSON is the caller's mistake, not ours. */
const isBodyParseError = (error: unknown) =>
  (error as { type?: unknown } | null)?.type === 'entity.parse.failed';

/** @param logger where unexpected failures are logged */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (error: unknown, request, response, _next) => {
    const appError = handleError(
      isBodyParseError(error) ? failures.invalidArgument('Request body is not JSON.') : error,
      logger,
      { route: `${request.method} ${request.originalUrl}` },
    );
    const body = toErrorBody(appError);
    const callable = response.locals.callable
      ? { status: callableCodeFor(appError.httpStatus) }
      : {};
    response.status(appError.httpStatus).json({ error: { ...body.error, ...callable } });
  };
}

/** 404 for every path no router answered. */
export const notFound: RequestHandler = () => {
  throw failures.notFound();
};
