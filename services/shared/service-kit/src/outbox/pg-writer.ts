/**
 * The outbox writer of a hot path written in plain SQL: the change and its
 * events in one transaction on one connection of the service's pg pool,
 * without Prisma's interactive transaction, in as few round trips as the
 * statements allow. BEGIN travels with the transaction's first statement
 * when that statement has no parameters, and the events' INSERT travels with
 * the COMMIT (both as one simple query, values written as SQL literals by
 * pg's `escapeLiteral`). After the commit the rows are handed to the relay
 * when it takes them (./hand-off: inserted with a lease, published without a
 * claim), else the relay is woken, as by ./writer.
 * A value Postgres refuses for its data (SQLSTATE class 22) is a 400, as on
 * the kit's Prisma clients (../database).
 */
import { escapeLiteral, type Pool, type QueryResult, type QueryResultRow } from 'pg';
import { kitFailure, isDatabaseDataError } from '../errors';
import { OUTBOX_HAND_OFF_LEASE_MS, type OutboxHandOff } from './hand-off';
import type { OutboxRow } from './rows';

/** The transaction handed to the work of {@link PgEventWriter.transaction}. */
export interface PgTransaction {
  /**
   * Runs one statement in the transaction; the first call also begins it.
   * A first statement without `values` is sent with BEGIN in one round trip
   * (a simple query: any value written into its text must be one checked to
   * be safe, e.g. a uuid matched by a pattern).
   * @param query the SQL, or pg's query config (`name` prepares it once per connection)
   * @returns the statement's result
   * @throws what Postgres answered (the transaction is rolled back by the writer)
   */
  query<R extends QueryResultRow = QueryResultRow>(
    query: string | { name?: string; text: string; values?: unknown[] },
    values?: unknown[],
  ): Promise<QueryResult<R>>;
}

/**
 * Records events in the transaction: the rows are inserted with the COMMIT
 * (one statement, whatever their number); nothing is written when the work throws.
 */
export type PgRecordEvents = (...rows: OutboxRow[]) => void;

/** A service's writer of plain-SQL changes with their events. */
export interface PgEventWriter {
  /**
   * Runs `work` in one transaction on one pooled connection and commits it
   * with the events `work` recorded.
   * @returns what `work` returned, once committed; the rows `work` recorded are
   *   handed to the relay after the commit, or the relay is woken
   * @throws what `work` or the database threw (the transaction is rolled back,
   *   no row is written, the relay is not woken); AppError invalid-argument
   *   `badRequest` for a value Postgres refuses (SQLSTATE class 22)
   */
  transaction<R>(work: (tx: PgTransaction, record: PgRecordEvents) => Promise<R>): Promise<R>;
}

/** A value as an SQL literal: NULL, or the text quoted by pg's `escapeLiteral`. */
const literal = (value: string | null | undefined) =>
  value === null || value === undefined ? 'NULL' : escapeLiteral(value);

/**
 * The INSERT of outbox rows with their values written as literals (the
 * columns of ./writer's INSERT; the rest keep their defaults: pending, no attempt yet).
 * @param rows at least one row
 * @param leaseMs when above 0, the rows are due only this many ms after the insert (a hand-off's lease)
 */
export function outboxInsertLiteralSql(rows: OutboxRow[], leaseMs = 0): string {
  const lease = Math.max(0, Math.floor(leaseMs));
  const due = lease > 0 ? `, now() + interval '${lease} milliseconds'` : '';
  const values = rows.map(
    (row) =>
      `(${literal(row.id)}::uuid, ${literal(row.topic)}, ${literal(row.key)}, ${literal(row.eventType)}, ` +
      `${literal(JSON.stringify(row.envelope))}::jsonb, ${literal(row.traceparent)}, ${literal(row.tracestate)}${due})`,
  );
  const columns = `id, topic, key, event_type, envelope, traceparent, tracestate${lease > 0 ? ', next_attempt_at' : ''}`;
  return `INSERT INTO "outbox" (${columns}) VALUES ${values.join(', ')}`;
}

/**
 * The plain-SQL event writer of one service.
 * @param parts `pool`: the service's pg pool (the database holds the kit's
 *   `outbox` table); `relay`: the service's outbox relay, handed the rows of
 *   a commit that recorded events (or woken, when it takes no hand-off)
 * @example
 * const events = createPgEventWriter({ pool: database.pool, relay });
 * await events.transaction(async (tx, record) => {
 *   // The first statement carries no parameters (BEGIN travels with it): quote what it names.
 *   const { rows } = await tx.query(`SELECT version FROM users WHERE id = ${escapeLiteral(id)} FOR UPDATE`);
 *   record(raiseEvent(await update(tx, rows[0])));
 * });
 */
export function createPgEventWriter(parts: {
  pool: Pool;
  relay: { wake(): void } & Partial<OutboxHandOff>;
}): PgEventWriter {
  const { pool, relay } = parts;
  return {
    async transaction(work) {
      const client = await pool.connect();
      let begun = false;
      const recorded: OutboxRow[] = [];
      const tx: PgTransaction = {
        async query<R extends QueryResultRow>(
          query: string | { name?: string; text: string; values?: unknown[] },
          values?: unknown[],
        ) {
          const config = typeof query === 'string' ? { text: query, values } : query;
          if (!begun && !config.name && (config.values?.length ?? 0) === 0) {
            begun = true;
            // A simple query of two statements: pg answers one result per statement.
            const results = (await client.query(
              `BEGIN; ${config.text}`,
            )) as unknown as QueryResult<R>[];
            return results[results.length - 1]!;
          }
          if (!begun) {
            begun = true;
            await client.query('BEGIN');
          }
          return client.query<R>(config);
        },
      };
      let broken: Error | undefined;
      try {
        const result = await work(tx, (...rows) => {
          recorded.push(...rows);
        });
        // Handed to the relay after the commit, the rows carry a lease no claim takes.
        const handOff = recorded.length > 0 && relay.takesHandOffs?.() === true;
        const insert =
          recorded.length > 0
            ? outboxInsertLiteralSql(recorded, handOff ? OUTBOX_HAND_OFF_LEASE_MS : 0)
            : undefined;
        // Nothing begun: the INSERT alone is its own transaction.
        if (begun) await client.query(insert ? `${insert}; COMMIT` : 'COMMIT');
        else if (insert) await client.query(insert);
        if (handOff) relay.handOff!(recorded);
        else if (recorded.length > 0) relay.wake();
        return result;
      } catch (error) {
        if (begun)
          await client.query('ROLLBACK').catch((rollbackError: Error) => {
            // A connection that cannot roll back is not handed out again.
            broken = rollbackError;
          });
        if (isDatabaseDataError(error))
          throw kitFailure('invalid-argument', 'badRequest', { cause: error });
        throw error;
      } finally {
        client.release(broken);
      }
    },
  };
}
