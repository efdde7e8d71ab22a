/** The offers service's environment, validated at start (fail fast). */
import { accessTokenConfigShape } from '@raly/service-kit/auth';
import { consumerConfigShape, serviceConfigShape } from '@raly/service-kit/config';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceConfigShape({ port: 4004, database: 'raly_offers' }),
  /** Consumer of `identity.user.v1` and `brand.brand.v1` (the public copies of users and brands). */
  ...consumerConfigShape('offers'),
  /** Back channel to Keycloak (JWKS). */
  KEYCLOAK_URL: z.url().default('http://127.0.0.1:8080'),
  /** What Keycloak puts in the tokens' issuer. */
  KEYCLOAK_PUBLIC_URL: z.url().default('http://localhost:8080'),
  KEYCLOAK_REALM: z.string().min(1).default('raly'),
  /** Audience and authorised party every accepted access token carries. */
  ...accessTokenConfigShape,
  /** identity-profile: `GET /users/me` as the caller, for a user whose event has not arrived yet. */
  IDENTITY_URL: z.url().default('http://127.0.0.1:4001'),
  /** services/brand: `GET /brands/:id` as a member, for a brand whose event has not arrived yet. */
  BRAND_URL: z.url().default('http://127.0.0.1:4002'),
  /** How often open offers past their apply-by date are closed, in ms. */
  OFFERS_DEADLINE_SWEEP_MS: z.coerce.number().int().min(50).max(3_600_000).default(30_000),
});

export type Config = z.infer<typeof configSchema>;

/** The default database of this service (also used by `npm run migrate`). */
export const defaultDatabaseUrl = configSchema.shape.DATABASE_URL.parse(undefined);
