/**
 * `POST /password-resets` (sendResetPasswordLink) and
 * `POST /password-resets/confirm` (resetPassword), docs/api.md. No token:
 * the BFF calls them for a signed-out visitor and rate-limits them.
 */
import { Router } from 'express';
import {
  resetPassword,
  sendResetPasswordLink,
  type PasswordResetDependencies,
} from '../domain/password-reset';

export function passwordResetsRouter(deps: PasswordResetDependencies): Router {
  const router = Router();
  router.post('/password-resets', async (req, res) => {
    res.json({ data: await sendResetPasswordLink(deps, req.body) });
  });
  router.post('/password-resets/confirm', async (req, res) => {
    res.json({ data: await resetPassword(deps, req.body) });
  });
  return router;
}
