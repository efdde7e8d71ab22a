/** `POST /accounts` (docs/api.md): registration, no token. */
import { Router } from 'express';
import { createAccount } from '../domain/accounts';
import type { IdentityDependencies } from '../domain/dependencies';

export function accountsRouter(deps: IdentityDependencies): Router {
  const router = Router();
  router.post('/accounts', async (req, res) => {
    res.status(201).json({ data: await createAccount(deps, req.body) });
  });
  return router;
}
