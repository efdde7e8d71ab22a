/**
 * The BFF process: express `/api`, socket.io `/live` on the same HTTP
 * server, and the Kafka → Redis read-model projector. `start()`/`stop()`
 * let tests run it in-process on a port of their choosing (0 = any).
 */
import cors from 'cors';
import express from 'express';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { runConsumer, type RunningConsumer } from '@raly/service-kit/consumer';
import { createKafka } from '@raly/service-kit/kafka';
import { createLogger } from '@raly/service-kit/logger';
import { apiRouter } from './api/router';
import { errorMiddleware, notFound } from './api/error-middleware';
import { createRateLimits } from './api/rate-limit';
import { createAuthenticator } from './auth/keycloak';
import { loadConfig, type Config } from './config';
import { createBrandClient } from './data-access/brand-client';
import { createIdentityClient } from './data-access/identity-client';
import { createMediaUpload } from './data-access/media-upload';
import { createKeycloakTokens } from './data-access/keycloak-tokens';
import { createReadModel } from './data-access/read-model';
import { createSessionRevocations } from './data-access/session-revocations';
import { createRecordStore } from './domain/record-store';
import { createLiveServer, type LiveServer } from './live/socket-server';
import { subscriptions } from './messaging/subscriptions';

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
  stop(): Promise<void>;
}

/**
 * Starts one BFF instance.
 * @returns the running instance (its port and its own `stop`)
 * @throws ZodError for invalid configuration; connection errors when Redis or Kafka cannot be reached
 */
export async function startBff(options: StartOptions = {}): Promise<RunningBff> {
  const config: Config = { ...loadConfig(), ...options.config };
  const logger = createLogger('bff', config.LOG_LEVEL);

  const redis = new Redis(config.REDIS_URL, { lazyConnect: true });
  const redisSubscriber = redis.duplicate();
  await Promise.all([redis.connect(), redisSubscriber.connect()]);

  const authenticator = createAuthenticator(
    config,
    createSessionRevocations(redis, {
      keyPrefix: config.SESSION_REVOCATION_KEY_PREFIX,
      ttlSeconds: config.SESSION_REVOCATION_TTL_SECONDS,
    }),
  );
  const identity = createIdentityClient(config);
  const keycloak = createKeycloakTokens(config);
  const brands = createBrandClient(config);
  const media = createMediaUpload(config);
  // Assigned below: the live server needs the record store, and the store pushes through it.
  let live: LiveServer | undefined = undefined;
  const records = createRecordStore(createReadModel(redis), () => live);
  // Assigned below, once the consumer runs: not ready before.
  let consumer: RunningConsumer | undefined = undefined;
  const readiness = {
    redis: async () => {
      await redis.ping();
    },
    kafka: async () => {
      if (!consumer?.isRunning()) throw new Error('the Kafka consumer is not running');
    },
  };

  const httpLogger = logger.child({ component: 'http' });
  const limits = createRateLimits(redis, config, httpLogger);
  const app = express()
    .disable('x-powered-by')
    // The client address (rate limits) is taken from X-Forwarded-For only behind these proxies.
    .set('trust proxy', config.TRUST_PROXY)
    .use(cors({ origin: config.CORS_ORIGIN, credentials: true }))
    .use(
      '/api',
      apiRouter({
        authenticator,
        identity,
        keycloak,
        records,
        brands,
        media,
        limits,
        logger: httpLogger,
        readiness,
      }),
    )
    .use(notFound)
    .use(errorMiddleware(httpLogger));
  const httpServer: HttpServer = createServer(app);
  live = createLiveServer({
    httpServer,
    config,
    authenticator,
    me: { identity, records, brands },
    redisPublisher: redis,
    redisSubscriber,
    logger: logger.child({ component: 'live' }),
  });

  const consumerLogger = logger.child({ component: 'kafka' });
  // A new group replays the topics from the beginning: events are idempotent snapshots.
  consumer = await runConsumer({
    kafka: createKafka(config.KAFKA_BROKERS, `bff-${config.KAFKA_GROUP_ID}`, consumerLogger),
    groupId: config.KAFKA_GROUP_ID,
    subscriptions: subscriptions(records),
    logger: consumerLogger,
  });

  const port = options.port ?? config.PORT;
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(port, config.HOST, () => resolve());
  });
  const { port: actualPort, address } = httpServer.address() as AddressInfo;
  logger.info({ host: address, port: actualPort, groupId: config.KAFKA_GROUP_ID }, 'bff listening');

  return {
    port: actualPort,
    host: address,
    url: `http://127.0.0.1:${actualPort}`,
    config,
    async stop() {
      await consumer?.stop();
      // Closes the HTTP server too.
      await live?.close();
      await Promise.all([redis.quit(), redisSubscriber.quit()]);
    },
  };
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

/** Stops the process's BFF: consumer, sockets, HTTP server, Redis. */
export async function stop(): Promise<void> {
  const current = running;
  running = undefined;
  await current?.stop();
}
