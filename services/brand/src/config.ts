/** The brand service's environment, validated at start (fail fast). */
import { z } from 'zod';

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4002),
  DATABASE_URL: z.url().default('postgresql://postgres@127.0.0.1:5432/raly_brand'),
  KAFKA_BROKERS: z
    .string()
    .default('127.0.0.1:9092')
    .transform((value) => value.split(',').map((broker) => broker.trim())),
  LOG_LEVEL: z.string().default('info'),
});

export type Config = z.infer<typeof configSchema>;

/** The default database of this service (also used by `npm run migrate`). */
export const defaultDatabaseUrl = configSchema.shape.DATABASE_URL.parse(undefined);
