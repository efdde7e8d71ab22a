/**
 * Test users in the real Keycloak realm, through the Admin API with the
 * `raly-identity` service account (docs/conventions.md), and the token
 * grants a test checks sessions with. Every user a test creates or registers
 * (records.ts factories) is deleted by `cleanUp()`.
 */
import {
  createKeycloakUser,
  identityServiceToken,
  passwordGrant,
  refreshGrant,
  type TestStack,
} from './stack';
import { forgetRegisteredEmails, rememberEmail, uniqueToken } from './records';

export interface TestUser {
  id: string;
  email: string;
  password: string;
}

export interface TestKeycloak {
  /** Creates an enabled user with a verified e-mail and a password (unique ones unless given). */
  createUser(user?: { email?: string; password?: string }): Promise<TestUser>;
  /** The Keycloak user id of an e-mail, or null. */
  findIdByEmail(email: string): Promise<string | null>;
  /** Deletes a user; an already missing one is fine. */
  deleteUser(id: string): Promise<void>;
  /** Deletes the user with this e-mail at clean-up (users created through a service or the BFF). */
  forgetLater(email: string): void;
  /** Deletes every user this helper created, was told to forget, or the records factories registered. */
  cleanUp(): Promise<void>;
  /** True while Keycloak's brute-force detection holds the user locked out. */
  isLockedOut(userId: string): Promise<boolean>;
  /** An access token of the `raly-identity` service account (client credentials). */
  serviceAccountToken(): Promise<string>;
  /**
   * Tries a refresh grant with the BFF's sign-in client `raly-bff-login` (docs/adr/0009); true
   * while Keycloak still accepts the refresh token (spends it: refresh tokens rotate).
   */
  refreshWorks(refreshToken: string): Promise<boolean>;
  /** True when Keycloak accepts the e-mail and password (password grant of `raly-bff-login`). */
  signsIn(email: string, password: string): Promise<boolean>;
}

/** The Keycloak helper of one test file (call `cleanUp()` in its afterAll). */
export function testKeycloak(stack: TestStack): TestKeycloak {
  const adminUrl = `${stack.keycloakUrl}/admin/realms/${stack.realm}`;
  const created = new Set<string>();
  const admin = async (path: string, init: RequestInit = {}) =>
    fetch(`${adminUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${await identityServiceToken(stack)}` },
    });
  const findIdByEmail = async (email: string) => {
    const found = await admin(`/users?${new URLSearchParams({ email, exact: 'true' })}`);
    if (!found.ok) throw new Error(`find user: ${found.status} ${await found.text()}`);
    return ((await found.json()) as { id: string }[])[0]?.id ?? null;
  };
  const deleteUser = async (id: string) => {
    const response = await admin(`/users/${id}`, { method: 'DELETE' });
    if (!response.ok && response.status !== 404)
      throw new Error(`delete user: ${response.status} ${await response.text()}`);
  };

  return {
    findIdByEmail,
    deleteUser,
    serviceAccountToken: () => identityServiceToken(stack),
    async createUser(user = {}) {
      const token = uniqueToken();
      const email = user.email ?? `user.${token}@raly.test`;
      const password = user.password ?? `pw-${token}`;
      const id = await createKeycloakUser(stack, {
        email,
        password,
        firstName: 'Test',
        lastName: token,
      });
      created.add(id);
      return { id, email, password };
    },
    forgetLater: rememberEmail,
    async cleanUp() {
      for (const email of forgetRegisteredEmails()) {
        const id = await findIdByEmail(email).catch(() => null);
        if (id) created.add(id);
      }
      await Promise.all([...created].map((id) => deleteUser(id).catch(() => undefined)));
      created.clear();
    },
    async isLockedOut(userId) {
      const response = await admin(`/attack-detection/brute-force/users/${userId}`);
      if (!response.ok)
        throw new Error(`brute-force status: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { disabled?: boolean }).disabled === true;
    },
    refreshWorks: (refreshToken) =>
      refreshGrant(stack, refreshToken).then(
        () => true,
        () => false,
      ),
    signsIn: (email, password) =>
      passwordGrant(stack, email, password).then(
        () => true,
        () => false,
      ),
  };
}
