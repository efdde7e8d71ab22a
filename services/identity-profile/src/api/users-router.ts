/**
 * The caller's own record only (docs/api.md): `GET /users/me`,
 * `PATCH /users/me`, `PATCH /users/me/onboarding`, `PUT /users/me/interests`,
 * `POST /users/me/login-recorded`, `POST /users/me/team` (join a brand from an invitation),
 * `GET /users/me/handle` (the caller's member handle, for services acting as the caller).
 */
import { callerOf, requireAccessToken, type AccessTokenVerifier } from '@raly/service-kit/auth';
import { Router } from 'express';
import type { IdentityDependencies } from '../domain/dependencies';
import { completeOnboardingStep, recordLogin, updateInterests } from '../domain/onboarding';
import { joinTeam } from '../domain/teams';
import { getOwnUser, updateOwnUser } from '../domain/users';

export function usersRouter(
  dependencies: IdentityDependencies,
  verifyAccessToken: AccessTokenVerifier,
): Router {
  const router = Router();
  router.use('/users/me', requireAccessToken(verifyAccessToken));
  router.get('/users/me', async (req, res) => {
    res.json({ data: await getOwnUser(dependencies, callerOf(req).userId) });
  });
  router.get('/users/me/handle', async (req, res) => {
    const handle = await dependencies.usernames.memberHandleOf(callerOf(req).userId);
    res.json({ data: { handle } });
  });
  router.patch('/users/me', async (req, res) => {
    res.json({ data: await updateOwnUser(dependencies, callerOf(req), req.body) });
  });
  router.patch('/users/me/onboarding', async (req, res) => {
    res.json({ data: await completeOnboardingStep(dependencies, callerOf(req).userId, req.body) });
  });
  router.put('/users/me/interests', async (req, res) => {
    res.json({ data: await updateInterests(dependencies, callerOf(req).userId, req.body) });
  });
  router.post('/users/me/team', async (req, res) => {
    res.json({ data: await joinTeam(dependencies, callerOf(req).userId, req.body) });
  });
  router.post('/users/me/login-recorded', async (req, res) => {
    res.json({ data: await recordLogin(dependencies, callerOf(req).userId) });
  });
  return router;
}
