/**
 * Internal endpoints of reports (docs/api.md "services/moderation"): only the BFF calls these,
 * with the `x-raly-service-token` header, for a signed-in person (open, their own) or a staff
 * member (queue, one report, resolution).
 */
import { Router, type RequestHandler } from 'express';
import type { ModerationDependencies } from '../domain/dependencies';
import {
  getReport,
  openReport,
  readMyReports,
  readReportQueue,
  resolveReport,
} from '../domain/reports';

/** @param guards `bff` lets only the BFF through (kit `requireServiceCaller`) */
export function reportsRouter(
  dependencies: ModerationDependencies,
  guards: { bff: RequestHandler },
): Router {
  const router = Router();
  router.post('/reports', guards.bff, async (req, res) => {
    res.status(201).json({ data: await openReport(dependencies, req.body) });
  });
  router.get('/reports', guards.bff, async (req, res) => {
    res.json({ data: await readReportQueue(dependencies, req.query) });
  });
  // Before `/reports/:id`, which would take `mine` for an id.
  router.get('/reports/mine', guards.bff, async (req, res) => {
    res.json({ data: await readMyReports(dependencies, req.query) });
  });
  router.get('/reports/:id', guards.bff, async (req, res) => {
    res.json({ data: await getReport(dependencies, String(req.params.id)) });
  });
  router.put('/reports/:id/resolution', guards.bff, async (req, res) => {
    res.json({ data: await resolveReport(dependencies, String(req.params.id), req.body) });
  });
  return router;
}
