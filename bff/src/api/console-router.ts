/**
 * `/api/console`: the staff console's routes (docs/console.md, docs/api.md § Console). Every route
 * takes a console access token only (client raly-console) and a staff role: keycloak-connect's
 * `protect('realm:raly-moderator')`, or `protect('realm:raly-admin')` for administration.
 */
import { Router } from 'express';
import { staffOf, type Authenticator } from '../auth/keycloak';
import { decideBrandVerification, type ConsoleDependencies } from '../domain/console';

/** Mounted at `/console`. */
export function consoleRouter(
  authenticator: Authenticator,
  dependencies: ConsoleDependencies,
): Router {
  const moderator = authenticator.requireStaff('raly-moderator');
  return Router()
    .get('/me', moderator, (request, response) => {
      response.json({ data: staffOf(request) });
    })
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
    .get('/admin/me', authenticator.requireStaff('raly-admin'), (request, response) => {
      response.json({ data: staffOf(request) });
    });
}
