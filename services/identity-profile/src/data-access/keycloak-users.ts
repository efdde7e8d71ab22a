/**
 * Keycloak's Admin API for the users of realm `raly`, called with the
 * `raly-identity` service account (client credentials). Keycloak is the only
 * holder of passwords; the realm logs in with the e-mail, so the Keycloak
 * username is always the e-mail.
 */
import { messages } from '@raly/contracts/messages';
import { AppError } from '@raly/service-kit/errors';
import { timeUpstreamCall } from '@raly/service-kit/metrics';

export interface KeycloakAdminSettings {
  /** Back-channel base URL, e.g. `http://127.0.0.1:8080`. */
  url: string;
  realm: string;
  clientId: string;
  clientSecret: string;
}

/** Keycloak answered with an error status. */
export class KeycloakRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    what: string,
  ) {
    super(`Keycloak ${what} answered ${status}: ${body.slice(0, 300)}`);
    this.name = 'KeycloakRequestError';
  }
}

export interface KeycloakUsers {
  /**
   * Creates an enabled user with a verified e-mail (also its username) and a
   * permanent password.
   * @returns the new Keycloak user id
   * @throws KeycloakRequestError 409 when the e-mail exists; AppError invalid-argument 'There was a
   *   problem with your request.' when Keycloak's validation refuses a value (400: too long, password policy)
   */
  create(user: { email: string; password: string }): Promise<string>;
  /** Deletes the user; an already missing user is fine. */
  delete(id: string): Promise<void>;
  /**
   * Changes the user's e-mail and with it the login username.
   * @throws KeycloakRequestError 409 when the e-mail exists; AppError invalid-argument when Keycloak refuses it (400)
   */
  changeEmail(id: string, email: string): Promise<void>;
  /** The user's id for an e-mail, or null. */
  findIdByEmail(email: string): Promise<string | null>;
  /**
   * Sets a new permanent password (Admin API reset-password, temporary false).
   * @throws AppError invalid-argument when the password policy refuses it (400); KeycloakRequestError 404 for an unknown user
   */
  setPassword(id: string, password: string): Promise<void>;
  /**
   * Ends every session of the user (Admin REST API `POST /users/{id}/logout`): their refresh
   * tokens stop working. A user Keycloak does not know has none: fine.
   */
  endAllSessions(id: string): Promise<void>;
  /**
   * Ends every session of the user but `keepSessionId` (their refresh tokens
   * stop working): lists `GET /users/{id}/sessions`, then
   * `DELETE /sessions/{sessionId}` for each other one (one already gone is fine).
   * @param keepSessionId the session to keep (an access token's `sid`); none: end all
   * @returns how many sessions were ended
   * @throws KeycloakRequestError when Keycloak cannot list or end them
   */
  endOtherSessions(id: string, keepSessionId: string | undefined): Promise<number>;
  /** Clears the user's brute-force lock-out and failure count. */
  clearLoginFailures(id: string): Promise<void>;
}

/** How long before its expiry a service-account token is replaced, in ms. */
const TOKEN_REFRESH_MARGIN_MS = 10_000;

/** The Admin API client over fetch. */
export function keycloakUsers(settings: KeycloakAdminSettings): KeycloakUsers {
  const adminUrl = `${settings.url}/admin/realms/${encodeURIComponent(settings.realm)}`;
  const usersUrl = `${adminUrl}/users`;
  let token: { value: string; expiresAt: number } | undefined;

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt - TOKEN_REFRESH_MARGIN_MS > Date.now()) return token.value;
    const response = await timeUpstreamCall('keycloak', 'POST', () =>
      fetch(
        `${settings.url}/realms/${encodeURIComponent(settings.realm)}/protocol/openid-connect/token`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: settings.clientId,
            client_secret: settings.clientSecret,
          }),
        },
      ),
    );
    if (!response.ok)
      throw new KeycloakRequestError(response.status, await response.text(), 'token');
    const body = (await response.json()) as { access_token: string; expires_in: number };
    token = { value: body.access_token, expiresAt: Date.now() + body.expires_in * 1000 };
    return token.value;
  }

  async function call(what: string, url: string, init: RequestInit = {}): Promise<Response> {
    const authorization = `Bearer ${await accessToken()}`;
    const response = await timeUpstreamCall('keycloak', init.method ?? 'GET', () =>
      fetch(url, {
        ...init,
        headers: { authorization, 'content-type': 'application/json', ...init.headers },
      }),
    );
    if (response.ok) return response;
    const failure = new KeycloakRequestError(response.status, await response.text(), what);
    // 400: Keycloak's validation refused a value we sent (user profile lengths, e-mail format,
    // password policy): the caller's mistake, not ours.
    if (response.status === 400)
      throw new AppError('invalid-argument', messages.requestProblem, { cause: failure });
    throw failure;
  }

  return {
    async create({ email, password }) {
      const response = await call('create user', usersUrl, {
        method: 'POST',
        body: JSON.stringify({
          username: email,
          email,
          enabled: true,
          emailVerified: true,
          credentials: [{ type: 'password', value: password, temporary: false }],
        }),
      });
      const id = response.headers.get('location')?.split('/').pop();
      if (!id) throw new KeycloakRequestError(response.status, 'no Location header', 'create user');
      return id;
    },
    async delete(id) {
      try {
        await call('delete user', `${usersUrl}/${encodeURIComponent(id)}`, { method: 'DELETE' });
      } catch (error) {
        if (!(error instanceof KeycloakRequestError && error.status === 404)) throw error;
      }
    },
    async changeEmail(id, email) {
      await call('change e-mail', `${usersUrl}/${encodeURIComponent(id)}`, {
        method: 'PUT',
        body: JSON.stringify({ username: email, email, emailVerified: true }),
      });
    },
    async findIdByEmail(email) {
      const response = await call(
        'find user',
        `${usersUrl}?${new URLSearchParams({ email, exact: 'true', briefRepresentation: 'true' })}`,
      );
      const users = (await response.json()) as { id: string }[];
      return users[0]?.id ?? null;
    },
    async setPassword(id, password) {
      await call('reset password', `${usersUrl}/${encodeURIComponent(id)}/reset-password`, {
        method: 'PUT',
        body: JSON.stringify({ type: 'password', value: password, temporary: false }),
      });
    },
    async endAllSessions(id) {
      try {
        await call('log out user', `${usersUrl}/${encodeURIComponent(id)}/logout`, {
          method: 'POST',
        });
      } catch (error) {
        if (!(error instanceof KeycloakRequestError && error.status === 404)) throw error;
      }
    },
    async endOtherSessions(id, keepSessionId) {
      const response = await call(
        'list user sessions',
        `${usersUrl}/${encodeURIComponent(id)}/sessions`,
      );
      const others = ((await response.json()) as { id: string }[]).filter(
        (session) => session.id !== keepSessionId,
      );
      for (const session of others) {
        try {
          await call('end session', `${adminUrl}/sessions/${encodeURIComponent(session.id)}`, {
            method: 'DELETE',
          });
        } catch (error) {
          // Ended meanwhile (logout, expiry): what we wanted.
          if (!(error instanceof KeycloakRequestError && error.status === 404)) throw error;
        }
      }
      return others.length;
    },
    async clearLoginFailures(id) {
      await call(
        'clear login failures',
        `${adminUrl}/attack-detection/brute-force/users/${encodeURIComponent(id)}`,
        {
          method: 'DELETE',
        },
      );
    },
  };
}
