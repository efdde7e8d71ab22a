/**
 * What one delivery costs Postgres, and what its inbox snapshot holds: the
 * round trips a delivery makes on the service's pg pool (counted on a second
 * pool over the service's database with the service's own repository),
 * pinned so that a change adding one shows here; the snapshot's unread count
 * and newest items, the ones the delivery added among them; and a fact
 * delivered again adding nothing, changing no inbox and recording no event;
 * and a message's delivery reading only its own conversation's unread item
 * on the statement's generic plan, however many conversations are unread.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { topics } from '@raly/contracts/events';
import type { InboxRecord } from '@raly/contracts/notifications';
import type { Database } from '@raly/service-kit/database';
import { createEventWriter, createPgEventWriter } from '@raly/service-kit/outbox';
import { recordStatements } from '@raly/test-support';
import { escapeLiteral } from 'pg';
import {
  deliveryStatement,
  inboxRepository,
  type InboxRepository,
  type NotificationDraft,
} from '../src/data-access/inbox-repository';
import { openNotificationsDatabase } from '../src/data-access/database';
import { inboxUpdatedEvent } from '../src/domain/events';
import type { PrismaClient } from '../src/generated/prisma/client';
import { useNotificationsSystem } from './support';

const harness = useNotificationsSystem();
let database: Database<PrismaClient>;
/** Every statement sent on `database`'s pool, in order (its SQL text). */
let statements: string[] = [];
let inboxes: InboxRepository;
/** The inbox snapshots each delivery recorded as events. */
let raised: InboxRecord[] = [];
const raise = (inbox: InboxRecord) => {
  raised.push(inbox);
  return inboxUpdatedEvent(inbox);
};

beforeAll(async () => {
  database = openNotificationsDatabase(harness.system.services.notifications!.env.DATABASE_URL!, {
    poolMax: 2,
  });
  statements = recordStatements(database.pool);
  // The relay of the running service publishes what these deliveries record.
  const relay = { wake() {} };
  inboxes = inboxRepository(
    database.prisma,
    createEventWriter({ prisma: database.prisma, relay }),
    createPgEventWriter({ pool: database.pool, relay }),
  );
});

afterAll(async () => {
  await database?.close();
});

/** A message's item for `recipientId` (the message's id names the fact). */
const aMessageDraft = (recipientId: string, messageId = randomUUID()): NotificationDraft => ({
  recipientId,
  kind: 'message_received',
  source: {
    fromTopic: topics.collaborationsMessage,
    aggregateId: messageId,
    version: 1,
    occurrence: 'sent',
  },
  offerId: randomUUID(),
  applicationId: null,
  collaborationId: randomUUID(),
  title: 'Spring launch',
  counterpart: 'lena.creates',
});

/** Runs a delivery with the statements and snapshots it sent and recorded. */
async function delivered(drafts: NotificationDraft[]) {
  statements.length = 0;
  raised = [];
  const added = await inboxes.deliver(drafts, raise);
  return { added, sent: [...statements], snapshots: [...raised] };
}

describe('statements per delivery', () => {
  test('when a message is delivered to a person, then it is three round trips and the snapshot lists the new item first', async () => {
    // Arrange
    const personId = randomUUID();
    const first = await delivered([aMessageDraft(personId)]);

    // Act
    const second = await delivered([aMessageDraft(personId)]);

    // Assert
    for (const delivery of [first, second]) {
      assert.equal(delivery.added, 1);
      assert.equal(delivery.sent.length, 3, JSON.stringify(delivery.sent));
      assert.equal(delivery.sent[0], 'BEGIN');
      assert.match(delivery.sent[1]!, /INSERT INTO notifications[\s\S]*INSERT INTO inboxes/);
      assert.match(delivery.sent[2]!, /^INSERT INTO "outbox"[\s\S]*; COMMIT$/);
    }
    const page = await inboxes.page(personId, { limit: 10 });
    const [newest, older] = page.items.map((item) => item.id);
    assert.deepEqual(
      first.snapshots.map(({ version, unread, latest }) => ({ version, unread, latest })),
      [{ version: 1, unread: 1, latest: [older] }],
    );
    assert.deepEqual(
      second.snapshots.map(({ version, unread, latest }) => ({ version, unread, latest })),
      [{ version: 2, unread: 2, latest: [newest, older] }],
    );
  });

  test('when a fact is delivered again, then nothing is added, no inbox changes and no event is recorded', async () => {
    // Arrange
    const personId = randomUUID();
    const draft = aMessageDraft(personId);
    await delivered([draft]);

    // Act
    const again = await delivered([draft]);

    // Assert
    assert.equal(again.added, 0);
    assert.deepEqual(again.snapshots, []);
    assert.equal(again.sent.length, 3, JSON.stringify(again.sent));
    assert.equal(again.sent[2], 'COMMIT');
    assert.equal((await inboxes.inbox(personId)).version, 1);
  });

  test('when one delivery reaches two people, then each inbox gets its own snapshot, in the order of the people', async () => {
    // Arrange
    const people = [randomUUID(), randomUUID()].sort();

    // Act
    const delivery = await delivered(people.map((personId) => aMessageDraft(personId)));

    // Assert
    assert.equal(delivery.added, 2);
    assert.deepEqual(
      delivery.snapshots.map(({ id, version, unread, latest }) => [
        id,
        version,
        unread,
        latest.length,
      ]),
      people.map((personId) => [personId, 1, 1, 1]),
    );
  });
});

/** A parameter's array as an untyped SQL literal (`'{"a",NULL}'`), coerced to the parameter's type. */
const arrayLiteral = (items: unknown[]) =>
  escapeLiteral(
    `{${items
      .map((item) =>
        item === null || item === undefined
          ? 'NULL'
          : `"${String(item).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`,
      )
      .join(',')}}`,
  );

/** Rows each node of a plan read of `relation` (actual rows × loops), summed over the plan. */
function rowsReadOf(plan: Record<string, unknown>, relation: string): number {
  const own =
    plan['Relation Name'] === relation
      ? Number(plan['Actual Rows']) * Number(plan['Actual Loops'])
      : 0;
  const children = (plan.Plans as Record<string, unknown>[] | undefined) ?? [];
  return children.reduce((sum, child) => sum + rowsReadOf(child, relation), own);
}

describe('the plan of a delivery', () => {
  test('when a person has many unread conversations, then a message delivered to them reads only its own conversation’s unread item, on the generic plan too', async () => {
    // Arrange: 200 unread conversations, and a message in one of them
    const personId = randomUUID();
    const drafts = Array.from({ length: 200 }, () => aMessageDraft(personId));
    await delivered(drafts);
    const next = { ...aMessageDraft(personId), collaborationId: drafts[7]!.collaborationId };
    const { text, values } = deliveryStatement([next]);

    // Act: the statement as a prepared one runs after a few calls, planned for any parameters
    const client = await database.pool.connect();
    let plan: Record<string, unknown>;
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL plan_cache_mode = force_generic_plan');
      await client.query(`PREPARE delivery_probe AS ${text}`);
      const explained = await client.query<{ 'QUERY PLAN': { Plan: Record<string, unknown> }[] }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE delivery_probe(${values.map((column) => arrayLiteral(column as unknown[])).join(', ')})`,
      );
      plan = explained.rows[0]!['QUERY PLAN'][0]!.Plan;
    } finally {
      await client.query('ROLLBACK');
      await client.query('DEALLOCATE ALL');
      client.release();
    }

    // Assert: the unread item of that conversation found (nothing added), few rows read for it
    assert.equal(rowsReadOf(plan, 'notifications') <= 12, true, JSON.stringify(plan));
    assert.equal((await inboxes.inbox(personId)).unread, 200);
  });
});
