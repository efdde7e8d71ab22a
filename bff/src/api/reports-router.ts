/**
 * Reports (docs/api.md "Reports", docs/console.md "Reports"): `POST /api/reports` and
 * `GET /api/reports/mine`. Every route needs a signed-in creator or brand member.
 */
import { Router } from 'express';
import { callerOf } from '@raly/service-kit/auth';
import type { Authenticator } from '../auth/keycloak';
import { listMyReports, openMyReport, type ReportsDependencies } from '../domain/reports';
import type { RateLimits } from './rate-limit';

/** Mounted at `/reports`. */
export function reportsRouter(
  authenticator: Authenticator,
  dependencies: ReportsDependencies,
  limits: Pick<RateLimits, 'report'>,
): Router {
  return Router()
    .use(authenticator.requireUser)
    .post('/', limits.report, async (request, response) => {
      response
        .status(201)
        .json({ data: await openMyReport(dependencies, callerOf(request), request.body) });
    })
    .get('/mine', async (request, response) => {
      response.json({
        data: await listMyReports(dependencies, callerOf(request), request.query),
      });
    });
}
