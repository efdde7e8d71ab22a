/** `GET /brands/:id`, `PATCH /brands/:id` (members, bearer) and `GET /public/brands/:username` (anyone). */
import { callerOf, requireAccessToken, type AccessTokenVerifier } from '@raly/service-kit/auth';
import { Router } from 'express';
import { getBrandAsMember, getPublicBrand, updateBrand } from '../domain/brands';
import type { BrandDependencies } from '../domain/dependencies';

export function brandsRouter(
  dependencies: BrandDependencies,
  verifyAccessToken: AccessTokenVerifier,
): Router {
  const router = Router();
  const member = requireAccessToken(verifyAccessToken);
  router.get('/brands/:id', member, async (req, res) => {
    res.json({
      data: await getBrandAsMember(dependencies, req.params.id as string, callerOf(req).userId),
    });
  });
  router.patch('/brands/:id', member, async (req, res) => {
    res.json({
      data: await updateBrand(
        dependencies,
        req.params.id as string,
        callerOf(req).userId,
        req.body,
      ),
    });
  });
  router.get('/public/brands/:username', async (req, res) => {
    res.json({ data: await getPublicBrand(dependencies, req.params.username as string) });
  });
  return router;
}
