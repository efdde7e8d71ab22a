/**
 * `/api/console`: the staff console's routes (docs/console.md, docs/api.md § Console). Every route
 * takes a console access token only (client raly-console) and a staff role: keycloak-connect's
 * `protect('realm:raly-moderator')`, or `protect('realm:raly-admin')` for administration.
 */
import { Router } from 'express';
import { staffOf, type Authenticator } from '../auth/keycloak';

/** Mounted at `/console`. */
export function consoleRouter(authenticator: Authenticator): Router {
  return Router()
    .get('/me', authenticator.requireStaff('raly-moderator'), (request, response) => {
      response.json({ data: staffOf(request) });
    })
    .get('/admin/me', authenticator.requireStaff('raly-admin'), (request, response) => {
      response.json({ data: staffOf(request) });
    });
}
