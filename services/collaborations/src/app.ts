/**
 * Composition root of the collaborations service: configuration, database,
 * outbox relay, the consumer of `offers.application.v1` (an accepted
 * application opens a collaboration), the HTTP API (the parties' routes and
 * the public track records) and the work's sweeps
 * (auto-approval, overdue payments). `start()`/`stop()`
 * run it in-process (tests use port 0); `main.ts` runs it as a process.
 * Migrate first: `npm run migrate`.
 */
import { createAccessTokenVerifier } from '@raly/service-kit/auth';
import { loadConfig } from '@raly/service-kit/config';
import { kafkaConnectionFromEnv } from '@raly/service-kit/kafka';
import { createLogger } from '@raly/service-kit/logger';
import { createEventWriter, createPgEventWriter, type OutboxRelay } from '@raly/service-kit/outbox';
import { defineService, runService } from '@raly/service-kit/service';
import { failureMessages } from '@raly/contracts/messages';
import { collaborationsRouter } from './api/collaborations-router';
import { trackRecordsRouter } from './api/track-records-router';
import { configSchema, workWindowsOf } from './config';
import { collaborationRepository } from './data-access/collaboration-repository';
import { openCollaborationsDatabase } from './data-access/database';
import { createIdentityClient } from './data-access/identity-client';
import { messageRepository } from './data-access/message-repository';
import { trackRecordRepository } from './data-access/track-record-repository';
import type { CollaborationsDependencies } from './domain/dependencies';
import { startWorkSweeps, type WorkSweeps } from './domain/work-sweeps';
import { subscriptions } from './messaging/subscriptions';

const serviceName = 'collaborations';

export const { start, stop } = defineService(serviceName, async (env, port) => {
  const config = loadConfig(configSchema, env);
  const logger = createLogger(serviceName, config.LOG_LEVEL);
  const database = openCollaborationsDatabase(config.DATABASE_URL, {
    poolMax: config.DATABASE_POOL_MAX,
  });
  const verifyAccessToken = createAccessTokenVerifier({
    url: config.KEYCLOAK_URL,
    publicUrl: config.KEYCLOAK_PUBLIC_URL,
    realm: config.KEYCLOAK_REALM,
    audience: config.KEYCLOAK_BFF_CLIENT_ID,
    authorizedParty: config.KEYCLOAK_LOGIN_CLIENT_ID,
  });
  const identity = createIdentityClient(config.IDENTITY_URL, {
    brandCacheMs: config.IDENTITY_BRAND_CACHE_MS,
  });
  const dependenciesFor = (relay: OutboxRelay): CollaborationsDependencies => {
    const events = createEventWriter({ prisma: database.prisma, relay });
    return {
      collaborations: collaborationRepository(database.prisma, events),
      // The send, the hot path, in plain SQL on the same pool (no interactive Prisma transaction).
      messages: messageRepository(
        database.prisma,
        createPgEventWriter({ pool: database.pool, relay }),
      ),
      trackRecords: trackRecordRepository(database.prisma),
      identity,
      workWindows: workWindowsOf(config),
      logger,
    };
  };
  let sweeps: WorkSweeps | undefined;
  try {
    const service = await runService({
      name: serviceName,
      logger,
      failureMessages,
      tracing: config,
      port: port ?? config.PORT,
      kafkaBrokers: config.KAFKA_BROKERS,
      kafkaConnection: kafkaConnectionFromEnv(env),
      database,
      routes: (app, relay) => {
        const dependencies = dependenciesFor(relay);
        sweeps = startWorkSweeps(dependencies, config.COLLABORATIONS_SWEEP_MS);
        app.use(trackRecordsRouter(dependencies));
        app.use(collaborationsRouter(dependencies, verifyAccessToken));
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
        await sweeps?.stop();
        await service.stop();
      },
    };
  } catch (error) {
    await sweeps?.stop();
    throw error;
  }
});
