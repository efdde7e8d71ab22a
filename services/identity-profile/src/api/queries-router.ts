/** `POST /queries/check-email-exists`, `POST /queries/check-username-exists` (docs/api.md). */
import { callables } from '@raly/contracts/callable';
import { Router } from 'express';
import type { IdentityDependencies } from '../domain/dependencies';
import { emailExists, usernameExists } from '../domain/uniqueness';

export function queriesRouter(deps: IdentityDependencies): Router {
  const router = Router();
  router.post('/queries/check-email-exists', async (req, res) => {
    const { email } = callables.checkEmailExists.parse(req.body);
    res.json({ data: await emailExists(deps, email) });
  });
  router.post('/queries/check-username-exists', async (req, res) => {
    const { username } = callables.checkUsernameExists.parse(req.body);
    res.json({ data: await usernameExists(deps, username) });
  });
  return router;
}
