/**
 * Composition root of the offers service: configuration, database,
 * outbox relay, the consumer of `identity.user.v1` and `brand.brand.v1`
 * (public copies of users and brands), the deadline sweep and the HTTP API.
 * `start()`/`stop()` run it in-process (tests use port 0); `main.ts` runs it
 * as a process. Migrate first: `npm run migrate`.
 */
import { createAccessTokenVerifier } from '@raly/service-kit/auth';
import { loadConfig } from '@raly/service-kit/config';
import { kafkaConnectionFromEnv } from '@raly/service-kit/kafka';
import { createLogger } from '@raly/service-kit/logger';
import { createEventWriter, type OutboxRelay } from '@raly/service-kit/outbox';
import { defineService, runService } from '@raly/service-kit/service';
import { failureMessages } from '@raly/contracts/messages';
import { applicationsRouter } from './api/applications-router';
import { offersRouter } from './api/offers-router';
import { configSchema } from './config';
import { applicationRepository } from './data-access/application-repository';
import { createBrandClient } from './data-access/brand-client';
import { brandRepository } from './data-access/brand-repository';
import { openOffersDatabase } from './data-access/database';
import { createIdentityClient } from './data-access/identity-client';
import { offerRepository } from './data-access/offer-repository';
import { userRepository } from './data-access/user-repository';
import { startDeadlineSweep, type DeadlineSweep } from './domain/deadline-sweep';
import type { OffersDependencies } from './domain/dependencies';
import { subscriptions } from './messaging/subscriptions';

const serviceName = 'offers';

export const { start, stop } = defineService(serviceName, async (env, port) => {
  const config = loadConfig(configSchema, env);
  const logger = createLogger(serviceName, config.LOG_LEVEL);
  const database = openOffersDatabase(config.DATABASE_URL, {
    poolMax: config.DATABASE_POOL_MAX,
  });
  const verifyAccessToken = createAccessTokenVerifier({
    url: config.KEYCLOAK_URL,
    publicUrl: config.KEYCLOAK_PUBLIC_URL,
    realm: config.KEYCLOAK_REALM,
    audience: config.KEYCLOAK_BFF_CLIENT_ID,
    authorizedParty: config.KEYCLOAK_LOGIN_CLIENT_ID,
  });
  const dependenciesFor = (relay: OutboxRelay): OffersDependencies => {
    const events = createEventWriter({ prisma: database.prisma, relay });
    return {
      offers: offerRepository(database.prisma, events),
      applications: applicationRepository(database.prisma, events),
      users: userRepository(database.prisma, database.pool),
      brandCopies: brandRepository(database.prisma),
      identity: createIdentityClient(config.IDENTITY_URL),
      brands: createBrandClient(config.BRAND_URL),
      logger,
    };
  };
  let sweep: DeadlineSweep | undefined;
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
        sweep = startDeadlineSweep(dependencies, config.OFFERS_DEADLINE_SWEEP_MS);
        app.use(offersRouter(dependencies, verifyAccessToken));
        app.use(applicationsRouter(dependencies, verifyAccessToken));
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
        await sweep?.stop();
        await service.stop();
      },
    };
  } catch (error) {
    await sweep?.stop();
    throw error;
  }
});
