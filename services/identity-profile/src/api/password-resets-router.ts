/**
 * `POST /password-resets` (sendResetPasswordLink) and
 * `POST /password-resets/confirm` (resetPassword), docs/api.md. Internal
 * endpoints: only with the service token (the BFF calls them for a
 * signed-out visitor and rate-limits them).
 */
import { Router, type RequestHandler } from 'express';
import {
  resetPassword,
  sendResetPasswordLink,
  type PasswordResetDependencies,
} from '../domain/password-reset';

/** @param internal the guard of the internal routes (kit `requireServiceCaller`): 401 without a valid caller token, 403 for a caller not allowed */
export function passwordResetsRouter(
  dependencies: PasswordResetDependencies,
  internal: RequestHandler,
): Router {
  const router = Router();
  router.use('/password-resets', internal);
  router.post('/password-resets', async (req, res) => {
    res.json({ data: await sendResetPasswordLink(dependencies, req.body) });
  });
  router.post('/password-resets/confirm', async (req, res) => {
    res.json({ data: await resetPassword(dependencies, req.body) });
  });
  return router;
}
