/** Where offers records its integration events: the one place it writes outbox rows. */
import type { OutboxRow } from '@raly/service-kit/outbox';
import type { Transaction } from './database';

/** Inserts the events' outbox rows in `tx`, the transaction of the change they tell. */
export async function recordEvents(tx: Transaction, rows: OutboxRow[]): Promise<void> {
  await tx.outboxMessage.createMany({ data: rows });
}
