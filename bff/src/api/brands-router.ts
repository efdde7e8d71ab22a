/**
 * GET /api/brands/:username (public), PATCH /api/brand (the signed-in brand
 * user's brand) and the brand's team under /api/brand (docs/api.md "Teams").
 */
import { Router } from 'express';
import { callerOf } from '@raly/service-kit/auth';
import type { Authenticator } from '../auth/keycloak';
import { getPublicBrand, updateMyBrand, type BrandDependencies } from '../domain/brands';
import {
  changeInvitations,
  changeMember,
  chooseMyHandle,
  getMyTeam,
  listMyInvitations,
  previewInvitation,
} from '../domain/teams';
import type { RateLimits } from './rate-limit';

/** Mounted at `/brands`: anyone, signed in or not. */
export function publicBrandsRouter(dependencies: Pick<BrandDependencies, 'brands'>): Router {
  return Router().get('/:username', async (request, response) => {
    response.json({ data: await getPublicBrand(dependencies, request.params.username) });
  });
}

/** Mounted at `/invitations`: POST /preview, anyone (per client address, as callables). */
export function invitationsRouter(
  dependencies: Pick<BrandDependencies, 'identity'>,
  limits: Pick<RateLimits, 'callable'>,
): Router {
  return Router().post('/preview', limits.callable, async (request, response) => {
    response.json({ data: await previewInvitation(dependencies, request.body) });
  });
}

/** Mounted at `/brand`: the brand of the token's user. */
export function myBrandRouter(
  authenticator: Authenticator,
  dependencies: BrandDependencies,
): Router {
  return Router()
    .use(authenticator.requireUser)
    .patch('/', async (request, response) => {
      const caller = callerOf(request);
      response.json({ data: await updateMyBrand(dependencies, caller, request.body) });
    })
    .get('/team', async (request, response) => {
      response.json({ data: await getMyTeam(dependencies, callerOf(request)) });
    })
    .get('/invitations', async (request, response) => {
      response.json({ data: await listMyInvitations(dependencies, callerOf(request)) });
    })
    .post('/invitations', async (request, response) => {
      const invite = request.body as unknown;
      response
        .status(201)
        .json({ data: await changeInvitations(dependencies, callerOf(request), { invite }) });
    })
    .delete('/invitations/:invitationId', async (request, response) => {
      const cancel = request.params.invitationId;
      response.json({ data: await changeInvitations(dependencies, callerOf(request), { cancel }) });
    })
    .put('/members/me/handle', async (request, response) => {
      response.json({ data: await chooseMyHandle(dependencies, callerOf(request), request.body) });
    })
    .patch('/members/:userId', async (request, response) => {
      const role = (request.body as unknown) ?? {};
      const { userId } = request.params;
      response.json({ data: await changeMember(dependencies, callerOf(request), userId, role) });
    })
    .delete('/members/:userId', async (request, response) => {
      const { userId } = request.params;
      response.json({ data: await changeMember(dependencies, callerOf(request), userId) });
    });
}
