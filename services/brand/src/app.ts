/**
 * Composition root of the brand service: configuration, database, outbox
 * relay and the HTTP API (health only until the brands issue adds brand
 * records). `start()`/`stop()` run it in-process; `main.ts` as a process.
 */
import { loadConfig } from '@raly/service-kit/config';
import { createLogger } from '@raly/service-kit/logger';
import { runService, type RunningService } from '@raly/service-kit/service';
import { configSchema } from './config';
import { openBrandDatabase } from './data-access/database';

const serviceName = 'brand';
let running: RunningService | undefined;

export interface StartOptions {
  /** TCP port; 0 picks a free one. Default env PORT, else 4002. */
  port?: number;
  /** Overrides of the environment (tests pass their own DATABASE_URL). */
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
  running = await runService({
    name: serviceName,
    logger: createLogger(serviceName, config.LOG_LEVEL),
    port: options.port ?? config.PORT,
    kafkaBrokers: config.KAFKA_BROKERS,
    database: openBrandDatabase(config.DATABASE_URL),
    routes: () => {},
  });
  return { port: running.port };
}

/** Stops the HTTP server, then the relay, then closes the database. */
export async function stop(): Promise<void> {
  const service = running;
  running = undefined;
  await service?.stop();
}
