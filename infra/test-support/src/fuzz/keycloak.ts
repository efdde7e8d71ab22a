/** The Keycloak side of a fuzz: a user's ID token, and deleting the users a run registered. */
import { identityServiceToken, passwordGrant, type TestStack } from '@raly/test-stack';

/**
 * Signs a user in (password grant of raly-bff-login, scope openid) for their ID token.
 * @returns the ID token (a JWT of type `ID`, never to be taken for an access token)
 */
export async function idTokenOf(
  stack: TestStack,
  email: string,
  password: string,
): Promise<string> {
  const tokens = (await passwordGrant(stack, email, password)) as { id_token?: string };
  if (!tokens.id_token) throw new Error(`no ID token for ${email}`);
  return tokens.id_token;
}

/**
 * Deletes the Keycloak users a fuzz run created (their e-mails carry `marker`).
 * @returns how many were deleted
 */
export async function deleteFuzzUsers(stack: TestStack, marker: string): Promise<number> {
  const token = await identityServiceToken(stack);
  const admin = `${stack.keycloakUrl}/admin/realms/${stack.realm}/users`;
  const headers = { authorization: `Bearer ${token}` };
  const found = await fetch(`${admin}?${new URLSearchParams({ search: marker, max: '1000' })}`, {
    headers,
  });
  if (!found.ok) throw new Error(`searching users of ${marker}: HTTP ${found.status}`);
  const users = (await found.json()) as { id: string }[];
  for (const user of users) await fetch(`${admin}/${user.id}`, { method: 'DELETE', headers });
  return users.length;
}
