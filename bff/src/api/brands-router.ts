/** GET /api/brands/:username (public) and PATCH /api/brand (the signed-in brand user's brand); docs/api.md. */
import { Router } from 'express';
import { callerOf } from '@raly/service-kit/auth';
import type { Authenticator } from '../auth/keycloak';
import { getPublicBrand, updateMyBrand, type BrandDependencies } from '../domain/brands';

/** Mounted at `/brands`: anyone, signed in or not. */
export function publicBrandsRouter(dependencies: Pick<BrandDependencies, 'brands'>): Router {
  return Router().get('/:username', async (request, response) => {
    response.json({ data: await getPublicBrand(dependencies, request.params.username) });
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
    });
}
