/** `GET /users/me`, `PATCH /users/me` (docs/api.md): the caller's own record only. */
import { callerOf, requireAccessToken, type AccessTokenVerifier } from '@raly/service-kit/auth';
import { Router } from 'express';
import type { IdentityDependencies } from '../domain/dependencies';
import { getOwnUser, updateOwnUser } from '../domain/users';

export function usersRouter(deps: IdentityDependencies, verifyAccessToken: AccessTokenVerifier): Router {
  const router = Router();
  router.use('/users/me', requireAccessToken(verifyAccessToken));
  router.get('/users/me', async (req, res) => {
    res.json({ data: await getOwnUser(deps, callerOf(req).userId) });
  });
  router.patch('/users/me', async (req, res) => {
    res.json({ data: await updateOwnUser(deps, callerOf(req).userId, req.body) });
  });
  return router;
}
