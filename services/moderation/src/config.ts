/** The moderation service's environment, validated at start (fail fast). */
import { consumerConfigShape, serviceConfigShape } from '@raly/service-kit/config';
import { serviceClientIds } from '@raly/contracts/internal';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceConfigShape({ port: 4007, database: 'raly_moderation' }),
  /** Consumer of identity.audit.v1 and brand.audit.v1 (messaging/subscriptions.ts). */
  ...consumerConfigShape('moderation'),
  /** Back channel to Keycloak (JWKS of the service tokens). */
  KEYCLOAK_URL: z.url().default('http://127.0.0.1:8080'),
  /** What Keycloak puts in the tokens' issuer. */
  KEYCLOAK_PUBLIC_URL: z.url().default('http://localhost:8080'),
  KEYCLOAK_REALM: z.string().min(1).default('raly'),
  /**
   * This service's own Keycloak client: the audience its callers' service tokens must name. It
   * calls no other service, so it needs no secret.
   */
  KEYCLOAK_SERVICE_CLIENT_ID: z.string().min(1).default(serviceClientIds.moderation),
});

export type Config = z.infer<typeof configSchema>;

/** The default database of this service (also used by `npm run migrate`). */
export const defaultDatabaseUrl = configSchema.shape.DATABASE_URL.parse(undefined);
