/**
 * Composition root of the moderation service: configuration, database, outbox relay (reports on
 * moderation.report.v1, the audit entries of their resolutions on moderation.audit.v1), the
 * consumer of identity.audit.v1 and brand.audit.v1 (each audit entry becomes a row) and the
 * internal HTTP API of the audit log and of reports. `start()`/`stop()` run it in-process (tests
 * use port 0); `main.ts` runs it as a process. Migrate first: `npm run migrate`.
 */
import { serviceClientIds } from '@raly/contracts/internal';
import { failureMessages } from '@raly/contracts/messages';
import { loadConfig } from '@raly/service-kit/config';
import { serviceCallerGuardsOf } from '@raly/service-kit/internal';
import { kafkaConnectionFromEnv } from '@raly/service-kit/kafka';
import { createLogger } from '@raly/service-kit/logger';
import { createEventWriter, type OutboxRelay } from '@raly/service-kit/outbox';
import { defineService, runService } from '@raly/service-kit/service';
import { auditRouter } from './api/audit-router';
import { reportsRouter } from './api/reports-router';
import { configSchema } from './config';
import { auditEntryStore } from './data-access/audit-entries';
import { openModerationDatabase } from './data-access/database';
import { reportStore } from './data-access/reports';
import type { ModerationDependencies } from './domain/dependencies';
import { subscriptions } from './messaging/subscriptions';

const serviceName = 'moderation';

export const { start, stop } = defineService(serviceName, async (env, port) => {
  const config = loadConfig(configSchema, env);
  const logger = createLogger(serviceName, config.LOG_LEVEL);
  const database = openModerationDatabase(config.DATABASE_URL, {
    poolMax: config.DATABASE_POOL_MAX,
  });
  const allow = serviceCallerGuardsOf(config, [serviceClientIds.bff]);
  const dependenciesFor = (relay: OutboxRelay): ModerationDependencies => ({
    auditEntries: auditEntryStore(database.prisma),
    reports: reportStore(database.prisma, createEventWriter({ prisma: database.prisma, relay })),
    logger,
    now: () => new Date(),
  });
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
      const guards = { bff: allow(serviceClientIds.bff) };
      app.use(auditRouter(dependencies, guards));
      app.use(reportsRouter(dependencies, guards));
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
