/**
 * The outbox rows of integration events: what a domain function raises
 * ({@link RaiseEvent}) and a repository records in its transaction (./writer).
 * Each row keeps the trace context of the request or message that wrote it
 * (columns `traceparent`, `tracestate`, ../tracing).
 */
import { randomUUID } from 'node:crypto';
import type { Envelope } from '@raly/contracts/envelope';
import { outboxRowTrace } from '../tracing';

/** The columns a service writes when it records an event (./writer `record`). */
export interface NewOutboxMessage<T> {
  id: string;
  topic: string;
  key: string;
  eventType: string;
  envelope: Envelope<T>;
  /** W3C trace context of the write (./tracing); absent when no traced request or message is in progress. */
  traceparent?: string;
  tracestate?: string;
}

/**
 * Builds the outbox row of one integration event.
 * @param event topic, event type, source (service name), subject (aggregate
 *   id, also the Kafka key), the aggregate's version after the change and
 *   the whole snapshot as data
 * @returns the row to insert in the same transaction as the change, with the
 *   trace context of the write when one is active (./tracing {@link outboxRowTrace})
 */
export function newOutboxMessage<T>(event: {
  topic: string;
  type: string;
  source: string;
  subject: string;
  version: number;
  data: T;
}): NewOutboxMessage<T> {
  const id = randomUUID();
  return {
    id,
    topic: event.topic,
    key: event.subject,
    eventType: event.type,
    ...outboxRowTrace({ topic: event.topic, eventType: event.type, id }),
    envelope: {
      id,
      type: event.type,
      source: event.source,
      subject: event.subject,
      time: new Date().toISOString(),
      version: event.version,
      data: event.data,
    },
  };
}

/**
 * The outbox row of an event carrying a record's whole snapshot (event-carried
 * state transfer), validated on the way out so no consumer ever receives a
 * snapshot it cannot parse.
 * @param event topic, type, source, the record's schema and the record (its
 *   `id` is the subject and Kafka key, its `version` the envelope's version)
 * @returns the row to record in the change's transaction (./writer)
 * @throws ZodError when the record does not match its schema
 */
export function newSnapshotOutboxMessage<T extends { id: string; version: number }>(event: {
  topic: string;
  type: string;
  source: string;
  schema: { parse(value: unknown): T };
  record: T;
}): NewOutboxMessage<T> & { envelope: object } {
  const message = newOutboxMessage({
    topic: event.topic,
    type: event.type,
    source: event.source,
    subject: event.record.id,
    version: event.record.version,
    data: event.schema.parse(event.record),
  });
  return { ...message, envelope: message.envelope as Envelope<T> & object };
}

/** An outbox row as a repository records it (./writer `record`). */
export type OutboxRow = NewOutboxMessage<unknown> & { envelope: object };

/**
 * The integration event a change raises, as a domain function hands it to a
 * repository (`repository.updateWithEvent(id, changes, userUpdatedEvent)`):
 * the domain decides which event, the repository calls it with the snapshot
 * its write produced (so the event carries the version the database
 * assigned) and inserts the row in the same transaction.
 */
export type RaiseEvent<Snapshot> = (snapshot: Snapshot) => OutboxRow;

/**
 * The snapshot events of one aggregate's stream, one builder per event type:
 * `const userEvent = snapshotEventOf({ topic, source, schema })`, then
 * `export const userUpdatedEvent = userEvent(eventTypes.userUpdated)`.
 * @param stream topic, source (service name) and the record's schema
 * @returns for an event type, the {@link RaiseEvent} that builds its row
 *   with {@link newSnapshotOutboxMessage}
 */
export function snapshotEventOf<T extends { id: string; version: number }>(stream: {
  topic: string;
  source: string;
  schema: { parse(value: unknown): T };
}): (type: string) => RaiseEvent<T> {
  return (type) => (record) => newSnapshotOutboxMessage({ ...stream, type, record });
}
