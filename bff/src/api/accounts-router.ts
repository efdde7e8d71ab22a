/** POST /api/accounts and POST /api/accounts/members (from an invitation): create an account and sign it in (docs/api.md). */
import { Router } from 'express';
import type { IdentityClient } from '../data-access/identity-client';
import type { KeycloakTokens } from '../data-access/keycloak-tokens';
import { createAccountAndSignIn, createMemberAndSignIn } from '../domain/account-creation';
import type { RateLimits } from './rate-limit';

export function accountsRouter(
  identity: IdentityClient,
  keycloak: KeycloakTokens,
  limits: RateLimits,
): Router {
  return Router()
    .post('/', limits.createAccount, async (request, response) => {
      response
        .status(201)
        .json({ data: await createAccountAndSignIn(identity, keycloak, request.body) });
    })
    .post('/members', limits.createAccount, async (request, response) => {
      response
        .status(201)
        .json({ data: await createMemberAndSignIn(identity, keycloak, request.body) });
    });
}
