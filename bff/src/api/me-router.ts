/**
 * The signed-in user's own record (docs/api.md): GET and PATCH /api/me,
 * POST /api/me/onboarding, PUT /api/me/interests.
 */
import { Router } from 'express';
import { callerOf } from '@raly/service-kit/auth';
import type { Authenticator } from '../auth/keycloak';
import { updateAccount } from '../domain/account-form';
import { completeOnboardingStep, getMe, updateInterests } from '../domain/me';
import type { PasswordDependencies } from '../domain/password';
import type { RateLimits } from './rate-limit';

/**
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
    .get('/', async (request, response) => {
      response.json({ data: await getMe(dependencies, callerOf(request)) });
    })
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
