/**
 * Seam for rate limiting (a later issue): every public `/api` route passes
 * through `rateLimit(name)`, so limits per route (login, callables, account
 * creation) can be added here without touching the routers. A limited
 * request must answer 429 — the callable code `resource-exhausted`.
 */
import type { RequestHandler } from 'express';

/** @param _routeName which limit bucket the route belongs to (unused until limits exist) */
export const rateLimit =
  (_routeName: string): RequestHandler =>
  (_request, _response, next) =>
    next();
