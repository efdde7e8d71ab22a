/**
 * `GET /public/users/:username` (anyone, no token): a creator's public profile; 404 for an
 * unknown username, 404 'This creator is unavailable.' for a suspended creator.
 */
import { Router } from 'express';
import type { IdentityDependencies } from '../domain/dependencies';
import { getPublicCreator } from '../domain/public-profiles';

/** @returns the router serving `GET /public/users/:username` (no token, no service token) */
export function publicUsersRouter(dependencies: Pick<IdentityDependencies, 'users'>): Router {
  return Router().get('/public/users/:username', async (req, res) => {
    res.json({ data: await getPublicCreator(dependencies, req.params.username) });
  });
}
