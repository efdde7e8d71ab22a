/** The identity-profile service's environment, validated at start (fail fast). */
import { serviceConfigShape } from '@raly/service-kit/config';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceConfigShape({ port: 4001, database: 'raly_identity' }),
  /** Back channel to Keycloak (Admin API, JWKS). */
  KEYCLOAK_URL: z.url().default('http://127.0.0.1:8080'),
  /** What Keycloak puts in the tokens' issuer. */
  KEYCLOAK_PUBLIC_URL: z.url().default('http://localhost:8080'),
  KEYCLOAK_REALM: z.string().min(1).default('raly'),
  KEYCLOAK_IDENTITY_CLIENT_ID: z.string().min(1).default('raly-identity'),
  KEYCLOAK_IDENTITY_CLIENT_SECRET: z.string().min(1).default('raly-identity-local-secret'),
});

export type Config = z.infer<typeof configSchema>;

/** The default database of this service (also used by `npm run migrate`). */
export const defaultDatabaseUrl = configSchema.shape.DATABASE_URL.parse(undefined);
