/** The brand service's environment, validated at start (fail fast). */
import { accessTokenConfigShape } from '@raly/service-kit/auth';
import { consumerConfigShape, serviceConfigShape } from '@raly/service-kit/config';
import { internalServiceTokenShape } from '@raly/service-kit/internal';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceConfigShape({ port: 4002, database: 'raly_brand' }),
  ...internalServiceTokenShape,
  /** Consumer of `media.image.v1`. */
  ...consumerConfigShape('brand'),
  /** Back channel to Keycloak (JWKS). */
  KEYCLOAK_URL: z.url().default('http://127.0.0.1:8080'),
  /** What Keycloak puts in the tokens' issuer. */
  KEYCLOAK_PUBLIC_URL: z.url().default('http://localhost:8080'),
  KEYCLOAK_REALM: z.string().min(1).default('raly'),
  /** Audience and authorised party every accepted access token carries. */
  ...accessTokenConfigShape,
  /** identity-profile, owner of the username registry. */
  IDENTITY_URL: z.url().default('http://127.0.0.1:4001'),
});

export type Config = z.infer<typeof configSchema>;

/** The default database of this service (also used by `npm run migrate`). */
export const defaultDatabaseUrl = configSchema.shape.DATABASE_URL.parse(undefined);
