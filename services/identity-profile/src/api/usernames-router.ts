/**
 * `POST /usernames/claim`, `POST /usernames/release` (docs/api.md "Internal
 * endpoints"): services only, with the `x-raly-service-token` header; the
 * BFF never proxies them.
 */
import { Router, type RequestHandler } from 'express';
import type { IdentityDependencies } from '../domain/dependencies';
import { claimUsername, releaseUsername } from '../domain/usernames';

export function usernamesRouter(
  dependencies: IdentityDependencies,
  internal: RequestHandler,
): Router {
  const router = Router();
  router.use('/usernames', internal);
  router.post('/usernames/claim', async (req, res) => {
    res.json({ data: await claimUsername(dependencies, req.body) });
  });
  router.post('/usernames/release', async (req, res) => {
    await releaseUsername(dependencies, req.body);
    res.json({ data: true });
  });
  return router;
}
