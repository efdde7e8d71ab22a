/**
 * Keycloak helpers for tests: a service-account token of raly-identity, users
 * created through the admin API, and user tokens through the password grant of
 * the BFF's confidential sign-in client raly-bff-login (what the BFF does on a
 * user's behalf, docs/adr/0009).
 */
import type { KeycloakTokenAnswer } from '@raly/contracts/bff-api';
import type { StackEndpoints } from './stack/endpoints';

async function tokenRequest(
  stack: StackEndpoints,
  form: Record<string, string>,
): Promise<KeycloakTokenAnswer> {
  const response = await fetch(
    `${stack.keycloakUrl}/realms/${stack.realm}/protocol/openid-connect/token`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
    },
  );
  const body = (await response.json()) as KeycloakTokenAnswer & {
    error?: string;
    error_description?: string;
  };
  if (!response.ok)
    throw new Error(
      `token request failed: HTTP ${response.status} ${body.error}: ${body.error_description}`,
    );
  return body;
}

/** A token of the raly-identity service account (manage-users, view-users, query-users). */
export async function identityServiceToken(stack: StackEndpoints): Promise<string> {
  const tokens = await tokenRequest(stack, {
    grant_type: 'client_credentials',
    client_id: 'raly-identity',
    client_secret: stack.identityClientSecret,
  });
  return tokens.access_token;
}

/** Creates an enabled user with a password; the realm uses the e-mail as username. Answers the user id. */
export async function createKeycloakUser(
  stack: StackEndpoints,
  user: { email: string; password: string; firstName?: string; lastName?: string },
): Promise<string> {
  const token = await identityServiceToken(stack);
  const response = await fetch(`${stack.keycloakUrl}/admin/realms/${stack.realm}/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      username: user.email,
      email: user.email,
      emailVerified: true,
      enabled: true,
      firstName: user.firstName,
      lastName: user.lastName,
      credentials: [{ type: 'password', value: user.password, temporary: false }],
    }),
  });
  if (response.status !== 201)
    throw new Error(
      `creating user ${user.email} failed: HTTP ${response.status} ${await response.text()}`,
    );
  const location = response.headers.get('location') ?? '';
  return location.slice(location.lastIndexOf('/') + 1);
}

/** The BFF's confidential sign-in client (docs/adr/0009). */
export const loginClientId = 'raly-bff-login';

/**
 * Logs a user in with the password grant of the BFF's sign-in client raly-bff-login and its
 * secret (scope `openid`, so `id_token` is present).
 * @throws Error with Keycloak's error when it refuses
 */
export async function passwordGrant(
  stack: StackEndpoints,
  email: string,
  password: string,
): Promise<KeycloakTokenAnswer> {
  return tokenRequest(stack, {
    grant_type: 'password',
    client_id: loginClientId,
    client_secret: stack.loginClientSecret,
    username: email,
    password,
    scope: 'openid',
  });
}

/**
 * Renews a token set with the refresh grant of raly-bff-login (what POST /api/auth/refresh does).
 * @throws Error with Keycloak's error when it refuses the refresh token
 */
export async function refreshGrant(
  stack: StackEndpoints,
  refreshToken: string,
): Promise<KeycloakTokenAnswer> {
  return tokenRequest(stack, {
    grant_type: 'refresh_token',
    client_id: loginClientId,
    client_secret: stack.loginClientSecret,
    refresh_token: refreshToken,
  });
}

/** The claims of a JWT, without verifying it (tests only). */
export function decodeJwtClaims(jwt: string): Record<string, unknown> {
  const payload = jwt.split('.')[1];
  if (!payload) throw new Error('not a JWT');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}
