/**
 * Connection settings of the test stack, from `@raly/infra/test-env`
 * (environment variables, else testcontainers, else the native stack).
 * The issuer is read from Keycloak's discovery document, so the tests
 * verify tokens against whatever issuer the running Keycloak really uses.
 */
import { resolveTestStack } from '@raly/infra/test-env';

export interface TestStack {
  redisUrl: string;
  kafkaBrokers: string[];
  keycloakUrl: string;
  /** Front-channel Keycloak address: the issuer's origin (`KEYCLOAK_PUBLIC_URL`). */
  keycloakPublicUrl: string;
  realm: string;
  identityClientSecret: string;
}

let resolved: Promise<TestStack> | undefined;

async function resolve(): Promise<TestStack> {
  const stack = await resolveTestStack();
  const discovery = await fetch(
    `${stack.keycloakUrl}/realms/${stack.realm}/.well-known/openid-configuration`,
  );
  if (!discovery.ok) throw new Error(`Keycloak discovery answered ${discovery.status}`);
  const { issuer } = (await discovery.json()) as { issuer: string };
  return {
    redisUrl: stack.redisUrl,
    kafkaBrokers: stack.kafkaBrokers,
    keycloakUrl: stack.keycloakUrl,
    keycloakPublicUrl: issuer.replace(new RegExp(`/realms/${stack.realm}$`), ''),
    realm: stack.realm,
    identityClientSecret: stack.identityClientSecret,
  };
}

/** The test stack's settings (resolved once per process). */
export function testStack(): Promise<TestStack> {
  resolved ??= resolve();
  return resolved;
}
