/**
 * How an app stops and how it keeps a consumer that may not start:
 * - the drain on SIGTERM ({@link drainSettingsFromEnv}, used by
 *   `service.ts` runApp/runAsProcess): readiness turns false at once, the app
 *   keeps serving for SHUTDOWN_DRAIN_DELAY_MS while load balancers notice,
 *   then stops accepting connections and lets requests in flight finish
 *   (at most SHUTDOWN_TIMEOUT_MS), closes the BFF's sockets so clients
 *   reconnect to another replica, stops the consumer (it commits what it
 *   handled and leaves its group), flushes the outbox relay and closes the
 *   rest;
 * - {@link superviseConsumer}: a consumer the app does not need to serve
 *   (the BFF's projector): started in the background and started again
 *   until Kafka answers, so the app starts and stays ready without Kafka.
 */
import { handleError } from './errors';
import type { Logger } from './logger';

/** How an app stops. */
export interface DrainSettings {
  /** How long readiness is false before the app stops accepting connections, in ms. */
  drainDelayMs: number;
  /** How long requests in flight may take to finish once it stops accepting, in ms. */
  graceMs: number;
}

/** Drain settings of a stop asked directly (tests, `npm stop`): nothing to wait for. */
export const IMMEDIATE_STOP: DrainSettings = { drainDelayMs: 0, graceMs: 0 };

const nonNegativeInteger = (name: string, value: string | undefined, fallback: number) => {
  if (value === undefined || value.trim() === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0)
    throw new Error(
      `Invalid configuration:\n  ${name}: expected a whole number of milliseconds ≥ 0; got ${value}`,
    );
  return number;
};

/**
 * Reads SHUTDOWN_DRAIN_DELAY_MS (default 5000) and SHUTDOWN_TIMEOUT_MS
 * (default 10000): the drain of a process stopped by SIGTERM. k8s/base sets
 * both beside its `preStop` sleep, all within `terminationGracePeriodSeconds`
 * (docs/operations.md "Shutdown").
 * @param env default `process.env`
 * @throws Error naming a variable that is not a whole number ≥ 0
 */
export function drainSettingsFromEnv(
  env: Record<string, string | undefined> = process.env,
): DrainSettings {
  return {
    drainDelayMs: nonNegativeInteger('SHUTDOWN_DRAIN_DELAY_MS', env.SHUTDOWN_DRAIN_DELAY_MS, 5_000),
    graceMs: nonNegativeInteger('SHUTDOWN_TIMEOUT_MS', env.SHUTDOWN_TIMEOUT_MS, 10_000),
  };
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** A consumer kept running by {@link superviseConsumer}. */
export interface SupervisedConsumer {
  /** Settles when the first attempt to start has ended, started or not (never rejects). */
  firstAttempt: Promise<void>;
  /** Stops trying, and stops the consumer when it runs (it commits and leaves its group). */
  stop(): Promise<void>;
}

/**
 * Starts a consumer in the background and starts it again while it cannot
 * start or after it ended (kafkajs gave up restarting), until stopped.
 * @param start starts the consumer once; resolves when it runs, rejects when Kafka cannot be reached
 * @param logger where failed starts are logged (as warnings, they are expected while Kafka is away)
 * @param retryMs wait between attempts, in ms; default 5000
 */
export function superviseConsumer(
  start: () => Promise<{ stop(): Promise<void>; isRunning(): boolean }>,
  logger: Logger,
  retryMs = 5_000,
): SupervisedConsumer {
  let stopped = false;
  let wake: (() => void) | undefined;
  let current: { stop(): Promise<void>; isRunning(): boolean } | undefined;
  let attempted: () => void = () => undefined;
  const firstAttempt = new Promise<void>((resolve) => (attempted = resolve));
  const pause = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, retryMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const loop = (async () => {
    while (!stopped) {
      if (!current) {
        try {
          const started = await start();
          if (stopped) await started.stop();
          else current = started;
        } catch (error) {
          logger.warn({ err: error }, 'Kafka consumer could not start; trying again');
        }
        attempted();
      } else if (!current.isRunning()) {
        // Crashed for good (kafkajs does not restart it): start a fresh one.
        await current.stop().catch((error: unknown) => handleError(error, logger));
        current = undefined;
        continue;
      }
      if (!stopped) await pause();
    }
  })();
  return {
    firstAttempt,
    async stop() {
      stopped = true;
      attempted();
      wake?.();
      await loop;
      await current?.stop();
      current = undefined;
    },
  };
}
