/**
 * Test users in the real Keycloak realm, created through the Admin API
 * with the `raly-identity` service account (docs/conventions.md).
 */
import { uniqueSuffix } from './records';
import type { TestStack } from './stack';

export interface TestUser {
  id: string;
  email: string;
  password: string;
}

export interface TestKeycloak {
  /** Creates an enabled user with a verified e-mail and a password. */
  createUser(): Promise<TestUser>;
  /** Deletes every user this helper created or was told to forget. */
  cleanUp(): Promise<void>;
  /** Deletes the user with this e-mail at clean-up (users created through the BFF). */
  forgetLater(email: string): void;
  /** True while Keycloak's brute-force detection holds the user locked out. */
  isLockedOut(userId: string): Promise<boolean>;
  /** An access token of the `raly-identity` service account (client credentials). */
  serviceAccountToken(): Promise<string>;
  /** Tries a refresh grant with `raly-web`; true when Keycloak still accepts the token. */
  refreshWorks(refreshToken: string): Promise<boolean>;
}

export function testKeycloak(stack: TestStack): TestKeycloak {
  const realmUrl = `${stack.keycloakUrl}/realms/${stack.realm}`;
  const adminUrl = `${stack.keycloakUrl}/admin/realms/${stack.realm}`;
  const created: string[] = [];
  const emails: string[] = [];

  const serviceToken = async () => {
    const response = await fetch(`${realmUrl}/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'raly-identity',
        client_secret: stack.identityClientSecret,
      }),
    });
    if (!response.ok)
      throw new Error(`service account token: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { access_token: string }).access_token;
  };

  return {
    serviceAccountToken: serviceToken,
    async createUser() {
      const suffix = uniqueSuffix();
      const user = { email: `bff.${suffix}@example.test`, password: `pw-${suffix}` };
      const response = await fetch(`${adminUrl}/users`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${await serviceToken()}`,
        },
        body: JSON.stringify({
          username: user.email,
          email: user.email,
          emailVerified: true,
          enabled: true,
          firstName: 'Test',
          lastName: suffix,
          credentials: [{ type: 'password', value: user.password, temporary: false }],
        }),
      });
      if (response.status !== 201)
        throw new Error(`create user: ${response.status} ${await response.text()}`);
      const id = response.headers.get('location')!.split('/').pop()!;
      created.push(id);
      return { id, ...user };
    },
    forgetLater(email) {
      emails.push(email);
    },
    async cleanUp() {
      const token = await serviceToken();
      for (const email of emails.splice(0)) {
        const found = await fetch(
          `${adminUrl}/users?${new URLSearchParams({ email, exact: 'true' })}`,
          {
            headers: { authorization: `Bearer ${token}` },
          },
        );
        const users = found.ok ? ((await found.json()) as { id: string }[]) : [];
        created.push(...users.map((user) => user.id));
      }
      await Promise.all(
        created.splice(0).map((id) =>
          fetch(`${adminUrl}/users/${id}`, {
            method: 'DELETE',
            headers: { authorization: `Bearer ${token}` },
          }),
        ),
      );
    },
    async isLockedOut(userId) {
      const response = await fetch(`${adminUrl}/attack-detection/brute-force/users/${userId}`, {
        headers: { authorization: `Bearer ${await serviceToken()}` },
      });
      if (!response.ok)
        throw new Error(`brute-force status: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { disabled?: boolean }).disabled === true;
    },
    async refreshWorks(refreshToken) {
      const response = await fetch(`${realmUrl}/protocol/openid-connect/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          client_id: 'raly-web',
          refresh_token: refreshToken,
        }),
      });
      return response.ok;
    },
  };
}
