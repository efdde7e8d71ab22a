/**
 * Composition root of identity-profile: configuration, database, Keycloak
 * Admin API, outbox relay and the HTTP API. `start()`/`stop()` run it
 * in-process (tests use port 0); `main.ts` runs it as a process. Migrate
 * first: `npm run migrate`.
 */
import { createAccessTokenVerifier } from '@raly/service-kit/auth';
import { loadConfig } from '@raly/service-kit/config';
import { createEventWriter, createPgEventWriter } from '@raly/service-kit/outbox';
import { kafkaConnectionFromEnv } from '@raly/service-kit/kafka';
import { createLogger } from '@raly/service-kit/logger';
import { serviceCallerGuardsOf, serviceTokenSourceOf } from '@raly/service-kit/internal';
import { defineService, runService } from '@raly/service-kit/service';
import { serviceClientIds } from '@raly/contracts/internal';
import { failureMessages } from '@raly/contracts/messages';
import { accountsRouter } from './api/accounts-router';
import { contactsRouter } from './api/contacts-router';
import { usernamesRouter } from './api/usernames-router';
import { passwordResetsRouter } from './api/password-resets-router';
import { publicUsersRouter } from './api/public-users-router';
import { queriesRouter } from './api/queries-router';
import { staffRouter } from './api/staff-router';
import { teamsRouter } from './api/teams-router';
import { usersRouter } from './api/users-router';
import { configSchema } from './config';
import { openIdentityDatabase } from './data-access/database';
import { createBrandClient } from './data-access/brand-client';
import { keycloakUsers } from './data-access/keycloak-users';
import { userImageRepository } from './data-access/user-image-repository';
import { usernameRegistry } from './data-access/username-registry';
import type { IdentityDependencies } from './domain/dependencies';
import { subscriptions } from './messaging/subscriptions';
import { smtpMailer } from '@raly/service-kit/mail';
import { resetCodeRepository } from './data-access/reset-codes';
import { userRepository } from './data-access/user-repository';

const serviceName = 'identity-profile';

export const { start, stop } = defineService(serviceName, async (env, port) => {
  const config = loadConfig(configSchema, env);
  const logger = createLogger(serviceName, config.LOG_LEVEL);
  const database = openIdentityDatabase(config.DATABASE_URL, {
    poolMax: config.DATABASE_POOL_MAX,
  });
  const keycloak = keycloakUsers({
    url: config.KEYCLOAK_URL,
    realm: config.KEYCLOAK_REALM,
    clientId: config.KEYCLOAK_IDENTITY_CLIENT_ID,
    clientSecret: config.KEYCLOAK_IDENTITY_CLIENT_SECRET,
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
    serviceClientIds.bff,
    serviceClientIds.brand,
    serviceClientIds.notifications,
  ]);
  const fromBff = allow(serviceClientIds.bff);
  const dependenciesFor = (relay: { wake(): void }): IdentityDependencies => {
    const events = createEventWriter({ prisma: database.prisma, relay });
    return {
      users: userRepository(database.prisma, events, {
        pool: database.pool,
        events: createPgEventWriter({ pool: database.pool, relay }),
      }),
      keycloak,
      brands: createBrandClient(config.BRAND_URL, serviceTokens),
      usernames: usernameRegistry(database.prisma),
      userImages: userImageRepository(events),
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
      app.use(accountsRouter(dependencies, fromBff));
      app.use(usernamesRouter(dependencies, allow(serviceClientIds.brand)));
      app.use(usersRouter(dependencies, verifyAccessToken));
      app.use(publicUsersRouter(dependencies));
      app.use(queriesRouter(dependencies, fromBff));
      app.use(contactsRouter(dependencies, allow(serviceClientIds.notifications)));
      app.use(teamsRouter(dependencies, fromBff));
      app.use(staffRouter(dependencies, fromBff));
      app.use(
        passwordResetsRouter(
          {
            ...dependencies,
            resetCodes: resetCodeRepository(database.prisma),
            mailer: smtpMailer(config.SMTP_URL, config.MAIL_FROM),
            settings: {
              webUrl: config.WEB_URL,
              apiKey: config.PUBLIC_API_KEY,
              codeTtlMs: config.RESET_CODE_TTL_SECONDS * 1000,
            },
          },
          fromBff,
        ),
      );
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
