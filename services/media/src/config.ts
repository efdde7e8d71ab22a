/** The media service's environment, validated at start (fail fast). */
import { z } from 'zod';

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4003),
  DATABASE_URL: z.url().default('postgresql://postgres@127.0.0.1:5432/raly_media'),
  KAFKA_BROKERS: z
    .string()
    .default('127.0.0.1:9092')
    .transform((value) => value.split(',').map((broker) => broker.trim())),
  S3_ENDPOINT: z.url().default('http://127.0.0.1:9090'),
  S3_BUCKET: z.string().min(1).default('raly-media'),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).default('raly-local'),
  S3_SECRET_ACCESS_KEY: z.string().min(1).default('raly-local-secret'),
  LOG_LEVEL: z.string().default('info'),
});

export type Config = z.infer<typeof configSchema>;

/** The default database of this service (also used by `npm run migrate`). */
export const defaultDatabaseUrl = configSchema.shape.DATABASE_URL.parse(undefined);
