/**
 * Internal endpoints (docs/api.md "Internal endpoints"): only the BFF calls these, with the
 * `x-raly-service-token` header; the BFF never proxies them. No route changes or removes an entry:
 * any other method on the path is answered as an unknown route (404).
 */
import { Router, type RequestHandler } from 'express';
import type { ModerationDependencies } from '../domain/dependencies';
import { searchAuditLog } from '../domain/audit-log';

/** @param guards `bff` lets only the BFF through (kit `requireServiceCaller`) */
export function auditRouter(
  dependencies: ModerationDependencies,
  guards: { bff: RequestHandler },
): Router {
  const router = Router();
  router.get('/audit-entries', guards.bff, async (req, res) => {
    res.json({ data: await searchAuditLog(dependencies, req.query) });
  });
  return router;
}
