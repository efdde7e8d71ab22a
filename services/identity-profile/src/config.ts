/** The identity-profile service's environment, validated at start (fail fast). */
import { z } from 'zod';

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4001),
  DATABASE_URL: z.url().default('postgresql://postgres@127.0.0.1:5432/raly_identity'),
  KAFKA_BROKERS: z
    .string()
    .default('127.0.0.1:9092')
    .transform((value) => value.split(',').map((broker) => broker.trim())),
  /** Back channel to Keycloak (Admin API, JWKS). */
  KEYCLOAK_URL: z.url().default('http://127.0.0.1:8080'),
  /** What Keycloak puts in the tokens' issuer. */
  KEYCLOAK_PUBLIC_URL: z.url().default('http://localhost:8080'),
  KEYCLOAK_REALM: z.string().min(1).default('raly'),
  KEYCLOAK_IDENTITY_CLIENT_ID: z.string().min(1).default('raly-identity'),
  KEYCLOAK_IDENTITY_CLIENT_SECRET: z.string().min(1).default('raly-identity-local-secret'),
  LOG_LEVEL: z.string().default('info'),
});

export type Config = z.infer<typeof configSchema>;

/** The default database of this service (also used by `npm run migrate`). */
export const defaultDatabaseUrl = configSchema.shape.DATABASE_URL.parse(undefined);
