/** The media service's environment, validated at start (fail fast). */
import { serviceConfigShape } from '@raly/service-kit/config';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceConfigShape({ port: 4003, database: 'raly_media' }),
  S3_ENDPOINT: z.url().default('http://127.0.0.1:9090'),
  S3_BUCKET: z.string().min(1).default('raly-media'),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).default('raly-local'),
  S3_SECRET_ACCESS_KEY: z.string().min(1).default('raly-local-secret'),
});

export type Config = z.infer<typeof configSchema>;

/** The default database of this service (also used by `npm run migrate`). */
export const defaultDatabaseUrl = configSchema.shape.DATABASE_URL.parse(undefined);
