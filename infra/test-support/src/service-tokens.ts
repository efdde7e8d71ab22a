/**
 * The services' own access tokens in tests (docs/adr/0008): client
 * credentials of each `raly-<service>-service` client of the realm, with the
 * development secrets the services default to (services/shared/service-kit
 * `serviceClientConfigShape`), cached like a service caches them.
 */
import { serviceClientIds } from '@raly/contracts/internal';
import { createServiceTokenSource, type ServiceTokenSource } from '@raly/service-kit/internal';
import type { TestStack } from '@raly/test-stack';

/** A calling service, e.g. `bff`: whose token a test sends to an internal route. */
export type ServiceCaller = keyof typeof serviceClientIds;

/** Resolves to a valid access token of one calling service. */
export type ServiceTokenGetter = () => Promise<string>;

const sources = new Map<string, ServiceTokenSource>();

/**
 * @param stack the stack whose Keycloak issues the tokens
 * @param caller the calling service, e.g. `bff`
 * @returns a getter of that service's token (one cached token per caller and Keycloak)
 */
export function serviceTokenOf(stack: TestStack, caller: ServiceCaller): ServiceTokenGetter {
  const clientId = serviceClientIds[caller];
  const key = `${stack.keycloakUrl} ${clientId}`;
  let source = sources.get(key);
  if (!source) {
    source = createServiceTokenSource({
      keycloakUrl: stack.keycloakUrl,
      realm: stack.realm,
      clientId,
      clientSecret: `${clientId}-local-secret`,
    });
    sources.set(key, source);
  }
  const tokens = source;
  return () => tokens.token();
}

/** Every calling service's token getter, e.g. `tokens.bff()`. */
export function serviceTokensOf(stack: TestStack): Record<ServiceCaller, ServiceTokenGetter> {
  return {
    bff: serviceTokenOf(stack, 'bff'),
    identity: serviceTokenOf(stack, 'identity'),
    brand: serviceTokenOf(stack, 'brand'),
    media: serviceTokenOf(stack, 'media'),
    notifications: serviceTokenOf(stack, 'notifications'),
    moderation: serviceTokenOf(stack, 'moderation'),
  };
}
