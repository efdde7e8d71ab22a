/**
 * Internal endpoints (docs/api.md): only other services call these, with
 * the `x-raly-service-token` header; the BFF never proxies them.
 */
import { Router, type RequestHandler } from 'express';
import {
  createBrand,
  decideBrandSuspension,
  deleteBrand,
  getBrandForStaff,
  membershipOf,
  searchBrands,
  setBrandFlags,
  setBrandVerified,
} from '../domain/brands';
import { acceptInvitation, previewInvitation } from '../domain/teams';
import type { BrandDependencies } from '../domain/dependencies';

/**
 * @param guards the internal routes' guards (kit `requireServiceCaller`): `identity` lets only
 *   identity-profile through (the brand registration saga, invitations), `membership` media and
 *   identity-profile (the membership check), `bff` only the BFF (the console's brand lookup and
 *   staff decisions: verification, suspension, flags; a brand's record by id for the console)
 */
export function internalRouter(
  dependencies: BrandDependencies,
  guards: { identity: RequestHandler; membership: RequestHandler; bff: RequestHandler },
): Router {
  const router = Router();
  router.post('/brands', guards.identity, async (req, res) => {
    const { brand, created } = await createBrand(dependencies, req.body);
    res.status(created ? 201 : 200).json({ data: brand });
  });
  router.delete('/brands/:id', guards.identity, async (req, res) => {
    await deleteBrand(dependencies, req.params.id as string);
    res.status(204).end();
  });
  router.get('/brands', guards.bff, async (req, res) => {
    res.json({ data: await searchBrands(dependencies, req.query) });
  });
  router.get('/brands/:id/record', guards.bff, async (req, res) => {
    res.json({ data: await getBrandForStaff(dependencies, req.params.id as string) });
  });
  router.put('/brands/:id/verification', guards.bff, async (req, res) => {
    res.json({ data: await setBrandVerified(dependencies, req.params.id as string, req.body) });
  });
  router.put('/brands/:id/suspension', guards.bff, async (req, res) => {
    res.json({
      data: await decideBrandSuspension(dependencies, req.params.id as string, req.body),
    });
  });
  router.put('/brands/:id/flags', guards.bff, async (req, res) => {
    res.json({ data: await setBrandFlags(dependencies, req.params.id as string, req.body) });
  });
  router.post('/invitations/preview', guards.identity, async (req, res) => {
    res.json({ data: await previewInvitation(dependencies, req.body) });
  });
  router.post('/invitations/accept', guards.identity, async (req, res) => {
    res.json({ data: await acceptInvitation(dependencies, req.body) });
  });
  router.get('/brands/:id/members/:userId', guards.membership, async (req, res) => {
    res.json({
      data: await membershipOf(dependencies, req.params.id as string, req.params.userId as string),
    });
  });
  return router;
}
