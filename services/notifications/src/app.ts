/**
 * Composition root of the notifications service: configuration, database,
 * outbox relay, the consumer of identity, offers and collaborations (facts
 * become items of each person's inbox), the sweep of review reminders, the
 * e-mail digests with their mail relay, and the HTTP API of the inbox.
 * `start()`/`stop()` run it in-process (tests use port 0); `main.ts` runs it
 * as a process. Migrate first: `npm run migrate`.
 */
import { createAccessTokenVerifier } from '@raly/service-kit/auth';
import { serviceTokenSourceOf } from '@raly/service-kit/internal';
import { loadConfig } from '@raly/service-kit/config';
import { kafkaConnectionFromEnv } from '@raly/service-kit/kafka';
import { createLogger } from '@raly/service-kit/logger';
import { createEventWriter, createPgEventWriter, type OutboxRelay } from '@raly/service-kit/outbox';
import { defineService, runService } from '@raly/service-kit/service';
import { failureMessages } from '@raly/contracts/messages';
import { notificationsRouter } from './api/notifications-router';
import { unsubscribeRouter } from './api/unsubscribe-router';
import { configSchema } from './config';
import { announcementsRepository } from './data-access/announcements';
import { copiesRepository } from './data-access/copies';
import { digestStore } from './data-access/digests';
import { identityContacts } from './data-access/identity-client';
import { smtpMailer } from '@raly/service-kit/mail';
import { preferenceStore } from './data-access/preferences';
import { openNotificationsDatabase } from './data-access/database';
import { inboxRepository } from './data-access/inbox-repository';
import { presenceRepository } from './data-access/presence';
import { reviewRemindersRepository } from './data-access/review-reminders';
import type { NotificationsDependencies } from './domain/dependencies';
import { startDigests } from './domain/digests';
import type { Loop } from './domain/loop';
import { startReminderSweep, type ReminderSweep } from './domain/review-reminders';
import { unsubscribeHeaders, unsubscribeToken } from './domain/unsubscribe';
import { subscriptions } from './messaging/subscriptions';

const serviceName = 'notifications';
const HOUR_MS = 3_600_000;

export const { start, stop } = defineService(serviceName, async (env, port) => {
  const config = loadConfig(configSchema, env);
  const logger = createLogger(serviceName, config.LOG_LEVEL);
  const database = openNotificationsDatabase(config.DATABASE_URL, {
    poolMax: config.DATABASE_POOL_MAX,
  });
  const verifyAccessToken = createAccessTokenVerifier({
    url: config.KEYCLOAK_URL,
    publicUrl: config.KEYCLOAK_PUBLIC_URL,
    realm: config.KEYCLOAK_REALM,
    audience: config.KEYCLOAK_BFF_CLIENT_ID,
    authorizedParty: config.KEYCLOAK_LOGIN_CLIENT_ID,
  });
  const contacts = identityContacts(config.IDENTITY_URL, serviceTokenSourceOf(config));
  const mailer = smtpMailer(config.SMTP_URL, config.MAIL_FROM);
  const unsubscribeUrlOf = (personId: string) =>
    `${config.WEB_URL}/api/unsubscribe/${unsubscribeToken(personId, 'digest', config.NOTIFICATIONS_UNSUBSCRIBE_SECRET)}`;
  const dependenciesFor = (relay: OutboxRelay): NotificationsDependencies => {
    const events = createEventWriter({ prisma: database.prisma, relay });
    const inboxes = inboxRepository(
      database.prisma,
      events,
      createPgEventWriter({ pool: database.pool, relay }),
    );
    return {
      copies: copiesRepository(database.prisma, database.pool),
      inboxes,
      announcements: announcementsRepository(events, inboxes),
      reviewReminders: reviewRemindersRepository(database.prisma, events, inboxes),
      presence: presenceRepository(database.prisma),
      preferences: preferenceStore(database.prisma),
      awayAfterMs: config.NOTIFICATIONS_AWAY_AFTER_MS,
      reviewReminderLeadMs: Math.round(config.NOTIFICATIONS_REVIEW_REMINDER_HOURS * HOUR_MS),
      announceBatch: config.NOTIFICATIONS_ANNOUNCE_BATCH,
      maxAgeMs: Math.round(config.NOTIFICATIONS_MAX_AGE_HOURS * HOUR_MS),
      digests: {
        store: digestStore(database.prisma),
        contacts,
        mailer,
        unsubscribeSecret: config.NOTIFICATIONS_UNSUBSCRIBE_SECRET,
        windowMs: config.NOTIFICATIONS_DIGEST_WINDOW_MS,
        sweepMs: config.NOTIFICATIONS_DIGEST_SWEEP_MS,
        relayMs: config.NOTIFICATIONS_MAIL_RELAY_MS,
        settings: {
          webUrl: config.WEB_URL,
          maxAttempts: config.NOTIFICATIONS_MAIL_MAX_ATTEMPTS,
          retryMs: config.NOTIFICATIONS_MAIL_RETRY_MS,
          unsubscribeUrlOf,
          headersOf: (personId) => unsubscribeHeaders(unsubscribeUrlOf(personId)),
        },
      },
      logger,
      now: () => new Date(),
    };
  };
  let sweep: ReminderSweep | undefined;
  let digests: Loop | undefined;
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
        sweep = startReminderSweep(dependencies, config.NOTIFICATIONS_SWEEP_MS);
        digests = startDigests(dependencies);
        app.use(unsubscribeRouter(dependencies));
        app.use(notificationsRouter(dependencies, verifyAccessToken));
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
        await Promise.all([sweep?.stop(), digests?.stop()]);
        await service.stop();
      },
    };
  } catch (error) {
    await Promise.all([sweep?.stop(), digests?.stop()]);
    throw error;
  }
});
