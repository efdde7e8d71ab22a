/**
 * The BFF's configuration, read once from environment variables and checked
 * with zod so a missing or malformed setting stops the process at start
 * (fail fast). Defaults are the local ports of docs/conventions.md.
 */
import { accessTokenConfigShape } from '@raly/service-kit/auth';
import { serviceClientIds } from '@raly/contracts/internal';
import {
  loadConfig as loadKitConfig,
  secretWithDevelopmentDefault,
} from '@raly/service-kit/config';
import { serviceClientConfigShape } from '@raly/service-kit/internal';
import { tracingConfigShape } from '@raly/service-kit/tracing';
import { z } from 'zod';

const url = z.url();

/**
 * A rate limit written `<points>/<seconds>`, e.g. `10/900`: at most 10
 * requests in any window of 900 s.
 */
const rateLimit = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, ctx) => {
      const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
      if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) {
        ctx.addIssue({
          code: 'custom',
          message: `expected <points>/<seconds>, e.g. 10/900; got ${value}`,
        });
        return z.NEVER;
      }
      return { points: Number(match[1]), durationSeconds: Number(match[2]) };
    });

export type RateLimitSetting = { points: number; durationSeconds: number };

/** express's `trust proxy`: `true`/`false`, a hop count, or addresses, subnets and presets (comma-separated). */
const trustProxy = z
  .string()
  .default('false')
  .transform((value): boolean | number | string => {
    const text = value.trim();
    if (text === 'true' || text === 'false') return text === 'true';
    if (/^\d+$/.test(text)) return Number(text);
    return text;
  });

export const configSchema = z.object({
  /** HTTP + socket.io port (docs/conventions.md: 4000). */
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  /**
   * Interface to listen on: loopback unless configured; containers (compose,
   * k8s, the Dockerfile) set `0.0.0.0`.
   */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Back-channel address of Keycloak (token endpoint, JWKS). */
  KEYCLOAK_URL: url.default('http://127.0.0.1:8080'),
  /** Front-channel address of Keycloak: the issuer tokens carry. */
  KEYCLOAK_PUBLIC_URL: url.default('http://localhost:8080'),
  KEYCLOAK_REALM: z.string().min(1).default('raly'),
  /**
   * KEYCLOAK_LOGIN_CLIENT_ID: the BFF's confidential sign-in client, whose password and refresh
   * grants sign users in and keep them signed in (and the `azp` of every accepted token;
   * docs/adr/0009); KEYCLOAK_BFF_CLIENT_ID: the bearer-only client keycloak-connect protects `/api`
   * as (in every accepted token's `aud`). Same lines as the services'.
   */
  ...accessTokenConfigShape,
  /**
   * The staff console's public client (docs/console.md): every `/api/console` access token must be
   * issued to it (`azp`), and the product's routes refuse its tokens.
   */
  KEYCLOAK_CONSOLE_CLIENT_ID: z.string().min(1).default('raly-console'),
  /**
   * The sign-in client's secret (realm variable KEYCLOAK_BFF_LOGIN_CLIENT_SECRET): sent with every
   * password, refresh and logout call to Keycloak. Not the service client's (KEYCLOAK_SERVICE_CLIENT_SECRET).
   */
  KEYCLOAK_LOGIN_CLIENT_SECRET: secretWithDevelopmentDefault(
    z.string().min(1),
    'raly-bff-login-local-secret',
  ),
  IDENTITY_URL: url.default('http://127.0.0.1:4001'),
  BRAND_URL: url.default('http://127.0.0.1:4002'),
  MEDIA_URL: url.default('http://127.0.0.1:4003'),
  /** services/offers. */
  OFFERS_URL: url.default('http://127.0.0.1:4004'),
  /** services/collaborations. */
  COLLABORATIONS_URL: url.default('http://127.0.0.1:4005'),
  /** services/notifications. */
  NOTIFICATIONS_URL: url.default('http://127.0.0.1:4006'),
  /** services/moderation: the staff audit log the console reads (docs/console.md "Audit log"). */
  MODERATION_URL: url.default('http://127.0.0.1:4007'),
  /** A secret in production: it may carry Redis's password. */
  REDIS_URL: secretWithDevelopmentDefault(url, 'redis://127.0.0.1:6379'),
  /** Comma-separated host:port list. */
  KAFKA_BROKERS: z
    .string()
    .default('127.0.0.1:9092')
    .transform((value) =>
      value
        .split(',')
        .map((broker) => broker.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string()).min(1)),
  /** Consumer group of the read-model projector; each BFF deployment (and each test run) its own. */
  KAFKA_GROUP_ID: z.string().min(1).default('bff'),
  /** Browser origin(s) allowed by CORS and socket.io, comma-separated. */
  CORS_ORIGIN: z
    .string()
    .default('http://localhost:5173')
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    ),
  /** Timeout of each call to Keycloak or a service, in milliseconds. */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /**
   * Which proxies in front of the BFF are trusted to tell the client
   * address (X-Forwarded-For), so per-address rate limits see the real
   * client behind a proxy: the hop count or the proxies' addresses
   * (docs/api.md "Client address"). Default `false`: no proxy, the peer's
   * socket address is the client's, and X-Forwarded-For is ignored.
   */
  TRUST_PROXY: trustProxy,
  /**
   * The BFF's own confidential client (client credentials): its access tokens go to
   * identity-profile's internal endpoints (`x-raly-service-token`, docs/adr/0008).
   */
  ...serviceClientConfigShape(serviceClientIds.bff),
  /** HMAC-SHA256 key of the sign-in device cookie (docs/api.md "Rate limits"); a secret. */
  DEVICE_COOKIE_SECRET: secretWithDevelopmentDefault(
    z.string().min(32),
    'raly-device-cookie-local-secret-0123456789',
  ),
  /** How long a device cookie stays valid, in seconds (default 90 days). */
  DEVICE_COOKIE_MAX_AGE_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(90 * 24 * 3600),
  /** Redis key prefix of the rate-limit counters (tests use their own). */
  RATE_LIMIT_KEY_PREFIX: z.string().min(1).default('bff:rate'),
  /** Failed sign-ins per e-mail from clients without that e-mail's device cookie (docs/api.md "Rate limits"). */
  RATE_LIMIT_LOGIN_PER_EMAIL: rateLimit('10/900'),
  /** Failed sign-ins per client address and e-mail, without a device cookie. */
  RATE_LIMIT_LOGIN_PER_IP_AND_EMAIL: rateLimit('5/900'),
  /** Failed sign-ins per client address (any e-mail), without a device cookie. */
  RATE_LIMIT_LOGIN_PER_IP: rateLimit('50/900'),
  /** Failed sign-ins per device cookie (its e-mail only). */
  RATE_LIMIT_LOGIN_PER_DEVICE: rateLimit('10/900'),
  /** Verify Password checks per signed-in user. */
  RATE_LIMIT_VERIFY_PASSWORD_PER_USER: rateLimit('10/900'),
  /** Reset-link requests per e-mail. */
  RATE_LIMIT_FORGOT_PASSWORD_PER_EMAIL: rateLimit('5/3600'),
  /** Reset-link requests per client address. */
  RATE_LIMIT_FORGOT_PASSWORD_PER_IP: rateLimit('20/3600'),
  /** Token refreshes (POST /api/auth/refresh) per client address. */
  RATE_LIMIT_REFRESH_PER_IP: rateLimit('120/60'),
  /** Callable calls (checkEmailExists, checkUsernameExists) per client address. */
  RATE_LIMIT_CALLABLE_PER_IP: rateLimit('120/60'),
  /** Account creations per client address. */
  RATE_LIMIT_CREATE_ACCOUNT_PER_IP: rateLimit('20/3600'),
  /** Account creations per e-mail of the registration. */
  RATE_LIMIT_CREATE_ACCOUNT_PER_EMAIL: rateLimit('5/3600'),
  /** Applications to offers per signed-in user (POST /api/offers/:id/applications). */
  RATE_LIMIT_APPLY_PER_USER: rateLimit('30/3600'),
  /** Offers created per signed-in user (POST /api/offers). */
  RATE_LIMIT_CREATE_OFFER_PER_USER: rateLimit('20/3600'),
  /** Messages sent per signed-in user (POST /api/collaborations/:id/messages), any collaboration. */
  RATE_LIMIT_SEND_MESSAGE_PER_USER: rateLimit('30/60'),
  /** Deliverables handed in per signed-in user (POST …/deliverables/:deliverableId/submissions), any collaboration. */
  RATE_LIMIT_SUBMIT_DELIVERABLE_PER_USER: rateLimit('20/60'),
  /** Reviews of completed collaborations per signed-in user (POST /api/collaborations/:id/review), any collaboration. */
  RATE_LIMIT_LEAVE_REVIEW_PER_USER: rateLimit('10/60'),
  /** Reports opened per signed-in user (POST /api/reports), any item. */
  RATE_LIMIT_REPORTS_PER_USER: rateLimit('10/3600'),
  /** Notifications marked read per signed-in user (POST /api/notifications/:id/read and /read-all). */
  RATE_LIMIT_MARK_READ_PER_USER: rateLimit('120/60'),
  /** Notification preference changes per signed-in user (PUT /api/notifications/preferences). */
  RATE_LIMIT_UPDATE_PREFERENCES_PER_USER: rateLimit('30/60'),
  /**
   * One-click unsubscribes (POST /api/unsubscribe/:token) per client address: generous, as a
   * mail provider posts its users' one-click requests from a few addresses (RFC 8058).
   */
  RATE_LIMIT_UNSUBSCRIBE_PER_IP: rateLimit('300/60'),
  /**
   * Contact views per staff member (POST /api/console/{creators,brands}/:id/contact-view), both
   * together: a staff member reading many people's contact details in a row is stopped.
   */
  RATE_LIMIT_CONTACT_VIEW_PER_STAFF: rateLimit('60/3600'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** OpenTelemetry tracing (OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_ENDPOINT…): off unless an exporter is set. */
  ...tracingConfigShape,
  /**
   * Redis key prefix of the read model (`<prefix>:<kind>:<id>`): every replica of one
   * deployment shares it; a test BFF that must not see other runs' snapshots sets its own.
   */
  READ_MODEL_KEY_PREFIX: z.string().min(1).default('rm'),
  /**
   * The Redis adapter's channel prefix: replicas with the same key share rooms and pushes;
   * a test BFF that must not receive other runs' pushes and room moves sets its own.
   */
  LIVE_ADAPTER_KEY: z.string().min(1).default('socket.io'),
  /** Redis key prefix of the ended sessions (docs/api.md "Ending sessions"; tests use their own). */
  SESSION_REVOCATION_KEY_PREFIX: z.string().min(1).default('bff:revoked'),
  /**
   * How long an ended session is remembered, in seconds: at least the realm's
   * access token lifespan (300 s) plus clock skew, after which its tokens have expired.
   */
  SESSION_REVOCATION_TTL_SECONDS: z.coerce.number().int().positive().default(360),
  /**
   * Most bytes the client-side cache of the hottest reads holds (ended-session marks, the
   * users and brands GET /api/me answers with; docs/adr/0012), bytes; 0 turns it off
   * (every such read then goes to Redis).
   */
  CLIENT_SIDE_CACHE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(8 * 1024 * 1024),
  /**
   * How often each replica publishes `live.presence.seen` for every user with an open socket
   * on it, in ms (docs/architecture.md "Presence"); keep it well under the notifications
   * service's `NOTIFICATIONS_AWAY_AFTER_MS`.
   */
  PRESENCE_HEARTBEAT_MS: z.coerce.number().int().min(50).max(600_000).default(60_000),
});

export type Config = z.infer<typeof configSchema>;

/**
 * Reads the configuration with the kit's loader, as every service does.
 * @param env the variables to read (defaults to `process.env`)
 * @returns the validated configuration
 * @throws Error naming every invalid variable (the kit's "Invalid configuration")
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return loadKitConfig(configSchema, env);
}

/** `<KEYCLOAK_PUBLIC_URL>/realms/<realm>`: the `iss` every access token carries. */
export const issuerOf = (config: Config): string =>
  `${config.KEYCLOAK_PUBLIC_URL.replace(/\/$/, '')}/realms/${config.KEYCLOAK_REALM}`;

/** `<KEYCLOAK_URL>/realms/<realm>`: where the BFF itself calls Keycloak. */
export const backChannelRealmUrlOf = (config: Config): string =>
  `${config.KEYCLOAK_URL.replace(/\/$/, '')}/realms/${config.KEYCLOAK_REALM}`;
