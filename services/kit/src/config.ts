/**
 * Fail-fast configuration: a service describes its environment once as a
 * zod schema (with the conventions' defaults) and refuses to start when a
 * variable is missing or malformed.
 */
import { z } from 'zod';

/**
 * Parses the environment with `schema`.
 * @param schema zod object schema over environment variable names
 * @param env the environment to read; default `process.env`
 * @returns the typed configuration
 * @throws Error naming every invalid variable (the service must not start)
 */
export function loadConfig<Schema extends z.ZodType>(
  schema: Schema,
  env: Record<string, string | undefined> = process.env,
): z.infer<Schema> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return result.data;
}

/**
 * The variables every service reads, with its local defaults
 * (docs/conventions.md): PORT, DATABASE_URL, KAFKA_BROKERS (comma list →
 * array), LOG_LEVEL. Spread into the service's own `z.object({...})`.
 * @param defaults the service's port and database name, e.g. `{ port: 4002, database: 'raly_brand' }`
 */
export function serviceConfigShape(defaults: { port: number; database: string }) {
  return {
    PORT: z.coerce.number().int().min(0).max(65535).default(defaults.port),
    DATABASE_URL: z.url().default(`postgresql://postgres@127.0.0.1:5432/${defaults.database}`),
    KAFKA_BROKERS: z
      .string()
      .default('127.0.0.1:9092')
      .transform((value) => value.split(',').map((broker) => broker.trim())),
    LOG_LEVEL: z.string().default('info'),
  };
}

/**
 * The variables of a service that consumes events: KAFKA_GROUP_ID (default
 * the service name) and KAFKA_FROM_BEGINNING (default true: a new group
 * replays the topics, which is how a new consumer backfills; tests say
 * `false` so their fresh groups skip history) and KAFKA_CONSUME (default
 * true; `false` runs the service without its consumer, for tests of its own
 * API that must not react to other test runs' events on the shared topics).
 * @param groupId the default consumer group, e.g. `media`
 */
export function consumerConfigShape(groupId: string) {
  return {
    KAFKA_CONSUME: z
      .enum(['true', 'false'])
      .default('true')
      .transform((value) => value === 'true'),
    KAFKA_GROUP_ID: z.string().min(1).default(groupId),
    KAFKA_FROM_BEGINNING: z
      .enum(['true', 'false'])
      .default('true')
      .transform((value) => value === 'true'),
  };
}
