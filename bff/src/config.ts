/**
 * The BFF's configuration, read once from environment variables and checked
 * with zod so a missing or malformed setting stops the process at start
 * (fail fast). Defaults are the local ports of docs/conventions.md.
 */
import { z } from 'zod';

const url = z.url();

export const configSchema = z.object({
  /** HTTP + socket.io port (docs/conventions.md: 4000). */
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  /** Back-channel address of Keycloak (token endpoint, JWKS). */
  KEYCLOAK_URL: url.default('http://127.0.0.1:8080'),
  /** Front-channel address of Keycloak: the issuer tokens carry. */
  KEYCLOAK_PUBLIC_URL: url.default('http://localhost:8080'),
  KEYCLOAK_REALM: z.string().min(1).default('raly'),
  /** Public client whose password grant signs users in (direct access grants on). */
  KEYCLOAK_WEB_CLIENT_ID: z.string().min(1).default('raly-web'),
  /** Bearer-only resource client that keycloak-connect protects `/api` as. */
  KEYCLOAK_BFF_CLIENT_ID: z.string().min(1).default('raly-bff'),
  IDENTITY_URL: url.default('http://127.0.0.1:4001'),
  BRAND_URL: url.default('http://127.0.0.1:4002'),
  MEDIA_URL: url.default('http://127.0.0.1:4003'),
  REDIS_URL: url.default('redis://127.0.0.1:6379'),
  /** Comma-separated host:port list. */
  KAFKA_BROKERS: z
    .string()
    .default('127.0.0.1:9092')
    .transform((value) => value.split(',').map((broker) => broker.trim()).filter(Boolean))
    .pipe(z.array(z.string()).min(1)),
  /** Consumer group of the read-model projector; each BFF deployment (and each test run) its own. */
  KAFKA_GROUP_ID: z.string().min(1).default('bff'),
  /** Browser origin(s) allowed by CORS and socket.io, comma-separated. */
  CORS_ORIGIN: z
    .string()
    .default('http://localhost:5173')
    .transform((value) => value.split(',').map((origin) => origin.trim()).filter(Boolean)),
  /** Timeout of each call to Keycloak or a service, in milliseconds. */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = z.infer<typeof configSchema>;

/**
 * Reads the configuration.
 * @param env the variables to read (defaults to `process.env`)
 * @returns the validated configuration
 * @throws ZodError naming every invalid variable
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return configSchema.parse(env);
}

/** `<KEYCLOAK_PUBLIC_URL>/realms/<realm>`: the `iss` every access token carries. */
export const issuerOf = (config: Config): string =>
  `${config.KEYCLOAK_PUBLIC_URL.replace(/\/$/, '')}/realms/${config.KEYCLOAK_REALM}`;

/** `<KEYCLOAK_URL>/realms/<realm>`: where the BFF itself calls Keycloak. */
export const backChannelRealmUrlOf = (config: Config): string =>
  `${config.KEYCLOAK_URL.replace(/\/$/, '')}/realms/${config.KEYCLOAK_REALM}`;
