/**
 * `POST /password-resets` (sendResetPasswordLink) and
 * `POST /password-resets/confirm` (resetPassword), docs/api.md. Internal
 * endpoints: only with the service token (the BFF calls them for a
 * signed-out visitor and rate-limits them).
 */
import { requireServiceToken } from '@raly/service-kit/internal';
import { Router } from 'express';
import {
  resetPassword,
  sendResetPasswordLink,
  type PasswordResetDependencies,
} from '../domain/password-reset';

/** @param serviceToken `INTERNAL_SERVICE_TOKEN`; calls without it answer 401 */
export function passwordResetsRouter(
  dependencies: PasswordResetDependencies,
  serviceToken: string,
): Router {
  const router = Router();
  router.use('/password-resets', requireServiceToken(serviceToken));
  router.post('/password-resets', async (req, res) => {
    res.json({ data: await sendResetPasswordLink(dependencies, req.body) });
  });
  router.post('/password-resets/confirm', async (req, res) => {
    res.json({ data: await resetPassword(dependencies, req.body) });
  });
  return router;
}
