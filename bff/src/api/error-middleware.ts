/**
 * The BFF's part of the kit's central error handler (`createHttpApp`'s
 * `errorBody`): REST routes answer `{ error: { code, message, fields? } }`
 * (docs/api.md); callables add `status`, the callable code of the HTTP
 * status (spec §8).
 */
import { callableCodeFor } from '@raly/contracts/callable';
import type { RequestHandler, Response } from 'express';
import { toErrorBody, type AppError } from '@raly/service-kit/errors';

/** Marks the request as a callable so errors get the callable shape. */
export const markCallable: RequestHandler = (_request, response, next) => {
  response.locals.callable = true;
  next();
};

/**
 * @param error the classified error
 * @param response whose `locals.callable` says whether the callable shape applies
 * @returns the error body, with `error.status` on callables
 */
export function callableErrorBody(error: AppError, response: Response): unknown {
  const body = toErrorBody(error);
  if (!response.locals.callable) return body;
  return { error: { ...body.error, status: callableCodeFor(error.httpStatus) } };
}
