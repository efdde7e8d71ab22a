/**
 * The SQL helpers every repository of the offers service shares: a
 * transaction on one pooled connection, the outbox insert, and the id check
 * that keeps malformed ids away from uuid columns.
 */
import type { OutboxRow } from '@raly/service-kit/outbox';
import type { Pool, PoolClient } from 'pg';

/** A connection or the pool: what a query runs on. */
export type Queryable = Pick<PoolClient, 'query'>;

/**
 * Runs `work` in one transaction on one connection: COMMIT when it resolves,
 * ROLLBACK when it throws.
 * @returns what `work` returned
 * @throws what `work` or the database threw
 */
export async function inTransaction<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Inserts the outbox row of an event (kit outbox layout); call inside the change's transaction. */
export async function insertOutboxRow(client: Queryable, row: OutboxRow): Promise<void> {
  await client.query(
    `INSERT INTO outbox (id, topic, key, event_type, envelope) VALUES ($1, $2, $3, $4, $5::jsonb)`,
    [row.id, row.topic, row.key, row.eventType, JSON.stringify(row.envelope)],
  );
}

/** True for a canonical uuid: anything else names no row of a uuid column. */
export const isUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
