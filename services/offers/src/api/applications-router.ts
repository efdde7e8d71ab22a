/**
 * Applications over HTTP (docs/api.md "services/offers"), all with a bearer:
 * `POST /offers/:id/applications` and `GET /applications/mine` (creators),
 * `GET /offers/:id/applications`, `POST /applications/:id/accept|decline`
 * (the brand's members), `POST /applications/:id/withdraw` (the applicant).
 */
import { callerOf, requireAccessToken, type AccessTokenVerifier } from '@raly/service-kit/auth';
import { Router } from 'express';
import {
  acceptApplication,
  applyToOffer,
  declineApplication,
  myApplications,
  offerApplications,
  withdrawApplication,
} from '../domain/applications';
import type { OffersDependencies } from '../domain/dependencies';

/**
 * @param verifyAccessToken the kit's verifier: every route needs a valid access token (else 401)
 * @returns the router of the application routes
 */
export function applicationsRouter(
  dependencies: OffersDependencies,
  verifyAccessToken: AccessTokenVerifier,
): Router {
  const router = Router();
  const user = requireAccessToken(verifyAccessToken);
  const id = (value: unknown) => value as string;
  router.post('/offers/:id/applications', user, async (req, res) => {
    res
      .status(201)
      .json({ data: await applyToOffer(dependencies, callerOf(req), id(req.params.id), req.body) });
  });
  router.get('/offers/:id/applications', user, async (req, res) => {
    res.json({ data: await offerApplications(dependencies, callerOf(req), id(req.params.id)) });
  });
  router.get('/applications/mine', user, async (req, res) => {
    res.json({ data: await myApplications(dependencies, callerOf(req)) });
  });
  router.post('/applications/:id/withdraw', user, async (req, res) => {
    res.json({ data: await withdrawApplication(dependencies, callerOf(req), id(req.params.id)) });
  });
  router.post('/applications/:id/accept', user, async (req, res) => {
    res.json({ data: await acceptApplication(dependencies, callerOf(req), id(req.params.id)) });
  });
  router.post('/applications/:id/decline', user, async (req, res) => {
    res.json({ data: await declineApplication(dependencies, callerOf(req), id(req.params.id)) });
  });
  return router;
}
