/** Kafka clients with the settings every service shares. */
import { Kafka, logLevel, Partitioners, type Producer } from 'kafkajs';
import type { Logger } from './logger';

/**
 * A kafkajs client whose own log lines go to our pino logger.
 * @param brokers `host:port` list, e.g. from `KAFKA_BROKERS.split(',')`
 * @param clientId shown in broker logs, e.g. the service name
 */
export function createKafka(brokers: string[], clientId: string, logger: Logger): Kafka {
  return new Kafka({
    clientId,
    brokers,
    logLevel: logLevel.WARN,
    logCreator: () => (entry) => {
      const { message, ...extra } = entry.log;
      const line = { kafka: entry.namespace, ...extra };
      if (entry.level <= logLevel.ERROR) logger.error(line, message);
      else logger.warn(line, message);
    },
    retry: { retries: 5, initialRetryTime: 200 },
  });
}

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
