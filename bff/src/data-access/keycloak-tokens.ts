/**
 * Keycloak's OpenID Connect endpoints used on a user's behalf: the password
 * grant of the public client `raly-web` (so the SPA's keycloak-js can refresh
 * the token set itself) and the logout that ends the session, on the kit's
 * HTTP client (form-encoded bodies, no service token).
 */
import type { KeycloakTokenAnswer, TokenSet } from '@raly/contracts/bff-api';
import { callHttp } from '@raly/service-kit/internal';
import { backChannelRealmUrlOf, type Config } from '../config';

export interface KeycloakTokens {
  /**
   * Signs a user in with e-mail and password (grant_type=password, scope openid).
   * @returns the token set, or null when Keycloak refuses (wrong password, unknown user, locked by brute-force detection)
   * @throws AppError `unavailable` when Keycloak cannot be reached
   */
  passwordGrant(email: string, password: string): Promise<TokenSet | null>;
  /**
   * Ends the Keycloak session the refresh token belongs to.
   * @returns true when Keycloak ended it, false when it refused the token
   * @throws AppError `unavailable` when Keycloak cannot be reached
   */
  endSession(refreshToken: string): Promise<boolean>;
}

/** @param config Keycloak back-channel address, realm and the web client id */
export function createKeycloakTokens(config: Config): KeycloakTokens {
  const endpoint = `${backChannelRealmUrlOf(config)}/protocol/openid-connect`;
  const clientId = config.KEYCLOAK_WEB_CLIENT_ID;
  const post = (path: string, form: Record<string, string>) =>
    callHttp(`${endpoint}${path}`, {
      method: 'POST',
      form,
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      target: 'keycloak',
      unreachable: 'unavailable',
    });
  return {
    async passwordGrant(email, password) {
      const answer = await post('/token', {
        grant_type: 'password',
        client_id: clientId,
        username: email,
        password,
        scope: 'openid',
      });
      const body = answer.body as Partial<KeycloakTokenAnswer> | undefined;
      if (answer.status !== 200 || !body?.access_token || !body.refresh_token) return null;
      return {
        accessToken: body.access_token,
        refreshToken: body.refresh_token,
        idToken: body.id_token ?? '',
        expiresIn: body.expires_in ?? 0,
        refreshExpiresIn: body.refresh_expires_in ?? 0,
      };
    },
    async endSession(refreshToken) {
      const answer = await post('/logout', { client_id: clientId, refresh_token: refreshToken });
      return answer.status >= 200 && answer.status < 300;
    },
  };
}
