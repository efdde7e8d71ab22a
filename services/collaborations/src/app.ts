/**
 * Composition root of the collaborations service: configuration, database,
 * outbox relay, the consumer of `offers.application.v1` (an accepted
 * application opens a collaboration) and the HTTP API. `start()`/`stop()`
 * run it in-process (tests use port 0); `main.ts` runs it as a process.
 * Migrate first: `npm run migrate`.
 */
import { createAccessTokenVerifier } from '@raly/service-kit/auth';
import { loadConfig } from '@raly/service-kit/config';
import { kafkaConnectionFromEnv } from '@raly/service-kit/kafka';
import { createLogger } from '@raly/service-kit/logger';
import { defineService, runService } from '@raly/service-kit/service';
import { failureMessages } from '@raly/contracts/messages';
import { configSchema } from './config';
import { openCollaborationsDatabase } from './data-access/database';

const serviceName = 'collaborations';

export const { start, stop } = defineService(serviceName, async (env, port) => {
  const config = loadConfig(configSchema, env);
  const logger = createLogger(serviceName, config.LOG_LEVEL);
  const database = openCollaborationsDatabase(config.DATABASE_URL, {
    poolMax: config.DATABASE_POOL_MAX,
  });
  createAccessTokenVerifier({
    url: config.KEYCLOAK_URL,
    publicUrl: config.KEYCLOAK_PUBLIC_URL,
    realm: config.KEYCLOAK_REALM,
    audience: config.KEYCLOAK_BFF_CLIENT_ID,
    authorizedParty: config.KEYCLOAK_LOGIN_CLIENT_ID,
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
    routes: () => {},
    consumer: config.KAFKA_CONSUME && {
      groupId: config.KAFKA_GROUP_ID,
      fromBeginning: config.KAFKA_FROM_BEGINNING,
      subscriptions: () => [],
    },
  });
  return { port: service.port, stop: () => service.stop() };
});
