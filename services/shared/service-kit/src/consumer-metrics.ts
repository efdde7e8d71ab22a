/**
 * The metrics of a Kafka consumer (docs/operations.md "Metrics"),
 * from kafkajs' instrumentation events and the runner's outcomes:
 * - `raly_consumer_connected` (gauge, `group`): 1 while the consumer is in
 *   its group, 0 from a crash, a stop or before the first join — Kafka away;
 * - `raly_consumer_lag` (gauge, `group`, `topic`, `partition`): messages
 *   behind the partition's high watermark after the last batch handled
 *   (kafkajs `offsetLag`); a partition's series goes when it is assigned
 *   away, and all of them while the consumer is not connected (lag unknown);
 * - `raly_consumer_events_total` (counter, `topic`, `outcome`: `handled`,
 *   `superseded` — a snapshot skipped for a newer one of its aggregate in the
 *   same batch —, `retried`, `dead_lettered`);
 * - `raly_consumer_dead_letters_total` (counter, `topic`): messages parked in `<topic>.dlq`.
 */
import type { Consumer } from 'kafkajs';
import type { AppMetrics } from './metrics';

/** What the runner reports per message. */
export interface ConsumerOutcomes {
  handled(topic: string): void;
  /** A snapshot skipped because a newer one of its aggregate in the batch was handled. */
  superseded(topic: string): void;
  retried(topic: string): void;
  deadLettered(topic: string, count: number): void;
}

/** Outcomes that record nothing (a consumer without metrics). */
export const noOutcomes: ConsumerOutcomes = {
  handled: () => undefined,
  superseded: () => undefined,
  retried: () => undefined,
  deadLettered: () => undefined,
};

/**
 * Attaches the consumer's metrics to its instrumentation events.
 * @param consumer a kafkajs consumer, before `connect()`
 * @param groupId its group (label `group`)
 * @returns the counters the runner calls per message
 */
export function instrumentConsumer(
  consumer: Consumer,
  groupId: string,
  metrics: AppMetrics,
): ConsumerOutcomes {
  const connected = metrics.gauge({
    name: 'raly_consumer_connected',
    help: '1 while the Kafka consumer is in its group; 0 when Kafka is away or the consumer stopped.',
    labelNames: ['group'] as const,
  });
  const lag = metrics.gauge({
    name: 'raly_consumer_lag',
    help: 'Messages behind the high watermark, per assigned partition, after the last batch handled.',
    labelNames: ['group', 'topic', 'partition'] as const,
  });
  const events = metrics.counter({
    name: 'raly_consumer_events_total',
    help: 'Events consumed, by topic and outcome (handled, superseded, retried, dead_lettered).',
    labelNames: ['topic', 'outcome'] as const,
  });
  const deadLetters = metrics.counter({
    name: 'raly_consumer_dead_letters_total',
    help: 'Messages parked in the dead-letter topic <topic>.dlq.',
    labelNames: ['topic'] as const,
  });
  /** The partitions with a lag series, `topic partition`. */
  const lagSeries = new Set<string>();
  const forgetLag = (keep: (topic: string, partition: string) => boolean) => {
    for (const line of lagSeries) {
      const [topic, partition] = line.split(' ') as [string, string];
      if (keep(topic, partition)) continue;
      lag.remove({ group: groupId, topic, partition });
      lagSeries.delete(line);
    }
  };
  const disconnected = () => {
    connected.set({ group: groupId }, 0);
    forgetLag(() => false);
  };
  connected.set({ group: groupId }, 0);
  consumer.on(consumer.events.GROUP_JOIN, (event) => {
    connected.set({ group: groupId }, 1);
    const assigned = event.payload.memberAssignment;
    forgetLag((topic, partition) => (assigned[topic] ?? []).includes(Number(partition)));
  });
  consumer.on(consumer.events.CRASH, disconnected);
  consumer.on(consumer.events.STOP, disconnected);
  consumer.on(consumer.events.DISCONNECT, disconnected);
  consumer.on(consumer.events.END_BATCH_PROCESS, (event) => {
    const { topic, partition, offsetLag } = event.payload;
    lagSeries.add(`${topic} ${partition}`);
    lag.set({ group: groupId, topic, partition: String(partition) }, Number(offsetLag));
  });
  return {
    handled: (topic) => events.inc({ topic, outcome: 'handled' }),
    superseded: (topic) => events.inc({ topic, outcome: 'superseded' }),
    retried: (topic) => events.inc({ topic, outcome: 'retried' }),
    deadLettered(topic, count) {
      events.inc({ topic, outcome: 'dead_lettered' }, count);
      deadLetters.inc({ topic }, count);
    },
  };
}
