/** The notifications service's environment, validated at start (fail fast). */
import { accessTokenConfigShape } from '@raly/service-kit/auth';
import { consumerConfigShape, serviceConfigShape } from '@raly/service-kit/config';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceConfigShape({ port: 4006, database: 'raly_notifications' }),
  /** Consumer of identity, offers and collaborations (messaging/subscriptions.ts). */
  ...consumerConfigShape('notifications'),
  /** Back channel to Keycloak (JWKS). */
  KEYCLOAK_URL: z.url().default('http://127.0.0.1:8080'),
  /** What Keycloak puts in the tokens' issuer. */
  KEYCLOAK_PUBLIC_URL: z.url().default('http://localhost:8080'),
  KEYCLOAK_REALM: z.string().min(1).default('raly'),
  /** Audience and authorised party every accepted access token carries. */
  ...accessTokenConfigShape,
  /** Creators told of an opened offer per transaction (the announcement's batch). */
  NOTIFICATIONS_ANNOUNCE_BATCH: z.coerce.number().int().min(1).max(5_000).default(500),
  /**
   * Hours after which a fact is too old to notify anyone of: a new consumer group replaying
   * the topics from the beginning rebuilds its copies without flooding inboxes with history.
   */
  /** How often the review reminders' sweep runs, in ms. */
  NOTIFICATIONS_SWEEP_MS: z.coerce.number().int().min(50).max(3_600_000).default(60_000),
  /** Hours before a submission's automatic approval its brand is reminded (fractions allowed). */
  NOTIFICATIONS_REVIEW_REMINDER_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(24),
  /**
   * A person with no open Raly socket (no `live.presence.seen` heartbeat) for this long, in ms,
   * counts as away; keep it well above the BFF's PRESENCE_HEARTBEAT_MS.
   */
  NOTIFICATIONS_AWAY_AFTER_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(24 * 3_600_000)
    .default(600_000),
  NOTIFICATIONS_MAX_AGE_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(72),
});

export type Config = z.infer<typeof configSchema>;

/** The default database of this service (also used by `npm run migrate`). */
export const defaultDatabaseUrl = configSchema.shape.DATABASE_URL.parse(undefined);
