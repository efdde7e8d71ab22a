/**
 * The signed-in user's own record (docs/api.md): GET and PATCH /api/me,
 * POST /api/me/onboarding, PUT /api/me/interests.
 */
import { Router, type RequestHandler } from 'express';
import { bearerOf, callerOf } from '@raly/service-kit/auth';
import type { Authenticator } from '../auth/keycloak';
import { updateAccount } from '../domain/account-form';
import {
  completeOnboardingStep,
  getMeJson,
  updateInterests,
  type MeDependencies,
} from '../domain/me';
import type { PasswordDependencies } from '../domain/password';
import type { RateLimits } from './rate-limit';

/**
 * GET /api/me, the hottest read (issue 10), mounted by the app ahead of the
 * body parser and `/api`'s routers: the token is verified (the kit's
 * verifier, cached per token) and the caller's stored snapshot is read from
 * Redis while the ended-session check runs, in one round trip; the snapshot
 * is answered only for a token still in force, and as stored, unparsed
 * ({@link getMeJson}). No role guard applies to this route, so
 * keycloak-connect's `protect()` (which would only let it through) is not run.
 */
export function getMeRoute(
  authenticator: Authenticator,
  dependencies: MeDependencies,
): RequestHandler {
  return async (request, response, next) => {
    try {
      const { caller, value: storedUser } = await authenticator.alongside(
        bearerOf(request.headers.authorization),
        (verified) => dependencies.records.getJson('user', verified.userId),
      );
      request.caller = caller;
      const body = await getMeJson(dependencies, caller, storedUser);
      response.setHeader('content-type', 'application/json; charset=utf-8');
      response.end(body);
    } catch (error) {
      next(error);
    }
  };
}

/**
 * The rest of `/api/me` (GET is {@link getMeRoute}, mounted ahead).
 * @param limits the rate limits; an e-mail change's `currentPassword` check
 *   spends the user's password-check budget (shared with verify-password)
 */
export function meRouter(
  authenticator: Authenticator,
  dependencies: PasswordDependencies,
  limits: Pick<RateLimits, 'passwordCheck'>,
): Router {
  return Router()
    .use(authenticator.requireUser)
    .patch('/', async (request, response) => {
      const account = {
        ...dependencies,
        revocations: authenticator.revocations,
        chargePasswordCheck: () => limits.passwordCheck(request, response),
      };
      response.json({
        data: await updateAccount(account, callerOf(request), request.body),
      });
    })
    .post('/onboarding', async (request, response) => {
      response.json({
        data: await completeOnboardingStep(dependencies, callerOf(request), request.body),
      });
    })
    .put('/interests', async (request, response) => {
      response.json({
        data: await updateInterests(dependencies, callerOf(request), request.body),
      });
    });
}
