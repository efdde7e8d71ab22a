/**
 * `POST /accounts` (docs/api.md): registration; `POST /accounts/members`:
 * registration from a brand's invitation. An internal endpoint: only
 * with the service token (the BFF calls it and rate-limits it).
 */
import { Router, type RequestHandler } from 'express';
import { createAccount } from '../domain/accounts';
import { createMemberAccount } from '../domain/teams';
import type { IdentityDependencies } from '../domain/dependencies';

/** @param internal the guard of the internal routes (kit `requireServiceCaller`): 401 without a valid caller token, 403 for a caller not allowed */
export function accountsRouter(
  dependencies: IdentityDependencies,
  internal: RequestHandler,
): Router {
  const router = Router();
  router.use('/accounts', internal);
  router.post('/accounts', async (req, res) => {
    res.status(201).json({ data: await createAccount(dependencies, req.body) });
  });
  router.post('/accounts/members', async (req, res) => {
    res.status(201).json({ data: await createMemberAccount(dependencies, req.body) });
  });
  return router;
}
