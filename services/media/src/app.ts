/**
 * Composition root of the media service: configuration, database, S3
 * bucket, outbox relay and the HTTP API (health only until the images issue
 * adds uploads). Ready only when the bucket exists. `start()`/`stop()` run
 * it in-process; `main.ts` as a process.
 */
import { loadConfig } from '@raly/service-kit/config';
import { createLogger } from '@raly/service-kit/logger';
import { runService, type RunningService } from '@raly/service-kit/service';
import { configSchema } from './config';
import { openMediaDatabase } from './data-access/database';
import { openImageBucket, type ImageBucket } from './data-access/image-bucket';

const serviceName = 'media';
let running: { service: RunningService; bucket: ImageBucket } | undefined;

export interface StartOptions {
  /** TCP port; 0 picks a free one. Default env PORT, else 4003. */
  port?: number;
  /** Overrides of the environment (tests pass their own DATABASE_URL, S3_BUCKET). */
  env?: Record<string, string | undefined>;
}

/**
 * Starts the service (the database must be migrated: `npm run migrate`).
 * @returns the bound port
 * @throws Error for an invalid configuration, or when already started
 */
export async function start(options: StartOptions = {}): Promise<{ port: number }> {
  if (running) throw new Error(`${serviceName} is already started`);
  const config = loadConfig(configSchema, { ...process.env, ...options.env });
  const bucket = openImageBucket(config);
  const service = await runService({
    name: serviceName,
    logger: createLogger(serviceName, config.LOG_LEVEL),
    port: options.port ?? config.PORT,
    kafkaBrokers: config.KAFKA_BROKERS,
    database: openMediaDatabase(config.DATABASE_URL),
    readiness: { bucket: bucket.assertExists },
    routes: () => {},
  });
  running = { service, bucket };
  return { port: service.port };
}

/** Stops the HTTP server, then the relay, then closes the database and the S3 client. */
export async function stop(): Promise<void> {
  const current = running;
  running = undefined;
  await current?.service.stop();
  current?.bucket.close();
}
