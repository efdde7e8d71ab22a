/** POST /api/auth/login and /api/auth/logout (docs/api.md). */
import { Router } from 'express';
import type { Authenticator } from '../auth/keycloak';
import type { KeycloakTokens } from '../data-access/keycloak-tokens';
import { login, logout } from '../domain/session';
import { rateLimit } from './rate-limit';

export function authRouter(authenticator: Authenticator, keycloak: KeycloakTokens): Router {
  return Router()
    .post('/login', rateLimit('login'), async (request, response) => {
      response.json({ data: await login(keycloak, request.body) });
    })
    .post('/logout', authenticator.requireUser, async (request, response) => {
      response.json({ data: await logout(keycloak, request.body) });
    });
}
