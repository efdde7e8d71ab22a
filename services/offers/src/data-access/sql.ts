/**
 * The SQL helpers every repository of the offers service shares: a
 * transaction on one pooled connection, the outbox insert, and the id check
 * that keeps malformed ids away from uuid columns.
 */
import { inTransaction, type OutboxRow } from '@raly/service-kit/outbox';
import type { PoolClient } from 'pg';

/** A connection or the pool: what a query runs on. */
export type Queryable = Pick<PoolClient, 'query'>;

/** One transaction on one pooled connection: the kit's (services/kit outbox). */
export { inTransaction };

/**
 * Inserts the outbox row of an event (kit outbox layout), with the trace context it kept
 * (null outside a trace); call inside the change's transaction.
 */
export async function insertOutboxRow(client: Queryable, row: OutboxRow): Promise<void> {
  await client.query(
    `INSERT INTO outbox (id, topic, key, event_type, envelope, traceparent, tracestate)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)`,
    [
      row.id,
      row.topic,
      row.key,
      row.eventType,
      JSON.stringify(row.envelope),
      row.traceparent ?? null,
      row.tracestate ?? null,
    ],
  );
}

/** True for a canonical uuid: anything else names no row of a uuid column. */
export const isUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
