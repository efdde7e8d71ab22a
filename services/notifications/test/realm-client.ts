/**
 * A Keycloak whose realm was imported before a service's own client existed
 * lacks that client. Tests of a service calling with it add it, as the
 * realm's service clients are stated (confidential, client credentials only,
 * the development secret `<client id>-local-secret`, an audience mapper per
 * called service), through the Admin API of the stack's local
 * administrator; an existing client is left as it is.
 */
import { keycloakAdmin } from '@raly/infra/stack/settings';
import type { TestStack } from '@raly/test-support';

/** A realm service client as infra/keycloak/raly-realm.json states them. */
const serviceClientOf = (clientId: string, audiences: readonly string[]) => ({
  clientId,
  enabled: true,
  publicClient: false,
  clientAuthenticatorType: 'client-secret',
  secret: `${clientId}-local-secret`,
  protocol: 'openid-connect',
  standardFlowEnabled: false,
  implicitFlowEnabled: false,
  directAccessGrantsEnabled: false,
  serviceAccountsEnabled: true,
  fullScopeAllowed: false,
  protocolMappers: audiences.map((audience) => ({
    name: `audience ${audience}`,
    protocol: 'openid-connect',
    protocolMapper: 'oidc-audience-mapper',
    consentRequired: false,
    config: {
      'included.client.audience': audience,
      'id.token.claim': 'false',
      'access.token.claim': 'true',
      'introspection.token.claim': 'true',
    },
  })),
});

/**
 * @param clientId the calling service's client, e.g. `raly-notifications-service`
 * @param audiences the clients of the services it calls, e.g. `['raly-identity-service']`
 * @throws Error when Keycloak refuses the administrator or the client
 */
export async function ensureServiceClient(
  stack: TestStack,
  clientId: string,
  audiences: readonly string[],
): Promise<void> {
  const tokenAnswer = await fetch(
    `${stack.keycloakUrl}/realms/master/protocol/openid-connect/token`,
    {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'password',
        client_id: 'admin-cli',
        username: keycloakAdmin.username,
        password: keycloakAdmin.password,
      }),
    },
  );
  if (!tokenAnswer.ok) throw new Error(`Keycloak admin sign-in: HTTP ${tokenAnswer.status}`);
  const { access_token: token } = (await tokenAnswer.json()) as { access_token: string };
  const clients = `${stack.keycloakUrl}/admin/realms/${stack.realm}/clients`;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const found = await fetch(`${clients}?${new URLSearchParams({ clientId })}`, { headers });
  if (((await found.json()) as unknown[]).length > 0) return;
  const created = await fetch(clients, {
    method: 'POST',
    headers,
    body: JSON.stringify(serviceClientOf(clientId, audiences)),
  });
  if (!created.ok && created.status !== 409)
    throw new Error(`adding ${clientId}: HTTP ${created.status} ${await created.text()}`);
}
