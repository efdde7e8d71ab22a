/**
 * Composition root of the media service: configuration, database, S3
 * bucket, outbox relay, the consumer making default pictures and the HTTP
 * API (uploads, files, submission images). Ready only when the bucket exists. `start()`/`stop()`
 * run it in-process (tests use port 0); `main.ts` runs it as a process.
 * Migrate first: `npm run migrate`.
 */
import { createAccessTokenVerifier } from '@raly/service-kit/auth';
import { loadConfig } from '@raly/service-kit/config';
import { kafkaConnectionFromEnv } from '@raly/service-kit/kafka';
import { createLogger } from '@raly/service-kit/logger';
import { createEventWriter, type OutboxRelay } from '@raly/service-kit/outbox';
import { serviceTokenSourceOf } from '@raly/service-kit/internal';
import { defineService, runService } from '@raly/service-kit/service';
import { failureMessages } from '@raly/contracts/messages';
import { filesRouter } from './api/files-router';
import { deliverableImagesRouter } from './api/deliverable-images-router';
import { imagesRouter } from './api/images-router';
import { configSchema } from './config';
import { createBrandClient } from './data-access/brand-client';
import { createCollaborationsClient } from './data-access/collaborations-client';
import { openMediaDatabase } from './data-access/database';
import { openImageBucket } from './data-access/image-bucket';
import { imageRepository } from './data-access/image-repository';
import type { MediaDependencies } from './domain/dependencies';
import { subscriptions } from './messaging/subscriptions';

const serviceName = 'media';

export const { start, stop } = defineService(serviceName, async (env, port) => {
  const config = loadConfig(configSchema, env);
  const logger = createLogger(serviceName, config.LOG_LEVEL);
  const bucket = openImageBucket(config);
  const database = openMediaDatabase(config.DATABASE_URL, {
    poolMax: config.DATABASE_POOL_MAX,
  });
  const verifyAccessToken = createAccessTokenVerifier({
    url: config.KEYCLOAK_URL,
    publicUrl: config.KEYCLOAK_PUBLIC_URL,
    realm: config.KEYCLOAK_REALM,
    audience: config.KEYCLOAK_BFF_CLIENT_ID,
    authorizedParty: config.KEYCLOAK_LOGIN_CLIENT_ID,
  });
  const serviceTokens = serviceTokenSourceOf(config);
  const dependenciesFor = (relay: OutboxRelay): MediaDependencies => ({
    bucket,
    images: imageRepository(database.prisma, createEventWriter({ prisma: database.prisma, relay })),
    brands: createBrandClient(config.BRAND_URL, serviceTokens),
    collaborations: createCollaborationsClient(config.COLLABORATIONS_URL),
    publicUrl: config.MEDIA_PUBLIC_URL,
    logger,
  });
  const service = await runService({
    name: serviceName,
    logger,
    failureMessages,
    tracing: config,
    port: port ?? config.PORT,
    kafkaBrokers: config.KAFKA_BROKERS,
    kafkaConnection: kafkaConnectionFromEnv(env),
    database,
    readiness: { bucket: bucket.assertExists },
    routes: (app, relay) => {
      const dependencies = dependenciesFor(relay);
      app.use(imagesRouter(dependencies, verifyAccessToken));
      app.use(filesRouter(dependencies));
      app.use(deliverableImagesRouter(dependencies, verifyAccessToken));
    },
    consumer: config.KAFKA_CONSUME && {
      groupId: config.KAFKA_GROUP_ID,
      fromBeginning: config.KAFKA_FROM_BEGINNING,
      fetchMinBytes: config.KAFKA_FETCH_MIN_BYTES,
      fetchMaxWaitMs: config.KAFKA_FETCH_MAX_WAIT_MS,
      subscriptions: (relay) => subscriptions(dependenciesFor(relay)),
    },
  });
  return {
    port: service.port,
    async stop() {
      await service.stop();
      bucket.close();
    },
  };
});
