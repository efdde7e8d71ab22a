/**
 * Internal endpoints (docs/api.md): only other services call these, with
 * the `x-raly-service-token` header; the BFF never proxies them.
 */
import { requireServiceToken } from '@raly/service-kit/internal';
import { Router } from 'express';
import { createBrand, deleteBrand, membershipOf } from '../domain/brands';
import type { BrandDependencies } from '../domain/dependencies';

export function internalRouter(dependencies: BrandDependencies, serviceToken: string): Router {
  const router = Router();
  const internal = requireServiceToken(serviceToken);
  router.post('/brands', internal, async (req, res) => {
    const { brand, created } = await createBrand(dependencies, req.body);
    res.status(created ? 201 : 200).json({ data: brand });
  });
  router.delete('/brands/:id', internal, async (req, res) => {
    await deleteBrand(dependencies, req.params.id as string);
    res.status(204).end();
  });
  router.get('/brands/:id/members/:userId', internal, async (req, res) => {
    res.json({
      data: await membershipOf(dependencies, req.params.id as string, req.params.userId as string),
    });
  });
  return router;
}
