/** The collaborations service's environment, validated at start (fail fast). */
import { accessTokenConfigShape } from '@raly/service-kit/auth';
import { consumerConfigShape, serviceConfigShape } from '@raly/service-kit/config';
import {
  PAYMENT_OVERDUE_DAYS_DEFAULT,
  REVIEW_WINDOW_HOURS_DEFAULT,
} from '@raly/contracts/collaboration-work';
import { z } from 'zod';

const HOUR_MS = 3_600_000;

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
  /**
   * How long the brand an access token's user acts for is remembered, in ms (0: asked every
   * time): a member who leaves a brand may still act for it this long with a token already used.
   */
  IDENTITY_BRAND_CACHE_MS: z.coerce.number().int().min(0).max(300_000).default(30_000),
  /** How often the work's sweeps run (auto-approval, overdue payments), in ms. */
  COLLABORATIONS_SWEEP_MS: z.coerce.number().int().min(50).max(3_600_000).default(30_000),
  /** Hours a submission waits for the brand's review before it is approved (fractions allowed). */
  COLLABORATIONS_REVIEW_WINDOW_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(REVIEW_WINDOW_HOURS_DEFAULT),
  /** Days a due payment may stay unconfirmed before it shows as overdue (fractions allowed). */
  COLLABORATIONS_PAYMENT_OVERDUE_DAYS: z.coerce
    .number()
    .positive()
    .max(365)
    .default(PAYMENT_OVERDUE_DAYS_DEFAULT),
});

export type Config = z.infer<typeof configSchema>;

/** The work's windows of a config, in ms. */
export const workWindowsOf = (config: Config) => ({
  reviewWindowMs: Math.round(config.COLLABORATIONS_REVIEW_WINDOW_HOURS * HOUR_MS),
  paymentOverdueMs: Math.round(config.COLLABORATIONS_PAYMENT_OVERDUE_DAYS * 24 * HOUR_MS),
});

/** The default database of this service (also used by `npm run migrate`). */
export const defaultDatabaseUrl = configSchema.shape.DATABASE_URL.parse(undefined);
