/** The identity-profile service's environment, validated at start (fail fast). */
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
  ...serviceConfigShape({ port: 4001, database: 'raly_identity' }),
  /** Its own Keycloak client: calls other services as it, and is the audience of calls to it. */
  ...serviceClientConfigShape(serviceClientIds.identity),
  /** services/brand, called by the brand registration saga. */
  BRAND_URL: z.url().default('http://127.0.0.1:4002'),
  /** Consumer of `media.image.v1`. */
  ...consumerConfigShape('identity-profile'),
  /** Back channel to Keycloak (Admin API, JWKS). */
  KEYCLOAK_URL: z.url().default('http://127.0.0.1:8080'),
  /** What Keycloak puts in the tokens' issuer. */
  KEYCLOAK_PUBLIC_URL: z.url().default('http://localhost:8080'),
  KEYCLOAK_REALM: z.string().min(1).default('raly'),
  /** Audience and authorised party every accepted access token carries. */
  ...accessTokenConfigShape,
  KEYCLOAK_IDENTITY_CLIENT_ID: z.string().min(1).default('raly-identity'),
  KEYCLOAK_IDENTITY_CLIENT_SECRET: secretWithDevelopmentDefault(
    z.string().min(1),
    'raly-identity-local-secret',
  ),
  /** Where password reset e-mails go out (nodemailer URL). */
  /** A secret in production: it may carry the relay's credentials. */
  SMTP_URL: secretWithDevelopmentDefault(z.url(), 'smtp://127.0.0.1:1025'),
  /** Sender of the e-mails. */
  MAIL_FROM: z.string().min(1).default('Raly <no-reply@raly.local>'),
  /** The web app's origin; reset links point at `${WEB_URL}/auth/action`. */
  WEB_URL: z.url().default('http://localhost:5173'),
  /** Public (non-secret) key the reset link carries as `apiKey` (spec §2: /auth/action needs it). */
  PUBLIC_API_KEY: z.string().min(1).default('raly-local-public-key'),
  /** How long a password reset code stays usable, in seconds (default 1 hour). */
  RESET_CODE_TTL_SECONDS: z.coerce.number().int().positive().default(3600),
});

export type Config = z.infer<typeof configSchema>;

/** The default database of this service (also used by `npm run migrate`). */
export const defaultDatabaseUrl = configSchema.shape.DATABASE_URL.parse(undefined);
