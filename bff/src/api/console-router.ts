/**
 * `/api/console`: the staff console's routes (docs/console.md, docs/api.md § Console). Every route
 * takes a console access token only (client raly-console) and a staff role: keycloak-connect's
 * `protect('realm:raly-moderator')`, or `protect('realm:raly-admin')` for administration. A contact
 * view's answer holds personal data: it is never cached (`Cache-Control: no-store`) and each staff
 * member's views are rate-limited (RATE_LIMIT_CONTACT_VIEW_PER_STAFF).
 */
import { Router, type RequestHandler } from 'express';
import { staffOf, type Authenticator } from '../auth/keycloak';
import { findAuditEntries } from '../domain/audit-log';
import {
  decideBrandSuspension,
  decideBrandVerification,
  decideCreatorSuspension,
  findBrands,
  findCreators,
  setBrandFlags,
  setCreatorFlags,
  viewBrandContacts,
  viewCreatorContact,
  type ConsoleDependencies,
} from '../domain/console';
import { findReports, getReportForStaff, resolveReportAsStaff } from '../domain/console-reports';
import type { RateLimits } from './rate-limit';

/** Marks the answer, success or refusal, as never to be stored by a browser or proxy (RFC 9111). */
const noStore: RequestHandler = (_request, response, next) => {
  response.setHeader('Cache-Control', 'no-store');
  next();
};

/** Mounted at `/console`. @param limits the BFF's rate limits (`contactView`, per staff member) */
export function consoleRouter(
  authenticator: Authenticator,
  dependencies: ConsoleDependencies,
  limits: Pick<RateLimits, 'contactView'>,
): Router {
  const moderator = authenticator.requireStaff('raly-moderator');
  const admin = authenticator.requireStaff('raly-admin');
  /** A decision's route: `decide(dependencies, staff, :id, body)` answered as `{ data }`. */
  const decision =
    <T>(
      decide: (
        dependencies: ConsoleDependencies,
        staff: ReturnType<typeof staffOf>,
        id: string,
        body: unknown,
      ) => Promise<T>,
    ): RequestHandler =>
    async (request, response) => {
      response.json({
        data: await decide(
          dependencies,
          staffOf(request),
          request.params.id as string,
          request.body,
        ),
      });
    };
  return Router()
    .get('/me', moderator, (request, response) => {
      response.json({ data: staffOf(request) });
    })
    .get('/brands', moderator, async (request, response) => {
      response.json({ data: await findBrands(dependencies, request.query) });
    })
    .get('/creators', moderator, async (request, response) => {
      response.json({ data: await findCreators(dependencies, request.query) });
    })
    .get('/audit', moderator, async (request, response) => {
      response.json({ data: await findAuditEntries(dependencies, request.query) });
    })
    .get('/reports', moderator, async (request, response) => {
      response.json({ data: await findReports(dependencies, request.query) });
    })
    .get('/reports/:id', moderator, async (request, response) => {
      response.json({ data: await getReportForStaff(dependencies, request.params.id as string) });
    })
    .put('/reports/:id/resolution', moderator, decision(resolveReportAsStaff))
    .put('/brands/:id/verification', moderator, async (request, response) => {
      response.json({
        data: await decideBrandVerification(
          dependencies,
          staffOf(request),
          request.params.id as string,
          request.body,
        ),
      });
    })
    .put('/brands/:id/suspension', moderator, decision(decideBrandSuspension))
    .put('/creators/:id/suspension', moderator, decision(decideCreatorSuspension))
    .put('/brands/:id/flags', admin, decision(setBrandFlags))
    .put('/creators/:id/flags', admin, decision(setCreatorFlags))
    .post(
      '/creators/:id/contact-view',
      noStore,
      moderator,
      limits.contactView,
      decision(viewCreatorContact),
    )
    .post(
      '/brands/:id/contact-view',
      noStore,
      moderator,
      limits.contactView,
      decision(viewBrandContacts),
    )
    .get('/admin/me', admin, (request, response) => {
      response.json({ data: staffOf(request) });
    });
}
