/** Kafka clients with the settings every service shares. */
import { readFileSync } from 'node:fs';
import {
  Kafka,
  logLevel,
  Partitioners,
  type KafkaConfig,
  type logCreator,
  type Producer,
} from 'kafkajs';
import { z } from 'zod';
import { kafkaConnectionConfigShape, loadConfig } from './config';
// kafkajs' idle 1 ms timer per broker connection, fixed for every client made here.
import './kafka-request-queue';
import type { Logger } from './logger';

/** The security part of a kafkajs client's configuration: TLS and SASL, both optional. */
export type KafkaConnection = Pick<KafkaConfig, 'ssl' | 'sasl'>;

const kafkaConnectionSchema = z.object(kafkaConnectionConfigShape).superRefine((config, ctx) => {
  const sasl = [config.KAFKA_SASL_USERNAME, config.KAFKA_SASL_PASSWORD];
  if (config.KAFKA_SASL_MECHANISM) {
    for (const [name, value] of [
      ['KAFKA_SASL_USERNAME', config.KAFKA_SASL_USERNAME],
      ['KAFKA_SASL_PASSWORD', config.KAFKA_SASL_PASSWORD],
    ] as const)
      if (!value)
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `required with KAFKA_SASL_MECHANISM=${config.KAFKA_SASL_MECHANISM}`,
        });
  } else if (sasl.some(Boolean)) {
    ctx.addIssue({
      code: 'custom',
      path: ['KAFKA_SASL_MECHANISM'],
      message: 'required with KAFKA_SASL_USERNAME/KAFKA_SASL_PASSWORD',
    });
  }
  if (!config.KAFKA_SSL && config.KAFKA_SSL_CA_FILE)
    ctx.addIssue({
      code: 'custom',
      path: ['KAFKA_SSL_CA_FILE'],
      message: 'set, but KAFKA_SSL is not true',
    });
});

/**
 * Maps the Kafka connection variables (config.ts {@link kafkaConnectionConfigShape}) to kafkajs
 * options, so Strimzi's SCRAM-SHA-512 TLS listener or a managed Kafka need no code change: `ssl`
 * when KAFKA_SSL=true — `{ ca: [<PEM of KAFKA_SSL_CA_FILE>], rejectUnauthorized }`, or `true`
 * for the system's CAs — and `sasl` `{ mechanism, username, password }` when
 * KAFKA_SASL_MECHANISM is set. No variable set: `{}` (PLAINTEXT, no authentication, the local
 * stack).
 * @param env the environment; default `process.env`
 * @returns the options to spread into `new Kafka({...})`
 * @throws Error naming each invalid variable: an unknown mechanism, a mechanism without user name
 *   or password (or those without a mechanism), a CA file without KAFKA_SSL=true, or a CA file
 *   that cannot be read
 */
export function kafkaConnectionFromEnv(
  env: Record<string, string | undefined> = process.env,
): KafkaConnection {
  const config = loadConfig(kafkaConnectionSchema, env);
  const connection: KafkaConnection = {};
  if (config.KAFKA_SSL) {
    const rejectUnauthorized = config.KAFKA_SSL_REJECT_UNAUTHORIZED;
    if (config.KAFKA_SSL_CA_FILE) {
      let ca: string;
      try {
        ca = readFileSync(config.KAFKA_SSL_CA_FILE, 'utf8');
      } catch (error) {
        throw new Error(
          `Invalid configuration:\n  KAFKA_SSL_CA_FILE: cannot read ${config.KAFKA_SSL_CA_FILE} (${(error as Error).message})`,
          { cause: error },
        );
      }
      connection.ssl = { ca: [ca], rejectUnauthorized };
    } else {
      connection.ssl = rejectUnauthorized ? true : { rejectUnauthorized };
    }
  }
  if (config.KAFKA_SASL_MECHANISM)
    connection.sasl = {
      mechanism: config.KAFKA_SASL_MECHANISM,
      username: config.KAFKA_SASL_USERNAME!,
      password: config.KAFKA_SASL_PASSWORD!,
    } as KafkaConnection['sasl'];
  return connection;
}

/**
 * The states of a consumer group that kafkajs reports as errors (a failed
 * response, a re-join) but retries by itself: a broker that just started is
 * still loading the group coordinator, and every consumer joining a group
 * makes the others re-join. Each is expected on start and after a broker
 * restart; kafkajs' `error` field carries the broker's message (its Kafka
 * protocol error code beside it).
 */
const retriedGroupStates = [
  "The coordinator is loading and hence can't process requests for this group", // code 14
  'The group coordinator is not available', // code 15
  'This is not the correct coordinator for this group', // code 16
  'The group is rebalancing, so a rejoin is needed', // code 27
];

/**
 * Sends kafkajs' own log lines to a pino logger: errors at
 * `error`, warnings at `warn`, and a line about a group state kafkajs retries
 * by itself ({@link retriedGroupStates}) at `info`, so a normal start logs no
 * error. A state that outlasts kafkajs' retries still ends in its `Crash:`
 * line, at `error`.
 * @param logger the app's logger; each line carries `kafka` (the kafkajs namespace)
 *   and kafkajs' own fields
 */
export function kafkaLogCreator(logger: Logger): logCreator {
  return () => (entry) => {
    const { message, ...extra } = entry.log;
    const line = { kafka: entry.namespace, ...extra };
    const error: unknown = (extra as { error?: unknown }).error;
    if (typeof error === 'string' && retriedGroupStates.includes(error)) logger.info(line, message);
    else if (entry.level <= logLevel.ERROR) logger.error(line, message);
    else logger.warn(line, message);
  };
}

/**
 * A kafkajs client whose own log lines go to our pino logger ({@link kafkaLogCreator}).
 * @param brokers `host:port` list, e.g. from `KAFKA_BROKERS.split(',')`
 * @param clientId shown in broker logs, e.g. the service name
 * @param connection TLS and SASL; default {@link kafkaConnectionFromEnv} of `process.env`
 * @throws Error naming an invalid Kafka connection variable (see {@link kafkaConnectionFromEnv})
 */
export function createKafka(
  brokers: string[],
  clientId: string,
  logger: Logger,
  connection: KafkaConnection = kafkaConnectionFromEnv(),
): Kafka {
  return new Kafka({
    ...connection,
    clientId,
    brokers,
    logLevel: logLevel.WARN,
    logCreator: kafkaLogCreator(logger),
    retry: { retries: 5, initialRetryTime: 200 },
  });
}

/**
 * `acks` of every send: -1 (acks=all), the broker answers once every in-sync
 * replica has the batch — with `min.insync.replicas` 2 (the scaled topology) a
 * send is refused rather than acknowledged by one replica alone. kafkajs'
 * default is also -1; the services say it explicitly so it cannot drift.
 */
export const allReplicas = -1;

/**
 * The Kafka header naming a message's event type (the envelope's `type`): the
 * outbox relay sets it on every message, and the consumer runner skips a
 * type nobody subscribed to before reading the message's value.
 */
export const EVENT_TYPE_HEADER = 'event-type';

/**
 * The idempotent producer the outbox relay publishes with: the broker drops
 * the retries of a send it already wrote, and with one request in flight
 * the order of a key's messages is kept.
 */
export function createIdempotentProducer(kafka: Kafka): Producer {
  return kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
    retry: { retries: 3 },
  });
}
