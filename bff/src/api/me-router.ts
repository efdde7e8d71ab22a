/**
 * The signed-in user's own record (docs/api.md): GET and PATCH /api/me,
 * POST /api/me/onboarding, PUT /api/me/interests.
 */
import { Router, type Response } from 'express';
import { userOf, type Authenticator } from '../auth/keycloak';
import { updateAccount } from '../domain/account-form';
import { completeOnboardingStep, getMe, updateInterests } from '../domain/me';
import type { PasswordDependencies } from '../domain/password';
import { bffErrors } from '../domain/errors';
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
  const currentUser = (response: Response) => {
    const user = userOf(response);
    if (!user) throw bffErrors.unauthenticated();
    return user;
  };
  return Router()
    .use(authenticator.requireUser)
    .get('/', async (_request, response) => {
      response.json({ data: await getMe(dependencies, currentUser(response)) });
    })
    .patch('/', async (request, response) => {
      const account = {
        ...dependencies,
        revocations: authenticator.revocations,
        chargePasswordCheck: () => limits.passwordCheck(response),
      };
      response.json({
        data: await updateAccount(account, currentUser(response), request.body),
      });
    })
    .post('/onboarding', async (request, response) => {
      response.json({
        data: await completeOnboardingStep(dependencies, currentUser(response), request.body),
      });
    })
    .put('/interests', async (request, response) => {
      response.json({
        data: await updateInterests(dependencies, currentUser(response), request.body),
      });
    });
}
