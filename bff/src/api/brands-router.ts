/** GET /api/brands/:username (public) and PATCH /api/brand (the signed-in brand user's brand); docs/api.md. */
import { Router } from 'express';
import { userOf, type Authenticator } from '../auth/keycloak';
import { getPublicBrand, updateMyBrand, type BrandDependencies } from '../domain/brands';
import { bffErrors } from '../domain/errors';

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
    .patch('/', async (_request, response) => {
      const user = userOf(response);
      if (!user) throw bffErrors.unauthenticated();
      response.json({ data: await updateMyBrand(dependencies, user, _request.body) });
    });
}
