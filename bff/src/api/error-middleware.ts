/**
 * The express end of the central error handler. REST routes answer
 * `{ error: { code, message, fields? } }` (docs/api.md); callables add
 * `status`, the callable code of the HTTP status (spec §8).
 */
import { callableCodeFor } from '@raly/contracts/callable';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { failures } from '../errors/app-error';
import { handleError } from '../errors/handle-error';
import type { Logger } from '../logger';

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
      logger,
      isBodyParseError(error) ? failures.invalidArgument('Request body is not JSON.') : error,
      { route: `${request.method} ${request.originalUrl}` },
    );
    const body: Record<string, unknown> = { code: appError.code, message: appError.message };
    if (appError.fields) body.fields = appError.fields;
    if (response.locals.callable) body.status = callableCodeFor(appError.httpStatus);
    response.status(appError.httpStatus).json({ error: body });
  };
}

/** 404 for every path no router answered. */
export const notFound: RequestHandler = () => {
  throw failures.notFound();
};
