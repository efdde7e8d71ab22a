/**
 * The one way a service writes a change and its events: in one interactive
 * Prisma transaction, the change through the service's models (or its typed
 * raw queries, e.g. a `FOR UPDATE` row lock) and the outbox rows with one raw
 * INSERT, on the same connection; after the commit, the relay
 * is woken so the events leave at once instead of at its next poll.
 */
import type { OutboxRow } from './rows';

/** The part of a service's Prisma `outboxMessage` model the writer used to use (kept for callers' types). */
export interface OutboxMessageModel {
  createMany(args: { data: OutboxRow[] }): PromiseLike<unknown>;
}

/**
 * A transaction client that can record events: any generated client whose
 * schema has `OutboxMessage` (the `outbox` table of the kit's migrations);
 * the rows are inserted with its `$executeRawUnsafe`.
 */
export interface OutboxTransactionClient {
  $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<number>;
}

/** The columns the writer fills (the rest keep their defaults: pending, no attempt yet). */
const outboxColumns = 'id, topic, key, event_type, envelope, traceparent, tracestate';

/**
 * The INSERT of `count` outbox rows, 7 parameters a row (a statement of raw
 * SQL: Prisma compiled `createMany` anew for every call, its data never hit
 * its plan cache).
 */
function insertOutboxSql(count: number): string {
  const rows = Array.from({ length: count }, (_, index) => {
    const at = index * 7;
    return `($${at + 1}::uuid, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}::jsonb, $${at + 6}, $${at + 7})`;
  });
  return `INSERT INTO "outbox" (${outboxColumns}) VALUES ${rows.join(', ')}`;
}

/** The options of Prisma's interactive transaction (times in ms). */
export interface EventTransactionOptions {
  maxWait?: number;
  timeout?: number;
  isolationLevel?: 'ReadUncommitted' | 'ReadCommitted' | 'RepeatableRead' | 'Serializable';
}

/** The part of a service's PrismaClient the writer uses: its interactive `$transaction`. */
export interface InteractiveTransactions<Tx> {
  $transaction<R>(work: (tx: Tx) => Promise<R>, options?: EventTransactionOptions): Promise<R>;
}

/**
 * Records events in the transaction it was handed with: inserts the rows
 * (one statement, whatever their number) and, once the transaction commits,
 * wakes the relay. Recording nothing (no rows) is allowed and writes nothing.
 */
export type RecordEvents = (...rows: OutboxRow[]) => Promise<void>;

/** A service's writer of changes with their events (build one in `app.ts`). */
export interface EventWriter<Tx> {
  /**
   * Runs `work` in one interactive Prisma transaction and hands it `record`
   * for the change's events.
   * @returns what `work` returned, once committed; the relay is woken after
   *   the commit when `work` recorded a row
   * @throws what `work` or the database threw; the transaction is rolled back,
   *   no row is written and the relay is not woken
   */
  transaction<R>(
    work: (tx: Tx, record: RecordEvents) => Promise<R>,
    options?: EventTransactionOptions,
  ): Promise<R>;
}

/**
 * The event writer of one service.
 * @param parts `prisma`: the service's PrismaClient (its schema holds the
 *   `OutboxMessage` model of the kit's outbox migrations); `relay`: the
 *   service's outbox relay (./relay), woken after a commit that recorded events
 * @example
 * const events = createEventWriter({ prisma: database.prisma, relay });
 * const user = await events.transaction(async (tx, record) => {
 *   const [locked] = await tx.$queryRaw<{ version: number }[]>`SELECT version FROM users WHERE id = ${id} FOR UPDATE`;
 *   const row = await tx.user.update({ where: { id }, data: { ...changes, version: { increment: 1 } } });
 *   await record(raiseEvent(toUserRecord(row)));
 *   return row;
 * });
 */
export function createEventWriter<Tx extends OutboxTransactionClient>(parts: {
  prisma: InteractiveTransactions<Tx>;
  relay: { wake(): void };
}): EventWriter<Tx> {
  const { prisma, relay } = parts;
  return {
    async transaction(work, options) {
      let recorded = 0;
      const result = await prisma.$transaction(async (tx) => {
        const record: RecordEvents = async (...rows) => {
          if (rows.length === 0) return;
          // One INSERT without RETURNING, one round trip for any number of rows.
          await tx.$executeRawUnsafe(
            insertOutboxSql(rows.length),
            ...rows.flatMap((row) => [
              row.id,
              row.topic,
              row.key,
              row.eventType,
              JSON.stringify(row.envelope),
              row.traceparent ?? null,
              row.tracestate ?? null,
            ]),
          );
          recorded += rows.length;
        };
        return work(tx, record);
      }, options);
      if (recorded > 0) relay.wake();
      return result;
    },
  };
}

/** A transaction client whose `outboxMessage` model can delete rows (a generated client's can). */
export interface OutboxWithdrawingClient {
  outboxMessage: {
    deleteMany(args: { where: { key: string; status: 'pending' } }): PromiseLike<unknown>;
  };
}

/**
 * Deletes an aggregate's events not yet published, in the caller's
 * transaction: a compensation that undoes a creation also takes back the
 * events the creation recorded (rows already published are kept; their
 * consumers see the compensation's own effect).
 * @param tx the transaction client (`events.transaction`'s or `prisma.$transaction`'s)
 * @param key the aggregate id (the rows' Kafka key)
 */
export async function withdrawPendingEvents(
  tx: OutboxWithdrawingClient,
  key: string,
): Promise<void> {
  await tx.outboxMessage.deleteMany({ where: { key, status: 'pending' } });
}
