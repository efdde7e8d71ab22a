/**
 * `POST /usernames/claim`, `POST /usernames/release` (docs/api.md "Internal
 * endpoints"): services only, with the `x-raly-service-token` header; the
 * BFF never proxies them.
 */
import { requireServiceToken } from '@raly/service-kit/internal';
import { Router } from 'express';
import type { IdentityDependencies } from '../domain/dependencies';
import { claimUsername, releaseUsername } from '../domain/usernames';

export function usernamesRouter(dependencies: IdentityDependencies, serviceToken: string): Router {
  const router = Router();
  router.use('/usernames', requireServiceToken(serviceToken));
  router.post('/usernames/claim', async (req, res) => {
    res.json({ data: await claimUsername(dependencies, req.body) });
  });
  router.post('/usernames/release', async (req, res) => {
    await releaseUsername(dependencies, req.body);
    res.json({ data: true });
  });
  return router;
}
