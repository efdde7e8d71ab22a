/** The media service's environment, validated at start (fail fast). */
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
  ...serviceConfigShape({ port: 4003, database: 'raly_media' }),
  /** Its own Keycloak client: calls other services as it, and is the audience of calls to it. */
  ...serviceClientConfigShape(serviceClientIds.media),
  /** Consumer of `identity.user.v1` and `brand.brand.v1` (default pictures). */
  ...consumerConfigShape('media'),
  S3_ENDPOINT: z.url().default('http://127.0.0.1:9090'),
  S3_BUCKET: z.string().min(1).default('raly-media'),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: secretWithDevelopmentDefault(z.string().min(1), 'raly-local'),
  S3_SECRET_ACCESS_KEY: secretWithDevelopmentDefault(z.string().min(1), 'raly-local-secret'),
  /** Base of download URLs: `${MEDIA_PUBLIC_URL}/files/<key>?v=<version>` (this service's `GET /files/*`). */
  MEDIA_PUBLIC_URL: z.url().default('http://localhost:4003'),
  /** services/brand, asked whether an uploader is a member of the brand. */
  BRAND_URL: z.url().default('http://127.0.0.1:4002'),
  /** services/collaborations, asked as the uploader or reader whether a submission image may be theirs. */
  COLLABORATIONS_URL: z.url().default('http://127.0.0.1:4005'),
  KEYCLOAK_URL: z.url().default('http://127.0.0.1:8080'),
  KEYCLOAK_PUBLIC_URL: z.url().default('http://localhost:8080'),
  KEYCLOAK_REALM: z.string().min(1).default('raly'),
  /** Audience and authorised party every accepted access token carries. */
  ...accessTokenConfigShape,
});

export type Config = z.infer<typeof configSchema>;

/** The default database of this service (also used by `npm run migrate`). */
export const defaultDatabaseUrl = configSchema.shape.DATABASE_URL.parse(undefined);
