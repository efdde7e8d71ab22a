/**
 * `POST /queries/check-email-exists`, `POST /queries/check-username-exists`
 * (docs/api.md). Internal endpoints: only with the service token (the BFF's
 * callables call them and rate-limit them).
 */
import { callables } from '@raly/contracts/callable';
import { Router, type RequestHandler } from 'express';
import type { IdentityDependencies } from '../domain/dependencies';
import { emailExists } from '../domain/uniqueness';
import { usernameExists } from '../domain/usernames';

/** @param internal the guard of the internal routes (kit `requireServiceCaller`): 401 without a valid caller token, 403 for a caller not allowed */
export function queriesRouter(
  dependencies: IdentityDependencies,
  internal: RequestHandler,
): Router {
  const router = Router();
  router.use('/queries', internal);
  router.post('/queries/check-email-exists', async (req, res) => {
    const { email } = callables.checkEmailExists.parse(req.body);
    res.json({ data: await emailExists(dependencies, email) });
  });
  router.post('/queries/check-username-exists', async (req, res) => {
    const { username } = callables.checkUsernameExists.parse(req.body);
    res.json({ data: await usernameExists(dependencies, username) });
  });
  return router;
}
