/**
 * Composition root of the brand service: configuration, database, outbox
 * relay and the HTTP API (health only until the brands issue adds brand
 * records). `start()`/`stop()` run it in-process (tests use port 0);
 * `main.ts` runs it as a process. Migrate first: `npm run migrate`.
 */
import { loadConfig } from '@raly/service-kit/config';
import { createLogger } from '@raly/service-kit/logger';
import { defineService, runService } from '@raly/service-kit/service';
import { configSchema } from './config';
import { openBrandDatabase } from './data-access/database';

export const { start, stop } = defineService('brand', async (env, port) => {
  const config = loadConfig(configSchema, env);
  return runService({
    name: 'brand',
    logger: createLogger('brand', config.LOG_LEVEL),
    port: port ?? config.PORT,
    kafkaBrokers: config.KAFKA_BROKERS,
    database: openBrandDatabase(config.DATABASE_URL),
    routes: () => {},
  });
});
