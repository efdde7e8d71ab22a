/** The notifications service's environment, validated at start (fail fast). */
import { accessTokenConfigShape } from '@raly/service-kit/auth';
import {
  consumerConfigShape,
  secretWithDevelopmentDefault,
  serviceConfigShape,
} from '@raly/service-kit/config';
import { serviceClientConfigShape } from '@raly/service-kit/internal';
import { serviceClientIds } from '@raly/contracts/internal';
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
  /** This service's own Keycloak client: its identity when it calls identity-profile. */
  ...serviceClientConfigShape(serviceClientIds.notifications),
  /** identity-profile: the e-mail address of a person, asked for when an e-mail is sent. */
  IDENTITY_URL: z.url().default('http://127.0.0.1:4001'),
  /** Where the e-mails go out (nodemailer URL; `smtps://` for TLS from the start). A secret in production: it may carry the relay's credentials. */
  SMTP_URL: secretWithDevelopmentDefault(z.url(), 'smtp://127.0.0.1:1025'),
  /** Sender of the e-mails. */
  MAIL_FROM: z.string().min(1).default('Raly <no-reply@raly.local>'),
  /** The web app's origin: the e-mails' links point at it (its `/api` reaches the BFF). */
  WEB_URL: z.url().default('http://localhost:5173'),
  /** HMAC key of the e-mails' unsubscribe tokens (at least 32 characters). */
  NOTIFICATIONS_UNSUBSCRIBE_SECRET: secretWithDevelopmentDefault(
    z.string().min(32),
    'raly-notifications-unsubscribe-local-secret',
  ),
  /** At most one digest e-mail per person within this many ms. */
  NOTIFICATIONS_DIGEST_WINDOW_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(7 * 24 * 3_600_000)
    .default(3_600_000),
  /** How often the digests due are opened, in ms. */
  NOTIFICATIONS_DIGEST_SWEEP_MS: z.coerce.number().int().min(50).max(3_600_000).default(60_000),
  /** How often the mail relay sends the due e-mails of the mail outbox, in ms. */
  NOTIFICATIONS_MAIL_RELAY_MS: z.coerce.number().int().min(50).max(600_000).default(5_000),
  /** Delay before an e-mail's second attempt, in ms; it doubles after each failure (at most an hour). */
  NOTIFICATIONS_MAIL_RETRY_MS: z.coerce.number().int().min(10).max(3_600_000).default(60_000),
  /** Attempts of one e-mail before it is given up. */
  NOTIFICATIONS_MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(12),
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
