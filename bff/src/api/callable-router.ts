/**
 * POST /api/callable/<name>: the callable protocol of spec §7–8. JSON
 * `{ data }` in, `{ data }` out; errors carry `error.status`, the callable
 * code of the HTTP status. A bearer token is optional, but a bad one is
 * refused (401 unauthenticated) rather than silently ignored.
 */
import { Router } from 'express';
import { bearerOf, type Authenticator } from '../auth/keycloak';
import type { IdentityClient } from '../data-access/identity-client';
import { runCallable } from '../domain/callables';
import type { RateLimits } from './rate-limit';

export function callableRouter(
  authenticator: Authenticator,
  identity: IdentityClient,
  limits: RateLimits,
): Router {
  return Router().post('/:name', limits.callable, async (request, response) => {
    if (request.headers.authorization)
      await authenticator.verify(bearerOf(request.headers.authorization));
    response.json({ data: await runCallable(identity, String(request.params.name), request.body) });
  });
}
