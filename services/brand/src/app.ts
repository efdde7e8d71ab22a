/**
 * Composition root of the brand service: configuration, database, outbox
 * relay, the `media.image.v1` consumer and the HTTP API. `start()`/`stop()`
 * run it in-process (tests use port 0); `main.ts` runs it as a process.
 * Migrate first: `npm run migrate`.
 */
import { createAccessTokenVerifier } from '@raly/service-kit/auth';
import { loadConfig } from '@raly/service-kit/config';
import { kafkaConnectionFromEnv } from '@raly/service-kit/kafka';
import { createLogger } from '@raly/service-kit/logger';
import { createEventWriter, type OutboxRelay } from '@raly/service-kit/outbox';
import { serviceCallerGuardsOf, serviceTokenSourceOf } from '@raly/service-kit/internal';
import { defineService, runService } from '@raly/service-kit/service';
import { serviceClientIds } from '@raly/contracts/internal';
import { failureMessages } from '@raly/contracts/messages';
import { brandsRouter } from './api/brands-router';
import { internalRouter } from './api/internal-router';
import { teamsRouter } from './api/teams-router';
import { configSchema } from './config';
import { brandRepository } from './data-access/brand-repository';
import { openBrandDatabase } from './data-access/database';
import { createIdentityClient } from './data-access/identity-client';
import { teamRepository } from './data-access/team-repository';
import { smtpMailer } from '@raly/service-kit/mail';
import type { BrandDependencies } from './domain/dependencies';
import { subscriptions } from './messaging/subscriptions';

const serviceName = 'brand';

export const { start, stop } = defineService(serviceName, async (env, port) => {
  const config = loadConfig(configSchema, env);
  const logger = createLogger(serviceName, config.LOG_LEVEL);
  const database = openBrandDatabase(config.DATABASE_URL, {
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
  const allow = serviceCallerGuardsOf(config, [
    serviceClientIds.identity,
    serviceClientIds.media,
    serviceClientIds.bff,
  ]);
  const mailer = smtpMailer(config.SMTP_URL, config.MAIL_FROM);
  const dependenciesFor = (relay: OutboxRelay): BrandDependencies => {
    const events = createEventWriter({ prisma: database.prisma, relay });
    return {
      brands: brandRepository(database.prisma, events),
      teams: teamRepository(database.prisma, events),
      identity: createIdentityClient(config.IDENTITY_URL, serviceTokens),
      mailer,
      webUrl: config.WEB_URL,
      logger,
    };
  };
  return runService({
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
      app.use(
        internalRouter(dependencies, {
          identity: allow(serviceClientIds.identity),
          membership: allow(serviceClientIds.media, serviceClientIds.identity),
          bff: allow(serviceClientIds.bff),
        }),
      );
      app.use(brandsRouter(dependencies, verifyAccessToken));
      app.use(teamsRouter(dependencies, verifyAccessToken));
    },
    consumer: config.KAFKA_CONSUME && {
      groupId: config.KAFKA_GROUP_ID,
      fromBeginning: config.KAFKA_FROM_BEGINNING,
      fetchMinBytes: config.KAFKA_FETCH_MIN_BYTES,
      fetchMaxWaitMs: config.KAFKA_FETCH_MAX_WAIT_MS,
      subscriptions: (relay) => subscriptions(dependenciesFor(relay)),
    },
  });
});
