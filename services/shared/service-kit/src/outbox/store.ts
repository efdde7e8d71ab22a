/**
 * Where the relay finds its rows: the outbox table of a service's database,
 * read and marked through the pg pool the service shares with its Prisma
 * client (the claim's `FOR UPDATE SKIP LOCKED` lets replicas share one table).
 * A claim is two round trips: BEGIN with the claim, the publish mark with COMMIT.
 * Works on any table with the outbox layout (services/shared/service-kit/prisma/outbox/migrations).
 */
import type { Pool, PoolClient, QueryResult } from 'pg';

/** A row claimed for publishing. */
export interface ClaimedOutboxRow {
  id: string;
  topic: string;
  key: string;
  eventType: string;
  envelope: unknown;
  attempts: number;
  /** The trace context the row kept (null: written outside a trace). */
  traceparent: string | null;
  tracestate: string | null;
}

/** A row whose publish failed: its attempts so far and when it is due again. */
export interface OutboxFailure {
  id: string;
  attempts: number;
  nextAttemptAt: Date;
  error: string;
}

/** Rows claimed by one relay, locked against other replicas until the claim ends. */
export interface OutboxClaim {
  rows: ClaimedOutboxRow[];
  markPublished(ids: string[]): Promise<void>;
  markFailed(failures: OutboxFailure[]): Promise<void>;
}

/** Where the relay finds pending rows: a way to claim them and mark the outcome. */
export interface OutboxStore {
  /**
   * Claims up to `limit` due rows (`FOR UPDATE SKIP LOCKED`, oldest first)
   * and keeps them locked while `work` runs; the marks commit together.
   * @returns what `work` returned
   */
  withClaim<T>(limit: number, work: (claim: OutboxClaim) => Promise<T>): Promise<T>;
  /**
   * Marks rows published outside a claim (rows a writer handed to the relay),
   * in one round trip whose COMMIT does not wait for the disk, as a claim's.
   */
  markPublished(ids: string[]): Promise<void>;
  /** Marks rows failed outside a claim: attempts counted, due again at `nextAttemptAt`. */
  markFailed(failures: OutboxFailure[]): Promise<void>;
  /**
   * Deletes up to `limit` rows published more than `retentionMs` ago, oldest first.
   * @returns how many rows were deleted
   */
  prunePublished(retentionMs: number, limit: number): Promise<number>;
}

/**
 * Runs `work` in one transaction on one pooled connection: COMMIT when it
 * resolves, ROLLBACK when it throws (for SQL written by hand, e.g. the outbox
 * claim and services/offers' repositories).
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

/**
 * The statements of a claim, run in its transaction: its settings, then the
 * due rows in commit order, locked, skipping rows another relay holds.
 * The claim's COMMIT does not wait for its WAL to reach the disk
 * (`synchronous_commit = off`, this transaction only): what it writes is the
 * publish mark of rows Kafka already holds, and a mark a crash of Postgres
 * loses within its WAL writer's delay (200 ms by default) only publishes
 * those rows again, which every consumer takes as a redelivery. The change
 * and its outbox row stay durable: they are the service's own transaction.
 * The claim reads an index in order, never a bitmap of it: every publish
 * mark leaves the row's old version behind until a vacuum, and a bitmap scan
 * visits each of them again at every claim (1.7 ms a claim behind 5,000 of
 * them), while an index scan marks the ones it found dead in the index and
 * skips them from then on (docs/benchmarks.md "Changes and their effect").
 * @param quoted the outbox table's name, quoted
 * @param limit most rows claimed (a whole number is inlined)
 * @returns three statements, `;`-separated: `SET LOCAL …; SET LOCAL …; SELECT … FOR UPDATE SKIP LOCKED`
 */
function outboxClaimSql(quoted: string, limit: number): string {
  return `SET LOCAL enable_bitmapscan = off; SET LOCAL synchronous_commit = off;
    SELECT id, topic, key, event_type AS "eventType", envelope, attempts, traceparent, tracestate
      FROM ${quoted}
     WHERE status IN ('pending', 'failed') AND next_attempt_at <= now()
     ORDER BY sequence
     LIMIT ${Math.max(0, Math.floor(limit))}
       FOR UPDATE SKIP LOCKED`;
}

/**
 * An {@link OutboxStore} over a Postgres table with the outbox layout.
 * @param pool the service's pg pool
 * @param table table name, default `outbox`
 */
export function postgresOutboxStore(pool: Pool, table = 'outbox'): OutboxStore {
  const quoted = `"${table.replaceAll('"', '""')}"`;
  return {
    async withClaim(limit, work) {
      // Two round trips a claim: BEGIN with the claim, then the publish mark with COMMIT (each a
      // simple query of several statements, so without parameters: the limit and the ids are
      // inlined).
      const client = await pool.connect();
      try {
        const [, , , claimed] = (await client.query(
          `BEGIN; ${outboxClaimSql(quoted, limit)}`,
        )) as unknown as [QueryResult, QueryResult, QueryResult, QueryResult<ClaimedOutboxRow>];
        const published: string[] = [];
        const result = await work(claimOf(client, quoted, claimed.rows, published));
        if (published.length === 0) await client.query('COMMIT');
        else if (published.every((id) => uuidPattern.test(id)))
          await client.query(`${markPublishedSql(quoted, `'{${published.join(',')}}'`)}; COMMIT`);
        else {
          await client.query(markPublishedSql(quoted, '$1'), [published]);
          await client.query('COMMIT');
        }
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async markPublished(ids) {
      if (ids.length === 0) return;
      const client = await pool.connect();
      try {
        if (ids.every((id) => uuidPattern.test(id)))
          await client.query(
            `BEGIN; SET LOCAL synchronous_commit = off; ${markPublishedSql(quoted, `'{${ids.join(',')}}'`)}; COMMIT`,
          );
        else {
          await client.query('BEGIN; SET LOCAL synchronous_commit = off');
          await client.query(markPublishedSql(quoted, '$1'), [ids]);
          await client.query('COMMIT');
        }
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    markFailed: (failures) => markFailedOn(pool, quoted, failures),
    async prunePublished(retentionMs, limit) {
      // Served by the partial index on published_at WHERE status = 'published'.
      const { rowCount } = await pool.query(
        `DELETE FROM ${quoted}
          WHERE id IN (SELECT id FROM ${quoted}
                        WHERE status = 'published'
                          AND published_at < now() - make_interval(secs => $1::double precision / 1000)
                        ORDER BY published_at
                        LIMIT $2)`,
        [retentionMs, limit],
      );
      return rowCount ?? 0;
    },
  };
}

/** What waits in an outbox: due or retried rows and how long the oldest has waited. */
export interface OutboxBacklog {
  /** Rows `pending` or `failed` (to be retried). */
  pending: number;
  /** Seconds since the oldest of them was written; 0 when none. */
  oldestPendingAgeSeconds: number;
}

/**
 * Reads an outbox's backlog (the metrics' `raly_outbox_pending` and
 * `raly_outbox_oldest_pending_age_seconds`, read at scrape time).
 * @param pool the service's pg pool
 * @param table table name, default `outbox`
 * @throws what the query throws (database down)
 */
export async function readOutboxBacklog(pool: Pool, table = 'outbox'): Promise<OutboxBacklog> {
  const quoted = `"${table.replaceAll('"', '""')}"`;
  const { rows } = await pool.query<{ pending: number; age: number | null }>(
    `SELECT count(*)::int AS pending,
            EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS age
       FROM ${quoted}
      WHERE status IN ('pending', 'failed')`,
  );
  return {
    pending: rows[0]?.pending ?? 0,
    oldestPendingAgeSeconds: Math.max(0, rows[0]?.age ?? 0),
  };
}

/** A uuid as Postgres writes one (the outbox's ids are read from its uuid column). */
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The statement marking rows published; `ids` is a uuid[] literal or a parameter. */
const markPublishedSql = (quoted: string, ids: string) =>
  `UPDATE ${quoted} SET status = 'published', published_at = now(), last_error = NULL
    WHERE id = ANY(${ids}::uuid[])`;

/**
 * The claim `withClaim` hands its work: the published ids are collected in
 * `published` and marked with the COMMIT; failures are marked at once.
 */
function claimOf(
  client: PoolClient,
  quoted: string,
  rows: ClaimedOutboxRow[],
  published: string[],
): OutboxClaim {
  return {
    rows,
    async markPublished(ids) {
      published.push(...ids);
    },
    markFailed: (failures) => markFailedOn(client, quoted, failures),
  };
}

/** Marks each failure on `client` (a claim's connection, or the pool): status, attempts, next attempt. */
async function markFailedOn(
  client: Pick<PoolClient, 'query'>,
  quoted: string,
  failures: OutboxFailure[],
): Promise<void> {
  for (const failure of failures) {
    await client.query(
      `UPDATE ${quoted} SET status = 'failed', attempts = $2, next_attempt_at = $3, last_error = $4
        WHERE id = $1`,
      [failure.id, failure.attempts, failure.nextAttemptAt, failure.error],
    );
  }
}
