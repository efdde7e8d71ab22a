/**
 * Fail-fast configuration: a service describes its environment once as a
 * zod schema (with the conventions' defaults) and refuses to start when a
 * variable is missing or malformed.
 */
import { z } from 'zod';
import { tracingConfigShape } from './tracing';

/**
 * Parses the environment with `schema`; in production mode
 * (`NODE_ENV=production`) also refuses secrets left unset or at their
 * development default ({@link secretWithDevelopmentDefault}).
 * @param schema zod object schema over environment variable names
 * @param env the environment to read; default `process.env`
 * @returns the typed configuration
 * @throws Error naming every invalid variable, and in production every
 *   missing or development-default secret (the service must not start)
 */
export function loadConfig<Schema extends z.ZodType>(
  schema: Schema,
  env: Record<string, string | undefined> = process.env,
): z.infer<Schema> {
  const result = schema.safeParse(env);
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  if (env.NODE_ENV === 'production') problems.push(...productionSecretProblems(schema, env));
  if (problems.length > 0 || !result.success)
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return result.data;
}

/**
 * A secret variable with a development default: outside
 * production the default lets the local stack and the tests start without
 * it; in production mode (`NODE_ENV=production`) {@link loadConfig} refuses
 * to start when the variable is unset, empty or still that default.
 * @param schema the value's own checks, e.g. `z.string().min(32)` or `z.url()`
 * @param developmentDefault the local value of docs/conventions.md, public by nature
 */
export function secretWithDevelopmentDefault<Value extends z.ZodType<string, string>>(
  schema: Value,
  developmentDefault: string,
) {
  return schema
    .default(developmentDefault as z.util.NoUndefined<z.output<Value>>)
    .meta({ secret: true });
}

/**
 * The secrets of `schema` ({@link secretWithDevelopmentDefault}) that
 * production mode refuses: unset or empty, or equal to the development default.
 * @returns one line per refused variable, naming it
 */
function productionSecretProblems(
  schema: z.ZodType,
  env: Record<string, string | undefined>,
): string[] {
  if (!(schema instanceof z.ZodObject)) return [];
  const problems: string[] = [];
  for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    if (field.meta()?.secret !== true) continue;
    const given = env[name];
    if (!given) problems.push(`${name}: a secret, required in production (NODE_ENV=production)`);
    else if (given === field.parse(undefined))
      problems.push(
        `${name}: still the development default; production (NODE_ENV=production) needs its own secret`,
      );
  }
  return problems;
}

/** `'true'`/`'false'` (default `fallback`) as a boolean. */
const flag = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false'])
    .default(fallback)
    .transform((value) => value === 'true');

/**
 * How an app reaches Kafka beyond the broker list, so Strimzi's
 * TLS listeners and managed Kafka work without a code change. All optional:
 * unset, the client speaks PLAINTEXT without authentication (the local stack).
 * - KAFKA_SSL: `true` for TLS (default `false`);
 * - KAFKA_SSL_CA_FILE: PEM file of the CA that signed the brokers'
 *   certificates (e.g. Strimzi's cluster CA); unset, the system's CAs;
 * - KAFKA_SSL_REJECT_UNAUTHORIZED: `false` accepts any broker certificate
 *   (never in production; default `true`);
 * - KAFKA_SASL_MECHANISM: `plain`, `scram-sha-256` or `scram-sha-512`, with
 *   KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD (a secret).
 * `./kafka`'s kafkaConnectionFromEnv checks how they combine.
 */
export const kafkaConnectionConfigShape = {
  KAFKA_SSL: flag('false'),
  KAFKA_SSL_CA_FILE: z.string().min(1).optional(),
  KAFKA_SSL_REJECT_UNAUTHORIZED: flag('true'),
  KAFKA_SASL_MECHANISM: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']).optional(),
  KAFKA_SASL_USERNAME: z.string().min(1).optional(),
  KAFKA_SASL_PASSWORD: z.string().min(1).optional(),
};

/** Connections a pod's pg pool opens at most when DATABASE_POOL_MAX is unset. */
export const DEFAULT_DATABASE_POOL_MAX = 10;

/**
 * DATABASE_POOL_MAX: the most Postgres connections one process's pg pool
 * (shared by Prisma and the outbox relay) opens; default
 * {@link DEFAULT_DATABASE_POOL_MAX}. Replicas × this must fit what the
 * database or its pooler accepts (docs/operations.md "Postgres connections").
 */
export const databasePoolConfigShape = {
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(DEFAULT_DATABASE_POOL_MAX),
};

/**
 * The variables every service reads, with its local defaults
 * (docs/conventions.md): PORT, DATABASE_URL, DATABASE_POOL_MAX,
 * KAFKA_BROKERS (comma list → array), the Kafka connection's TLS and SASL
 * ({@link kafkaConnectionConfigShape}), LOG_LEVEL, the OpenTelemetry variables
 * (./tracing {@link tracingConfigShape}). Spread into the service's
 * own `z.object({...})`.
 * @param defaults the service's port and database name, e.g. `{ port: 4002, database: 'raly_brand' }`
 */
export function serviceConfigShape(defaults: { port: number; database: string }) {
  return {
    PORT: z.coerce.number().int().min(0).max(65535).default(defaults.port),
    /** A secret in production: it carries the database role's password. */
    DATABASE_URL: secretWithDevelopmentDefault(
      z.url(),
      `postgresql://postgres@127.0.0.1:5432/${defaults.database}`,
    ),
    ...databasePoolConfigShape,
    KAFKA_BROKERS: z
      .string()
      .default('127.0.0.1:9092')
      .transform((value) => value.split(',').map((broker) => broker.trim())),
    ...kafkaConnectionConfigShape,
    LOG_LEVEL: z.string().default('info'),
    ...tracingConfigShape,
  };
}

/**
 * The variables of a service that consumes events: KAFKA_GROUP_ID (default
 * the service name) and KAFKA_FROM_BEGINNING (default true: a new group
 * replays the topics, which is how a new consumer backfills; tests say
 * `false` so their fresh groups skip history) and KAFKA_CONSUME (default
 * true; `false` runs the service without its consumer, for tests of its own
 * API that must not react to other test runs' events on the shared topics),
 * and how its fetches batch (./consumer `fetchMinBytes`, `fetchMaxWaitMs`):
 * KAFKA_FETCH_MIN_BYTES (default 65536) and KAFKA_FETCH_MAX_WAIT_MS (default
 * 250): a service's consumer is off the live path, so it takes what a quarter
 * second brought in one fetch instead of one fetch per event; an event waits
 * at most that long before the service handles it.
 * @param groupId the default consumer group, e.g. `media`
 */
export function consumerConfigShape(groupId: string) {
  return {
    KAFKA_CONSUME: flag('true'),
    KAFKA_GROUP_ID: z.string().min(1).default(groupId),
    KAFKA_FROM_BEGINNING: flag('true'),
    KAFKA_FETCH_MIN_BYTES: z.coerce.number().int().min(1).max(16_777_216).default(65_536),
    KAFKA_FETCH_MAX_WAIT_MS: z.coerce.number().int().min(10).max(5_000).default(250),
  };
}
