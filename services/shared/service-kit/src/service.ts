/**
 * The one start/stop path of every app. {@link runApp}: an HTTP API with
 * health probes, what attaches to its server, an optional Kafka consumer
 * and the resources closed after them (the BFF runs on it directly).
 * {@link runService}: a service's Postgres database and outbox relay to
 * Kafka on top. A service's `start()` opens its database, then hands the
 * parts to {@link runService}; `stop()` undoes it in reverse order
 * (consumer, HTTP, relay, database). Both start the app's tracing
 * (./tracing) from its configuration and flush it last on stop. A process
 * stopped by SIGTERM drains first (./lifecycle): readiness false, a delay,
 * requests in flight finish.
 */
import type { Server } from 'node:http';
import type { Express } from 'express';
import {
  runConsumer,
  type ConsumerRunnerOptions,
  type RunningConsumer,
  type Subscription,
} from './consumer';
import {
  createHttpApp,
  listen,
  type HttpAppOptions,
  type ReadinessProbe,
  type RunningServer,
} from './http';
import type { Database } from './database';
import type { FailureMessages } from './errors';
import type { Logger } from './logger';
import { createKafka, type KafkaConnection } from './kafka';
import {
  drainSettingsFromEnv,
  IMMEDIATE_STOP,
  sleep,
  superviseConsumer,
  type DrainSettings,
  type SupervisedConsumer,
} from './lifecycle';
import { createAppMetrics, type AppMetrics } from './metrics';
import { readOutboxBacklog, startPostgresOutboxRelay, type OutboxRelay } from './outbox/index';
import { startTracing, type Tracing, type TracingConfig } from './tracing';

export interface ServiceParts<Client> {
  /** Service name: logger name and Kafka client id. */
  name: string;
  logger: Logger;
  port: number;
  kafkaBrokers: string[];
  /** TLS and SASL of the Kafka clients; default `kafkaConnectionFromEnv()` of `process.env` (./kafka). */
  kafkaConnection?: KafkaConnection;
  database: Database<Client>;
  /** See {@link AppParts.failureMessages}. */
  failureMessages: FailureMessages;
  /** The OpenTelemetry variables (./tracing `tracingConfigShape`; the service's config fits); default off. */
  tracing?: TracingConfig;
  /** Probes besides the database's, e.g. an S3 bucket. */
  readiness?: Record<string, ReadinessProbe>;
  /** Adds the service's routers; `relay.wake()` after committing an event. */
  routes: (app: Express, relay: OutboxRelay) => void;
  /**
   * Events the service consumes: its consumer group and its one
   * subscription list (see `./consumer`); `relay.wake()` after committing.
   */
  consumer?:
    | false
    | ({
        groupId: string;
        fromBeginning?: boolean;
        subscriptions: (relay: OutboxRelay) => Subscription[];
      } & Pick<ConsumerRunnerOptions, 'fetchMinBytes' | 'fetchMaxWaitMs'>);
}

export interface RunningService {
  port: number;
  /**
   * Stops the app: readiness false, `drain.drainDelayMs` of serving on, then no new
   * connection and `drain.graceMs` for requests in flight, then sockets, consumer, resources.
   * @param drain default {@link IMMEDIATE_STOP} (tests); a SIGTERM uses {@link drainSettingsFromEnv}
   */
  stop(drain?: DrainSettings): Promise<void>;
}

/** Something started with the app and closed when it stops (socket.io, Redis clients, a database). */
export interface Closable {
  close(): Promise<void>;
}

/** The parts of any app (a service or the BFF): HTTP, probes, optional consumer, start/stop. */
export interface AppParts {
  /** App name: logger name and Kafka client id. */
  name: string;
  logger: Logger;
  port: number;
  /** Interface to listen on; default env `HOST`, else `127.0.0.1` (see {@link listen}). */
  host?: string;
  kafkaBrokers: string[];
  /** TLS and SASL of the Kafka clients; default `kafkaConnectionFromEnv()` of `process.env` (./kafka). */
  kafkaConnection?: KafkaConnection;
  /**
   * Readiness probes by name; `shutdown` (fails while the app drains) is always added, `kafka`
   * (the consumer runs) when there is a required consumer.
   */
  readiness?: Record<string, ReadinessProbe>;
  /** See {@link HttpAppOptions}. */
  http: Pick<HttpAppOptions, 'beforeBody' | 'routes' | 'errorBody' | 'jsonBodyLimit'>;
  /**
   * The app's words for the failures the kit answers by itself (no route, an
   * unreadable body, a value the database refuses, something failed or away):
   * required, so that no app answers in the kit's neutral defaults by mistake.
   */
  failureMessages: FailureMessages;
  /** Attaches to the HTTP server once it listens (the BFF's socket.io); closed first on stop. */
  attach?: (server: Server) => Closable;
  /** Events the app consumes: its consumer group and its one subscription list (see `./consumer`). */
  consumer?:
    | false
    | ({
        groupId: string;
        fromBeginning?: boolean;
        subscriptions: Subscription[];
        /**
         * `true` (default): the app starts only once the consumer runs, and is not ready
         * while it does not. `false` (the BFF, which serves from its read model): the
         * consumer starts in the background and again until Kafka answers; readiness
         * ignores it and `raly_consumer_connected` tells (./lifecycle superviseConsumer).
         */
        required?: boolean;
      } & Pick<
        ConsumerRunnerOptions,
        | 'concurrency'
        | 'partitionsConcurrency'
        | 'isApplied'
        | 'snapshots'
        | 'fetchMinBytes'
        | 'fetchMaxWaitMs'
      >);
  /** Closed last, in order, on stop or after a failed start (relay, database, Redis clients). */
  resources?: Closable[];
  /** The app's metrics (`/metrics`, ./metrics); default a fresh registry. */
  metrics?: AppMetrics;
  /**
   * The app's tracing: the OpenTelemetry variables (./tracing `tracingConfigShape`; the app's
   * config fits), or tracing already started (by {@link runService}, for its relay); default off.
   * Shut down (flushed) after `resources`.
   */
  tracing?: TracingConfig | Tracing;
}

/**
 * Starts an app: the HTTP server with probes, then what attaches to it,
 * then the consumer. Stop undoes it in reverse: consumer, attachments and
 * HTTP, then `resources` in order.
 * @returns the bound port (0 asked → a free one) and how to stop
 * @throws what listen or the consumer's start throws, after closing what was started
 */
export async function runApp(parts: AppParts): Promise<RunningService> {
  const { name, logger } = parts;
  const metrics = parts.metrics ?? createAppMetrics();
  const tracing = isTracing(parts.tracing) ? parts.tracing : startTracing(name, parts.tracing);
  let consumer: RunningConsumer | SupervisedConsumer | undefined;
  let draining = false;
  const readiness: Record<string, ReadinessProbe> = {
    shutdown: async () => {
      if (draining) throw new Error('shutting down');
    },
    ...parts.readiness,
  };
  const consumerParts = parts.consumer || undefined;
  if (consumerParts && consumerParts.required !== false)
    readiness.kafka = async () => {
      if (!(consumer as RunningConsumer | undefined)?.isRunning())
        throw new Error('the Kafka consumer is not running');
    };
  const app = createHttpApp({
    logger,
    readiness,
    metrics,
    tracing,
    failureMessages: parts.failureMessages,
    ...parts.http,
  });
  const closeResources = async () => {
    for (const resource of parts.resources ?? []) await resource.close();
    await tracing.shutdown();
  };
  let server: RunningServer | undefined;
  let attached: Closable | undefined;
  try {
    server = await listen(app, parts.port, parts.host);
    attached = parts.attach?.(server.server);
    if (consumerParts) {
      const consumerLogger = logger.child({ component: 'consumer' });
      const startConsumer = () =>
        runConsumer({
          kafka: createKafka(parts.kafkaBrokers, `${name}-consumer`, logger, parts.kafkaConnection),
          groupId: consumerParts.groupId,
          fromBeginning: consumerParts.fromBeginning,
          subscriptions: consumerParts.subscriptions,
          concurrency: consumerParts.concurrency,
          partitionsConcurrency: consumerParts.partitionsConcurrency,
          isApplied: consumerParts.isApplied,
          snapshots: consumerParts.snapshots,
          fetchMinBytes: consumerParts.fetchMinBytes,
          fetchMaxWaitMs: consumerParts.fetchMaxWaitMs,
          tracing,
          logger: consumerLogger,
          metrics,
        });
      if (consumerParts.required === false) {
        const supervised = superviseConsumer(startConsumer, consumerLogger);
        consumer = supervised;
        // Kafka up: the consumer is in its group when start resolves; down: start goes on without it.
        await supervised.firstAttempt;
      } else consumer = await startConsumer();
    }
  } catch (error) {
    await attached?.close();
    await server?.close();
    await closeResources();
    throw error;
  }
  const running = server;
  logger.info({ port: running.port }, `${name} listening`);
  return {
    port: running.port,
    async stop(drain = IMMEDIATE_STOP) {
      draining = true;
      if (drain.drainDelayMs > 0) {
        logger.info({ drainDelayMs: drain.drainDelayMs }, `${name} draining: not ready`);
        await sleep(drain.drainDelayMs);
      }
      // No new connection; requests in flight finish (closed first: socket.io's close closes
      // the server too, and would not wait for them).
      const httpClosed = running.close(drain.graceMs).catch(() => undefined);
      // The BFF's sockets are closed: their clients reconnect, to another replica.
      await attached?.close();
      await httpClosed;
      // The consumer commits what it handled and leaves its group; then the relay flushes.
      await consumer?.stop();
      await closeResources();
      logger.info(`${name} stopped`);
    },
  };
}

/**
 * Starts a service: its outbox relay, then {@link runApp} with the
 * database's probe; the relay and the database close after the HTTP server.
 * @returns the bound port (0 asked → a free one) and how to stop
 */
export async function runService<Client>(parts: ServiceParts<Client>): Promise<RunningService> {
  const { name, logger, database } = parts;
  const metrics = createAppMetrics();
  registerOutboxMetrics(metrics, () => readOutboxBacklog(database.pool));
  const tracing = startTracing(name, parts.tracing);
  const relay = startPostgresOutboxRelay(
    database.pool,
    parts.kafkaBrokers,
    name,
    logger,
    parts.kafkaConnection,
    tracing,
  );
  return runApp({
    name,
    logger,
    port: parts.port,
    kafkaBrokers: parts.kafkaBrokers,
    kafkaConnection: parts.kafkaConnection,
    tracing,
    readiness: { database: database.ping, ...parts.readiness },
    http: { routes: (express) => parts.routes(express, relay) },
    failureMessages: parts.failureMessages,
    // A service serves its HTTP routes from its database, and its outbox keeps what it writes
    // while Kafka is away: its readiness does not wait on the consumer (a broker leaving or
    // rejoining restarts consumers, which made every instance unready at once: 503s at the load
    // balancer, docs/operations.md "Chaos run"). The consumer is started again in the background.
    consumer: parts.consumer && {
      groupId: parts.consumer.groupId,
      fromBeginning: parts.consumer.fromBeginning,
      subscriptions: parts.consumer.subscriptions(relay),
      fetchMinBytes: parts.consumer.fetchMinBytes,
      fetchMaxWaitMs: parts.consumer.fetchMaxWaitMs,
      required: false,
    },
    resources: [{ close: () => relay.stop() }, { close: () => database.close() }],
    metrics,
  });
}

/**
 * `raly_outbox_pending` and `raly_outbox_oldest_pending_age_seconds`,
 * read from the outbox at scrape time; NaN (unknown) when the database does not answer.
 */
function registerOutboxMetrics(
  metrics: AppMetrics,
  read: () => Promise<{ pending: number; oldestPendingAgeSeconds: number }>,
): void {
  let last: Promise<{ pending: number; oldestPendingAgeSeconds: number } | undefined> | undefined;
  // One query per scrape for both gauges.
  const backlog = () =>
    (last ??= read()
      .catch(() => undefined)
      .finally(() => setTimeout(() => (last = undefined), 0)));
  metrics.gauge({
    name: 'raly_outbox_pending',
    help: 'Outbox rows waiting to be published (pending, or failed and to be retried).',
    async collect() {
      this.set((await backlog())?.pending ?? Number.NaN);
    },
  });
  metrics.gauge({
    name: 'raly_outbox_oldest_pending_age_seconds',
    help: 'Seconds the oldest waiting outbox row has waited (0 when none).',
    async collect() {
      this.set((await backlog())?.oldestPendingAgeSeconds ?? Number.NaN);
    },
  });
}

/**
 * Runs a service as a process (`src/main.ts`): starts it and stops it
 * cleanly on SIGTERM — draining as {@link drainSettingsFromEnv} says — or
 * SIGINT (the same without the delay); exits 0 once stopped. A failed start
 * exits with status 1, and so does a stop still hanging 15 s past its drain.
 */
export async function runAsProcess(service: {
  start(): Promise<unknown>;
  stop(drain?: DrainSettings): Promise<void>;
}): Promise<void> {
  let drain: DrainSettings;
  try {
    drain = drainSettingsFromEnv();
    await service.start();
  } catch (error) {
    console.error(error);
    process.exit(1);
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      // SIGINT is a developer's Ctrl-C: no load balancer to wait for.
      const settings = signal === 'SIGTERM' ? drain : { ...drain, drainDelayMs: 0 };
      // A stop that hangs past the drain and 15 s more ends the process anyway (status 1).
      setTimeout(() => process.exit(1), settings.drainDelayMs + settings.graceMs + 15_000).unref();
      service.stop(settings).then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error);
          process.exit(1);
        },
      );
    });
  }
}

/** How a test or `main.ts` starts a service. */
export interface StartOptions {
  /** TCP port; 0 picks a free one. Default env PORT, else the service's port. */
  port?: number;
  /** Overrides of the environment (tests pass their own DATABASE_URL etc.). */
  env?: Record<string, string | undefined>;
}

/**
 * The `start()`/`stop()` pair a service's `app.ts` exports: one instance per
 * process, the environment merged with `options.env`.
 * @param launch opens the service's parts and returns it running (usually via {@link runService})
 */
export function defineService(
  name: string,
  launch: (
    env: Record<string, string | undefined>,
    port: number | undefined,
  ) => Promise<RunningService>,
): {
  start(options?: StartOptions): Promise<{ port: number }>;
  stop(drain?: DrainSettings): Promise<void>;
} {
  let running: RunningService | undefined;
  return {
    async start(options = {}) {
      if (running) throw new Error(`${name} is already started`);
      running = await launch({ ...process.env, ...options.env }, options.port);
      return { port: running.port };
    },
    async stop(drain?: DrainSettings) {
      const service = running;
      running = undefined;
      await service?.stop(drain);
    },
  };
}

function isTracing(value: AppParts['tracing']): value is Tracing {
  return value !== undefined && 'tracer' in value;
}
