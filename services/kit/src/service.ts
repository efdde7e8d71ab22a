/**
 * The shape every service runs in: a Postgres database, an outbox relay to
 * Kafka and an HTTP API with health probes. A service's `start()` opens its
 * database, then hands the parts to {@link runService}; `stop()` undoes it
 * in reverse order (HTTP, relay, database).
 */
import type { Express } from 'express';
import { runConsumer, type RunningConsumer, type Subscription } from './consumer';
import { createHttpApp, listen, type ReadinessProbe } from './http';
import type { Database } from './database';
import type { Logger } from './logger';
import { createKafka } from './kafka';
import { startPostgresOutboxRelay, type OutboxRelay } from './outbox';

export interface ServiceParts<Client> {
  /** Service name: logger name and Kafka client id. */
  name: string;
  logger: Logger;
  port: number;
  kafkaBrokers: string[];
  database: Database<Client>;
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

/**
 * Starts the relay, the HTTP server and (when given) the consumer of a service.
 * @returns the bound port (0 asked → a free one) and how to stop
 */
export async function runService<Client>(parts: ServiceParts<Client>): Promise<RunningService> {
  const { name, logger, database } = parts;
  const relay = startPostgresOutboxRelay(database.pool, parts.kafkaBrokers, name, logger);
  const app = createHttpApp({
    logger,
    readiness: { database: database.ping, ...parts.readiness },
    routes: (express) => parts.routes(express, relay),
  });
  let consumer: RunningConsumer | undefined;
  try {
    const server = await listen(app, parts.port);
    if (parts.consumer) {
      consumer = await runConsumer({
        kafka: createKafka(parts.kafkaBrokers, `${name}-consumer`, logger),
        groupId: parts.consumer.groupId,
        fromBeginning: parts.consumer.fromBeginning,
        subscriptions: parts.consumer.subscriptions(relay),
        logger: logger.child({ component: 'consumer' }),
      }).catch(async (error: unknown) => {
        await server.close();
        throw error;
      });
    }
    logger.info({ port: server.port }, `${name} listening`);
    return {
      port: server.port,
      async stop() {
        await consumer?.stop();
        await server.close();
        await relay.stop();
        await database.close();
      },
    };
  } catch (error) {
    await relay.stop();
    await database.close();
    throw error;
  }
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
