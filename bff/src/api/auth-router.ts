/**
 * POST /api/auth/login, refresh, logout, forgot-password, reset-password
 * and verify-password (docs/api.md).
 */
import { Router } from 'express';
import { callerOf } from '@raly/service-kit/auth';
import type { Authenticator } from '../auth/keycloak';
import {
  forgotPassword,
  resetPassword,
  verifyPassword,
  type PasswordDependencies,
} from '../domain/password';
import { login, logout, refresh, type SessionDependencies } from '../domain/session';
import type { RateLimits } from './rate-limit';

export function authRouter(
  authenticator: Authenticator,
  dependencies: SessionDependencies & PasswordDependencies,
  limits: RateLimits,
): Router {
  return Router()
    .post('/login', async (request, response) => {
      const tokens = await limits.login(request, response, () => login(dependencies, request.body));
      response.json({ data: tokens });
    })
    .post('/refresh', limits.refresh, async (request, response) => {
      const { keycloak } = dependencies;
      const { revocations } = authenticator;
      response.json({ data: await refresh({ keycloak, revocations }, request.body) });
    })
    .post('/logout', authenticator.requireUser, async (request, response) => {
      const caller = callerOf(request);
      const { keycloak } = dependencies;
      const { revocations } = authenticator;
      response.json({ data: await logout({ keycloak, revocations }, caller, request.body) });
    })
    .post('/forgot-password', limits.forgotPassword, async (request, response) => {
      response.json({ data: await forgotPassword(dependencies.identity, request.body) });
    })
    .post('/reset-password', limits.forgotPassword, async (request, response) => {
      const { identity } = dependencies;
      const { revocations } = authenticator;
      response.json({ data: await resetPassword({ identity, revocations }, request.body) });
    })
    .post(
      '/verify-password',
      authenticator.requireUser,
      limits.verifyPassword,
      async (request, response) => {
        const caller = callerOf(request);
        response.json({ data: await verifyPassword(dependencies, caller, request.body) });
      },
    );
}
