/**
 * Composition root of the media service: configuration, database, S3
 * bucket, outbox relay and the HTTP API (health only until the images issue
 * adds uploads). Ready only when the bucket exists. `start()`/`stop()` run
 * it in-process (tests use port 0); `main.ts` runs it as a process.
 * Migrate first: `npm run migrate`.
 */
import { loadConfig } from '@raly/service-kit/config';
import { createLogger } from '@raly/service-kit/logger';
import { defineService, runService } from '@raly/service-kit/service';
import { configSchema } from './config';
import { openMediaDatabase } from './data-access/database';
import { openImageBucket } from './data-access/image-bucket';

export const { start, stop } = defineService('media', async (env, port) => {
  const config = loadConfig(configSchema, env);
  const bucket = openImageBucket(config);
  const service = await runService({
    name: 'media',
    logger: createLogger('media', config.LOG_LEVEL),
    port: port ?? config.PORT,
    kafkaBrokers: config.KAFKA_BROKERS,
    database: openMediaDatabase(config.DATABASE_URL),
    readiness: { bucket: bucket.assertExists },
    routes: () => {},
  });
  return {
    port: service.port,
    async stop() {
      await service.stop();
      bucket.close();
    },
  };
});
