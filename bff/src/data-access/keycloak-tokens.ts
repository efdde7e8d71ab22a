/**
 * Keycloak's OpenID Connect endpoints used on a user's behalf, as the BFF's
 * confidential sign-in client (`KEYCLOAK_LOGIN_CLIENT_ID`, default
 * `raly-bff-login`, with `KEYCLOAK_LOGIN_CLIENT_SECRET`; docs/adr/0009): the
 * password grant that signs a user in, the refresh grant that renews the
 * token set (only this client, with its secret, can refresh its tokens), and
 * the logout that ends the session. On the kit's HTTP client (form-encoded
 * bodies, no service token).
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
   * Renews a token set (grant_type=refresh_token, RFC 6749 §6). With the
   * realm's refresh-token rotation the given refresh token is spent.
   * @returns the new token set, or null when Keycloak refuses the refresh token
   *   (spent, expired, session ended, issued to another client)
   * @throws AppError `unavailable` when Keycloak cannot be reached
   */
  refreshGrant(refreshToken: string): Promise<TokenSet | null>;
  /**
   * Ends the Keycloak session the refresh token belongs to.
   * @returns true when Keycloak ended it, false when it refused the token
   * @throws AppError `unavailable` when Keycloak cannot be reached
   */
  endSession(refreshToken: string): Promise<boolean>;
}

/** @param config Keycloak back-channel address, realm, and the sign-in client's id and secret */
export function createKeycloakTokens(config: Config): KeycloakTokens {
  const endpoint = `${backChannelRealmUrlOf(config)}/protocol/openid-connect`;
  const client = {
    client_id: config.KEYCLOAK_LOGIN_CLIENT_ID,
    client_secret: config.KEYCLOAK_LOGIN_CLIENT_SECRET,
  };
  const post = (path: string, form: Record<string, string>) =>
    callHttp(`${endpoint}${path}`, {
      method: 'POST',
      form: { ...client, ...form },
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      target: 'keycloak',
      unreachable: 'unavailable',
    });
  const tokenSetOf = (answer: { status: number; body: unknown }): TokenSet | null => {
    const body = answer.body as Partial<KeycloakTokenAnswer> | undefined;
    if (answer.status !== 200 || !body?.access_token || !body.refresh_token) return null;
    return {
      accessToken: body.access_token,
      refreshToken: body.refresh_token,
      idToken: body.id_token ?? '',
      expiresIn: body.expires_in ?? 0,
      refreshExpiresIn: body.refresh_expires_in ?? 0,
    };
  };
  return {
    async passwordGrant(email, password) {
      return tokenSetOf(
        await post('/token', {
          grant_type: 'password',
          username: email,
          password,
          scope: 'openid',
        }),
      );
    },
    async refreshGrant(refreshToken) {
      return tokenSetOf(
        await post('/token', {
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          scope: 'openid',
        }),
      );
    },
    async endSession(refreshToken) {
      const answer = await post('/logout', { refresh_token: refreshToken });
      return answer.status >= 200 && answer.status < 300;
    },
  };
}
