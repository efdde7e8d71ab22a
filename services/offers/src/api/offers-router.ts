/**
 * Offers over HTTP (docs/api.md "services/offers"): the members' `POST /offers`,
 * `PATCH /offers/:id`, `POST /offers/:id/open|close`, `GET /brands/:brandId/offers`;
 * the feed `GET /offers` and `GET /offers/:id` (bearer); `GET /public/brands/:brandId/offers` (anyone).
 */
import { callerOf, requireAccessToken, type AccessTokenVerifier } from '@raly/service-kit/auth';
import { Router } from 'express';
import type { OffersDependencies } from '../domain/dependencies';
import {
  brandOffers,
  closeOffer,
  createOffer,
  getOffer,
  offersFeed,
  openOffer,
  publicBrandOffers,
  updateOffer,
} from '../domain/offers';

/**
 * @param verifyAccessToken the kit's verifier: every route but `/public/*` needs a valid access token (else 401)
 * @returns the router of the offer routes
 */
export function offersRouter(
  dependencies: OffersDependencies,
  verifyAccessToken: AccessTokenVerifier,
): Router {
  const router = Router();
  const user = requireAccessToken(verifyAccessToken);
  const id = (value: unknown) => value as string;
  router.post('/offers', user, async (req, res) => {
    res.status(201).json({ data: await createOffer(dependencies, callerOf(req), req.body) });
  });
  router.get('/offers', user, async (req, res) => {
    res.json({ data: await offersFeed(dependencies, callerOf(req), req.query) });
  });
  router.get('/offers/:id', user, async (req, res) => {
    res.json({ data: await getOffer(dependencies, callerOf(req), id(req.params.id)) });
  });
  router.patch('/offers/:id', user, async (req, res) => {
    res.json({
      data: await updateOffer(dependencies, callerOf(req), id(req.params.id), req.body),
    });
  });
  router.post('/offers/:id/open', user, async (req, res) => {
    res.json({ data: await openOffer(dependencies, callerOf(req), id(req.params.id)) });
  });
  router.post('/offers/:id/close', user, async (req, res) => {
    res.json({ data: await closeOffer(dependencies, callerOf(req), id(req.params.id)) });
  });
  router.get('/brands/:brandId/offers', user, async (req, res) => {
    res.json({ data: await brandOffers(dependencies, callerOf(req), id(req.params.brandId)) });
  });
  router.get('/public/brands/:brandId/offers', async (req, res) => {
    res.json({ data: await publicBrandOffers(dependencies, id(req.params.brandId)) });
  });
  return router;
}
