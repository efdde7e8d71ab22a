/**
 * The express end of the central error handler. REST routes answer
 * `{ error: { code, message, fields? } }` (docs/api.md); callables add
 * `status`, the callable code of the HTTP status (spec §8).
 */
import { callableCodeFor } from '@raly/contracts/callable';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { handleError, toErrorBody } from '@raly/service-kit/errors';
import { fromHttpClientError } from '@raly/service-kit/http';
import type { Logger } from '@raly/service-kit/logger';
import { failures } from '../errors/failures';

/** Marks the request as a callable so errors get the callable shape. */
export const markCallable: RequestHandler = (_request, response, next) => {
  response.locals.callable = true;
  next();
};

/** @param logger where unexpected failures are logged */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (error: unknown, request, response, _next) => {
    // Body parser and router refusals (bad JSON, too large, bad encoding, `%ff`) are the
    // caller's mistake: the kit maps them, as in every service.
    const appError = handleError(fromHttpClientError(error), logger, {
      route: `${request.method} ${request.originalUrl}`,
    });
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
