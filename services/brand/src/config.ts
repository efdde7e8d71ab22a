/** The brand service's environment, validated at start (fail fast). */
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
  ...serviceConfigShape({ port: 4002, database: 'raly_brand' }),
  /** Its own Keycloak client: calls other services as it, and is the audience of calls to it. */
  ...serviceClientConfigShape(serviceClientIds.brand),
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
  /** Where invitation e-mails go out (nodemailer URL); a secret in production: it may carry credentials. */
  SMTP_URL: secretWithDevelopmentDefault(z.url(), 'smtp://127.0.0.1:1025'),
  /** Sender of the e-mails. */
  MAIL_FROM: z.string().min(1).default('Raly <no-reply@raly.local>'),
  /** The web app's origin; invitation links point at `${WEB_URL}/join/team`. */
  WEB_URL: z.url().default('http://localhost:5173'),
});

export type Config = z.infer<typeof configSchema>;

/** The default database of this service (also used by `npm run migrate`). */
export const defaultDatabaseUrl = configSchema.shape.DATABASE_URL.parse(undefined);
