/**
 * The one start/stop path of every app. {@link runApp}: an HTTP API with
 * health probes, what attaches to its server, an optional Kafka consumer
 * and the resources closed after them (the BFF runs on it directly).
 * {@link runService}: a service's Postgres database and outbox relay to
 * Kafka on top. A service's `start()` opens its database, then hands the
 * parts to {@link runService}; `stop()` undoes it in reverse order
 * (consumer, HTTP, relay, database). Both start the app's tracing
 * (./tracing) from its configuration and flush it last on stop.
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
import type { Logger } from './logger';
import { createKafka, type KafkaConnection } from './kafka';
import { startPostgresOutboxRelay, type OutboxRelay } from './outbox';
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
    | {
        groupId: string;
        fromBeginning?: boolean;
        subscriptions: (relay: OutboxRelay) => Subscription[];
      };
}

export interface RunningService {
  port: number;
  stop(): Promise<void>;
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
  /** Readiness probes by name; `kafka` (the consumer runs) is added when there is a consumer. */
  readiness?: Record<string, ReadinessProbe>;
  /** See {@link HttpAppOptions}. */
  http: Pick<HttpAppOptions, 'beforeBody' | 'routes' | 'errorBody' | 'jsonBodyLimit'>;
  /** Attaches to the HTTP server once it listens (the BFF's socket.io); closed first on stop. */
  attach?: (server: Server) => Closable;
  /** Events the app consumes: its consumer group and its one subscription list (see `./consumer`). */
  consumer?:
    | false
    | ({ groupId: string; fromBeginning?: boolean; subscriptions: Subscription[] } & Pick<
        ConsumerRunnerOptions,
        'concurrency' | 'partitionsConcurrency' | 'isApplied'
      >);
  /** Closed last, in order, on stop or after a failed start (relay, database, Redis clients). */
  resources?: Closable[];
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
  const tracing = isTracing(parts.tracing) ? parts.tracing : startTracing(name, parts.tracing);
  let consumer: RunningConsumer | undefined;
  const readiness: Record<string, ReadinessProbe> = { ...parts.readiness };
  if (parts.consumer)
    readiness.kafka = async () => {
      if (!consumer?.isRunning()) throw new Error('the Kafka consumer is not running');
    };
  const app = createHttpApp({ logger, readiness, tracing, ...parts.http });
  const closeResources = async () => {
    for (const resource of parts.resources ?? []) await resource.close();
    await tracing.shutdown();
  };
  let server: RunningServer | undefined;
  let attached: Closable | undefined;
  try {
    server = await listen(app, parts.port, parts.host);
    attached = parts.attach?.(server.server);
    if (parts.consumer) {
      consumer = await runConsumer({
        kafka: createKafka(parts.kafkaBrokers, `${name}-consumer`, logger, parts.kafkaConnection),
        groupId: parts.consumer.groupId,
        fromBeginning: parts.consumer.fromBeginning,
        subscriptions: parts.consumer.subscriptions,
        concurrency: parts.consumer.concurrency,
        partitionsConcurrency: parts.consumer.partitionsConcurrency,
        isApplied: parts.consumer.isApplied,
        tracing,
        logger: logger.child({ component: 'consumer' }),
      });
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
    async stop() {
      await consumer?.stop();
      // socket.io's close also closes the HTTP server; closing it again is harmless.
      await attached?.close();
      await running.close().catch(() => undefined);
      await closeResources();
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
    consumer: parts.consumer && {
      groupId: parts.consumer.groupId,
      fromBeginning: parts.consumer.fromBeginning,
      subscriptions: parts.consumer.subscriptions(relay),
    },
    resources: [{ close: () => relay.stop() }, { close: () => database.close() }],
  });
}

/**
 * Runs a service as a process (`src/main.ts`): starts it and stops it
 * cleanly on SIGINT/SIGTERM; a failed start exits with status 1.
 */
export async function runAsProcess(service: {
  start(): Promise<unknown>;
  stop(): Promise<void>;
}): Promise<void> {
  try {
    await service.start();
  } catch (error) {
    console.error(error);
    process.exit(1);
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      service.stop().then(
        () => process.exit(0),
        () => process.exit(1),
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
): { start(options?: StartOptions): Promise<{ port: number }>; stop(): Promise<void> } {
  let running: RunningService | undefined;
  return {
    async start(options = {}) {
      if (running) throw new Error(`${name} is already started`);
      running = await launch({ ...process.env, ...options.env }, options.port);
      return { port: running.port };
    },
    async stop() {
      const service = running;
      running = undefined;
      await service?.stop();
    },
  };
}

function isTracing(value: AppParts['tracing']): value is Tracing {
  return value !== undefined && 'tracer' in value;
}
