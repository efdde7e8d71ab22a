/**
 * Offers and applications (docs/api.md "Offers"): `/api/offers…`,
 * `/api/brand/offers`, `/api/brand/offers/summary`, `/api/me/applications` and
 * `/api/applications/:id/withdraw|accept|decline`. Every route needs a
 * signed-in user; services/offers decides the rest with the forwarded token.
 */
import { Router } from 'express';
import { callerOf } from '@raly/service-kit/auth';
import type { Authenticator } from '../auth/keycloak';
import { APPLICATION_DECISIONS } from '../data-access/offers-client';
import {
  applyToOffer,
  decideApplication,
  listMyApplications,
  listOfferApplications,
} from '../domain/applications';
import { summarizeMyBrandOffers } from '../domain/brand-dashboard';
import {
  getOfferDetail,
  listMyBrandOffers,
  listOffers,
  runOfferCommand,
  type OffersDependencies,
} from '../domain/offers';
import type { RateLimits } from './rate-limit';

/** Mounted at `/offers`: the feed, one offer, the brand members' commands and the applications of an offer. */
export function offersRouter(
  authenticator: Authenticator,
  dependencies: OffersDependencies,
  limits: Pick<RateLimits, 'apply' | 'createOffer'>,
): Router {
  return Router()
    .use(authenticator.requireUser)
    .get('/', async (request, response) => {
      response.json({ data: await listOffers(dependencies, callerOf(request), request.query) });
    })
    .post('/', limits.createOffer, async (request, response) => {
      const form = request.body as unknown;
      response.status(201).json({
        data: await runOfferCommand(dependencies, callerOf(request), { kind: 'create', form }),
      });
    })
    .get('/:id', async (request, response) => {
      response.json({
        data: await getOfferDetail(dependencies, callerOf(request), request.params.id),
      });
    })
    .patch('/:id', async (request, response) => {
      const command = {
        kind: 'update',
        offerId: request.params.id,
        changes: request.body,
      } as const;
      response.json({ data: await runOfferCommand(dependencies, callerOf(request), command) });
    })
    .post('/:id/open', async (request, response) => {
      const command = { kind: 'open', offerId: request.params.id } as const;
      response.json({ data: await runOfferCommand(dependencies, callerOf(request), command) });
    })
    .post('/:id/close', async (request, response) => {
      const command = { kind: 'close', offerId: request.params.id } as const;
      response.json({ data: await runOfferCommand(dependencies, callerOf(request), command) });
    })
    .get('/:id/applications', async (request, response) => {
      response.json({
        data: await listOfferApplications(dependencies, callerOf(request), request.params.id),
      });
    })
    .post('/:id/applications', limits.apply, async (request, response) => {
      // With a middleware before it, express's types lose the path's params; `:id` is one string.
      const offerId = request.params.id as string;
      response.status(201).json({
        data: await applyToOffer(dependencies, callerOf(request), offerId, request.body),
      });
    });
}

/** Mounted at `/brand/offers`: the offers of the caller's own brand and their figures (brand users only). */
export function myBrandOffersRouter(
  authenticator: Authenticator,
  dependencies: OffersDependencies,
): Router {
  return Router()
    .use(authenticator.requireUser)
    .get('/', async (request, response) => {
      response.json({ data: await listMyBrandOffers(dependencies, callerOf(request)) });
    })
    .get('/summary', async (request, response) => {
      response.json({ data: await summarizeMyBrandOffers(dependencies, callerOf(request)) });
    });
}

/** Mounted at `/me/applications`: the caller's own applications. */
export function myApplicationsRouter(
  authenticator: Authenticator,
  dependencies: OffersDependencies,
): Router {
  return Router()
    .use(authenticator.requireUser)
    .get('/', async (request, response) => {
      response.json({ data: await listMyApplications(dependencies, callerOf(request)) });
    });
}

/** Mounted at `/applications`: withdraw (the applicant), accept and decline (the brand's members). */
export function applicationsRouter(
  authenticator: Authenticator,
  dependencies: OffersDependencies,
): Router {
  const router = Router().use(authenticator.requireUser);
  for (const decision of APPLICATION_DECISIONS) {
    router.post(`/:id/${decision}`, async (request, response) => {
      // A path built from a template has untyped params; `:id` is always one string here.
      const applicationId = request.params.id as string;
      response.json({
        data: await decideApplication(dependencies, callerOf(request), applicationId, decision),
      });
    });
  }
  return router;
}
