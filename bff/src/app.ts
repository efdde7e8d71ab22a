/**
 * The BFF process, a kit app like every service: express `/api`, socket.io
 * `/live` on the same HTTP server (the product's namespace and the staff
 * console's), and the Kafka → Redis read-model projector (reports go to the
 * console's sockets only). `start()`/`stop()` let tests run it in-process on a port of
 * their choosing (0 = any).
 */
import cors from 'cors';
import { Redis } from 'ioredis';
import { failureMessages } from '@raly/contracts/messages';
import { createIdempotentProducer, createKafka } from '@raly/service-kit/kafka';
import { createLogger, type Logger } from '@raly/service-kit/logger';
import { createAppMetrics } from '@raly/service-kit/metrics';
import type { DrainSettings } from '@raly/service-kit/lifecycle';
import { runApp } from '@raly/service-kit/service';
import { apiRouter, beforeBodyRouter } from './api/router';
import { callableErrorBody } from './api/error-middleware';
import { createRateLimits } from './api/rate-limit';
import { createAuthenticator } from './auth/keycloak';
import { loadConfig, type Config } from './config';
import { createBrandClient } from './data-access/brand-client';
import { createClientSideCache } from './data-access/client-side-cache';
import { createCollaborationsClient } from './data-access/collaborations-client';
import { createNotificationsClient } from './data-access/notifications-client';
import { createIdentityClient } from './data-access/identity-client';
import { createMediaUpload } from './data-access/media-upload';
import { createModerationClient } from './data-access/moderation-client';
import { createKeycloakTokens } from './data-access/keycloak-tokens';
import { createOffersClient } from './data-access/offers-client';
import { createReadModel } from './data-access/read-model';
import { createSessionRevocations } from './data-access/session-revocations';
import { createRecordStore, type RecordStore } from './domain/record-store';
import { createLiveServer, type LiveServer } from './live/socket-server';
import { createLiveMetrics } from './observability/live-metrics';
import {
  appliedVersions,
  PROJECTOR_CONCURRENCY,
  PROJECTOR_PARTITIONS_CONCURRENCY,
  subscriptions,
} from './messaging/subscriptions';

export interface StartOptions {
  /** Port to listen on; 0 picks a free one. Defaults to `PORT`. */
  port?: number;
  /** Settings that win over the environment (tests: a unique KAFKA_GROUP_ID, identity's URL). */
  config?: Partial<Config>;
}

export interface RunningBff {
  /** The port actually listened on. */
  port: number;
  /** The interface listened on (`HOST`). */
  host: string;
  url: string;
  config: Config;
  /** @param drain how to drain (kit `RunningService.stop`); default at once */
  stop(drain?: DrainSettings): Promise<void>;
}

/**
 * Starts one BFF instance on the kit's start/stop path (`runApp`): the
 * kit's HTTP app (probes `/health/live`, `/health/ready` on Redis — not
 * Kafka —, `/metrics`, access logs, JSON limits, central error handler) with
 * `/api`, socket.io attached to its server, and the read-model projector as
 * its consumer, started in the background while Kafka is away.
 * @returns the running instance (its port and its own `stop`)
 * @throws Error naming every invalid variable; connection errors when Redis cannot be reached
 */
export async function startBff(options: StartOptions = {}): Promise<RunningBff> {
  const config: Config = { ...loadConfig(), ...options.config };
  const logger = createLogger('bff', config.LOG_LEVEL);

  // Commands issued in the same tick leave in one write (the projector's batch).
  const redis = new Redis(config.REDIS_URL, { lazyConnect: true, enableAutoPipelining: true });
  const redisSubscriber = redis.duplicate({ enableAutoPipelining: false });
  await Promise.all([redis.connect(), redisSubscriber.connect()]);

  // The hottest reads (ended-session marks, GET /api/me's user and brand) from memory (ADR 0012).
  const cache =
    config.CLIENT_SIDE_CACHE_MAX_BYTES > 0
      ? createClientSideCache(redis, {
          maxBytes: config.CLIENT_SIDE_CACHE_MAX_BYTES,
          logger: logger.child({ component: 'client-side-cache' }),
        })
      : undefined;
  const authenticator = createAuthenticator(
    config,
    createSessionRevocations(
      redis,
      {
        keyPrefix: config.SESSION_REVOCATION_KEY_PREFIX,
        ttlSeconds: config.SESSION_REVOCATION_TTL_SECONDS,
      },
      cache,
    ),
  );
  const identity = createIdentityClient(config);
  const keycloak = createKeycloakTokens(config);
  const brands = createBrandClient(config);
  const media = createMediaUpload(config);
  const offers = createOffersClient(config);
  const collaborations = createCollaborationsClient(config);
  const notifications = createNotificationsClient(config);
  const moderation = createModerationClient(config);
  // Assigned below: the live server needs the record store, and the store pushes through it.
  let live: LiveServer | undefined = undefined;
  const records = createRecordStore(
    createReadModel(redis, config.READ_MODEL_KEY_PREFIX, cache),
    () => live,
  );

  const metrics = createAppMetrics();
  const liveMetrics = createLiveMetrics(metrics);
  const httpLogger = logger.child({ component: 'http' });
  const limits = createRateLimits(redis, config, httpLogger);
  const api = {
    authenticator,
    identity,
    keycloak,
    records,
    brands,
    offers,
    collaborations,
    notifications,
    moderation,
    limits,
    logger: httpLogger,
  };
  const running = await runApp({
    name: 'bff',
    logger,
    failureMessages,
    port: options.port ?? config.PORT,
    host: config.HOST,
    kafkaBrokers: config.KAFKA_BROKERS,
    tracing: config,
    // Not Kafka: without it the BFF still serves from its read model (raly_consumer_connected 0).
    readiness: { redis: () => redis.ping() },
    metrics,
    http: {
      beforeBody: (app) => {
        app
          // The client address (rate limits) is taken from X-Forwarded-For only behind these proxies.
          .set('trust proxy', config.TRUST_PROXY)
          .use(cors({ origin: config.CORS_ORIGIN, credentials: true }))
          .use('/api', beforeBodyRouter({ ...api, media }));
      },
      routes: (app) => {
        app.use('/api', apiRouter(api));
      },
      errorBody: callableErrorBody,
    },
    attach: (httpServer) => {
      live = createLiveServer({
        httpServer,
        config,
        authenticator,
        me: { identity, records, brands },
        redisPublisher: redis,
        redisSubscriber,
        logger: logger.child({ component: 'live' }),
        metrics: liveMetrics,
        presenceProducer: createIdempotentProducer(
          createKafka(config.KAFKA_BROKERS, 'bff-presence', logger),
        ),
      });
      return live;
    },
    // A new group replays the topics from the beginning: events are idempotent snapshots.
    consumer: {
      groupId: config.KAFKA_GROUP_ID,
      // Started in the background and again until Kafka answers; it catches up from its offsets.
      required: false,
      subscriptions: subscriptions(
        records,
        liveMetrics,
        (report) => live?.pushReport(report) ?? false,
      ),
      concurrency: PROJECTOR_CONCURRENCY,
      partitionsConcurrency: PROJECTOR_PARTITIONS_CONCURRENCY,
      isApplied: appliedVersions(records),
      // Every projected event is a whole record snapshot: the newest of an aggregate in a batch is enough.
      snapshots: true,
    },
    resources: [
      { close: async () => void (await redis.quit()) },
      { close: async () => void (await redisSubscriber.quit()) },
      ...(cache ? [cache] : []),
    ],
  }).catch(async (error: unknown) => {
    redis.disconnect();
    redisSubscriber.disconnect();
    await cache?.close();
    throw error;
  });
  logger.info({ groupId: config.KAFKA_GROUP_ID }, 'bff consumer group');
  recoverAfterRedisRestarts({ redis, redisSubscriber, records, live: () => live, logger });

  return {
    port: running.port,
    host: config.HOST,
    url: `http://127.0.0.1:${running.port}`,
    config,
    stop: (drain) => running.stop(drain),
  };
}

/** How long after the adapter's subscriber is back the local sockets are caught up (its resubscriptions go first). */
const CATCH_UP_AFTER_RECONNECT_MS = 500;

/**
 * What a Redis restart (or a dropped connection) needs: the
 * record store forgets the versions it applied when the connection drops and
 * when it is back (Redis may have lost them, see `forgetApplied`), and once the socket.io
 * adapter's subscriber is back, this replica's sockets get their current
 * snapshots, since pushes published while it was unsubscribed never came.
 */
function recoverAfterRedisRestarts(options: {
  redis: Redis;
  redisSubscriber: Redis;
  records: RecordStore;
  live: () => LiveServer | undefined;
  logger: Logger;
}): void {
  const { redis, redisSubscriber, records, live, logger } = options;
  // Cleared when the connection drops too: an event of a version applied before the
  // drop must not be skipped by the memory while Redis comes back without it.
  redis.on('close', () => records.forgetApplied());
  // ioredis reconnects by itself; unheard, its errors would go to stderr as "Unhandled error event".
  for (const client of [redis, redisSubscriber])
    client.on('error', (error: Error) => logger.warn({ err: error }, 'redis connection error'));
  redis.on('ready', () => {
    records.forgetApplied();
    logger.info('redis connection ready: applied-version memory cleared');
  });
  redisSubscriber.on('ready', () => {
    setTimeout(() => {
      logger.warn("redis subscriber back: catching up this replica's sockets");
      void live()?.catchUpAll();
    }, CATCH_UP_AFTER_RECONNECT_MS).unref();
  });
}

let running: RunningBff | undefined;

/**
 * Starts the process's BFF (see {@link startBff}).
 * @param options.port the port, 0 for any free one
 */
export async function start(options: StartOptions = {}): Promise<RunningBff> {
  if (running) throw new Error('bff already started');
  running = await startBff(options);
  return running;
}

/**
 * Stops the process's BFF: readiness false, HTTP and sockets, consumer, Redis.
 * @param drain how to drain (kit `RunningService.stop`); default at once
 */
export async function stop(drain?: DrainSettings): Promise<void> {
  const current = running;
  running = undefined;
  await current?.stop(drain);
}
