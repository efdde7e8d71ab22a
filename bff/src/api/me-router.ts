/**
 * `/api/me`, the signed-in user's own record and applications (docs/api.md):
 * GET and PATCH /api/me, POST /api/me/onboarding, POST /api/me/onboarding/brand,
 * PUT /api/me/interests, POST /api/me/team (join a brand from an invitation),
 * GET /api/me/applications. Mounted ahead of the kit's JSON body parser, so
 * its hottest read is answered before any parsing; its writes parse their
 * own JSON body.
 */
import { Router, type RequestHandler } from 'express';
import { bearerOf, callerOf } from '@raly/service-kit/auth';
import { jsonBody } from '@raly/service-kit/http';
import type { Authenticator } from '../auth/keycloak';
import { updateAccount } from '../domain/account-form';
import { completeBrandStep } from '../domain/brand-onboarding';
import {
  completeOnboardingStep,
  getMeJson,
  updateInterests,
  type MeDependencies,
} from '../domain/me';
import type { OffersDependencies } from '../domain/offers';
import type { PasswordDependencies } from '../domain/password';
import { joinTeam } from '../domain/teams';
import { myApplicationsRouter } from './offers-router';
import type { RateLimits } from './rate-limit';

/**
 * @param dependencies the services, read model and Keycloak behind the routes
 * @param limits the rate limits; an e-mail change's `currentPassword` check
 *   spends the user's password-check budget (shared with verify-password)
 */
export function meRouter(
  authenticator: Authenticator,
  dependencies: PasswordDependencies & OffersDependencies,
  limits: Pick<RateLimits, 'passwordCheck'>,
): Router {
  return Router()
    .get('/', getMe(authenticator, dependencies))
    .use('/applications', myApplicationsRouter(authenticator, dependencies))
    .use(jsonBody(), authenticator.requireUser)
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
    .post('/onboarding/brand', async (request, response) => {
      response.json({
        data: await completeBrandStep(dependencies, callerOf(request), request.body),
      });
    })
    .post('/team', async (request, response) => {
      response.json({ data: await joinTeam(dependencies, callerOf(request), request.body) });
    })
    .put('/interests', async (request, response) => {
      response.json({
        data: await updateInterests(dependencies, callerOf(request), request.body),
      });
    });
}

/**
 * GET /api/me, the hottest read: the token is verified (the kit's verifier,
 * cached per token) while the caller's stored snapshot is read from Redis
 * with the ended-session check, in one round trip; the snapshot is answered
 * only for a token still in force, and as stored, unparsed ({@link getMeJson}).
 * No role guard applies to this route, so keycloak-connect's `protect()`
 * (which would only let it through) is not run.
 */
function getMe(authenticator: Authenticator, dependencies: MeDependencies): RequestHandler {
  return async (request, response, next) => {
    try {
      const { caller, value: storedUser } = await authenticator.alongside(
        bearerOf(request.headers.authorization),
        (verified) => dependencies.records.getUserJson(verified.userId),
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
