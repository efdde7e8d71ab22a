/**
 * `POST /accounts` (docs/api.md): registration. An internal endpoint: only
 * with the service token (the BFF calls it and rate-limits it).
 */
import { requireServiceToken } from '@raly/service-kit/internal';
import { Router } from 'express';
import { createAccount } from '../domain/accounts';
import type { IdentityDependencies } from '../domain/dependencies';

/** @param serviceToken `INTERNAL_SERVICE_TOKEN`; calls without it answer 401 */
export function accountsRouter(dependencies: IdentityDependencies, serviceToken: string): Router {
  const router = Router();
  router.use('/accounts', requireServiceToken(serviceToken));
  router.post('/accounts', async (req, res) => {
    res.status(201).json({ data: await createAccount(dependencies, req.body) });
  });
  return router;
}
