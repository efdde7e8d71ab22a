/** The collaborations service's environment, validated at start (fail fast). */
import { accessTokenConfigShape } from '@raly/service-kit/auth';
import { consumerConfigShape, serviceConfigShape } from '@raly/service-kit/config';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceConfigShape({ port: 4005, database: 'raly_collaborations' }),
  /** Consumer of `offers.application.v1` (an accepted application opens a collaboration). */
  ...consumerConfigShape('collaborations'),
  /** Back channel to Keycloak (JWKS). */
  KEYCLOAK_URL: z.url().default('http://127.0.0.1:8080'),
  /** What Keycloak puts in the tokens' issuer. */
  KEYCLOAK_PUBLIC_URL: z.url().default('http://localhost:8080'),
  KEYCLOAK_REALM: z.string().min(1).default('raly'),
  /** Audience and authorised party every accepted access token carries. */
  ...accessTokenConfigShape,
  /** identity-profile: `GET /users/me` as the caller, for the brand a brand-side caller acts for. */
  IDENTITY_URL: z.url().default('http://127.0.0.1:4001'),
});

export type Config = z.infer<typeof configSchema>;

/** The default database of this service (also used by `npm run migrate`). */
export const defaultDatabaseUrl = configSchema.shape.DATABASE_URL.parse(undefined);
