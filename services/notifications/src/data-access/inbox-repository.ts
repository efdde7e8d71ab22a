/**
 * Inboxes and their items. Every change to a person's inbox (items added,
 * one or all read) bumps its version and records its snapshot on
 * `notifications.inbox.v1` in the same transaction (the kit's outbox), keyed
 * by the person, so each person's snapshots leave in order. Items are unique
 * per (recipient, source topic, aggregate, occurrence): a fact delivered
 * again adds nothing and changes no inbox. A draft whose recipient turned the
 * in-app channel of its category off (./preferences) is left out, and so is
 * a message's draft while its recipient's item of an earlier message of the
 * same collaboration is unread (one item per conversation until read). A
 * delivery is one statement (`DELIVER_SQL`): on its own (a fact consumed)
 * through the kit's pg writer, or in a caller's Prisma transaction.
 */
import { randomUUID } from 'node:crypto';
import {
  emptyInbox,
  INBOX_LATEST_MAX,
  type InboxRecord,
  type Notification,
  type NotificationKind,
  type NotificationReport,
  type NotificationsPage,
  type NotificationsQuery,
} from '@raly/contracts/notifications';
import type { PgEventWriter, RaiseEvent, RecordEvents } from '@raly/service-kit/outbox';
import type { Notification as NotificationRow, PrismaClient } from '../generated/prisma/client';
import type { NotificationsEventWriter, Transaction } from './database';
import { categoryOfKindSql } from './preferences';

/** One item to add to one person's inbox, and the fact it tells of. */
export interface NotificationDraft {
  recipientId: string;
  kind: NotificationKind;
  /** Where the fact comes from; with the recipient, the item's identity. */
  source: { fromTopic: string; aggregateId: string; version: number; occurrence: string };
  offerId: string | null;
  applicationId: string | null;
  collaborationId: string | null;
  title: string;
  counterpart: string | null;
  /** A resolved report's item kind and outcome (`report_resolved` only; absent: null). */
  report?: NotificationReport | null;
}

export interface InboxRepository {
  /**
   * Adds the drafts not added before, but for recipients who turned the in-app channel of the
   * draft's category off, in one transaction, with the snapshot of every inbox that changed.
   * @returns how many items were added
   */
  deliver(drafts: NotificationDraft[], raise: RaiseEvent<InboxRecord>): Promise<number>;
  /** Like {@link deliver}, in the caller's transaction. */
  deliverIn(
    tx: Transaction,
    record: RecordEvents,
    drafts: NotificationDraft[],
    raise: RaiseEvent<InboxRecord>,
  ): Promise<number>;
  /** A person's items, newest first, one page, with their inbox. */
  page(personId: string, query: NotificationsQuery): Promise<NotificationsPage>;
  /** A person's inbox (version 0 when nothing was ever added). */
  inbox(personId: string): Promise<InboxRecord>;
  /**
   * Marks one of the person's items read.
   * @returns the inbox after it, or null when the person has no such item
   */
  markRead(
    personId: string,
    notificationId: string,
    raise: RaiseEvent<InboxRecord>,
  ): Promise<InboxRecord | null>;
  /** Marks all of the person's items read. @returns the inbox after it */
  markAllRead(personId: string, raise: RaiseEvent<InboxRecord>): Promise<InboxRecord>;
}

/** The report fields of an item row (both set, or neither: the table checks it). */
const reportOf = (row: NotificationRow): NotificationReport | null =>
  row.reportItemKind !== null && row.reportOutcome !== null
    ? {
        itemKind: row.reportItemKind as NotificationReport['itemKind'],
        outcome: row.reportOutcome as NotificationReport['outcome'],
      }
    : null;

/** An item row as its contract shape. */
export function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    kind: row.kind,
    offerId: row.offerId,
    applicationId: row.applicationId,
    collaborationId: row.collaborationId,
    title: row.title,
    counterpart: row.counterpart,
    report: reportOf(row),
    read: row.readAt !== null,
    created: row.created.toISOString(),
  };
}

interface InboxRow {
  person_id: string;
  version: number;
  unread: number;
  updated: Date;
  latest: string[];
}

const toInboxRecord = (row: InboxRow): InboxRecord => ({
  id: row.person_id,
  version: row.version,
  unread: row.unread,
  latest: row.latest,
  updated: row.updated.toISOString(),
});

/** The inboxes of `people`, sorted by person, with the ids of their newest items. */
async function inboxesOf(tx: Transaction | PrismaClient, people: string[]): Promise<InboxRow[]> {
  return tx.$queryRaw<InboxRow[]>`
    SELECT i.person_id, i.version, i.unread, i.updated,
           ARRAY(SELECT n.id::text FROM notifications n WHERE n.recipient_id = i.person_id
                 ORDER BY n.sequence DESC LIMIT ${INBOX_LATEST_MAX}) AS latest
    FROM inboxes i WHERE i.person_id = ANY(${people}::text[]) ORDER BY i.person_id`;
}

/**
 * Locks a person's inbox row, so its changes go one at a time.
 * @returns false when the person has no inbox (no item was ever added for them)
 */
async function lockInbox(tx: Transaction, personId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`
    SELECT 1 FROM inboxes WHERE person_id = ${personId} FOR UPDATE`;
  return rows.length > 0;
}

/**
 * Counts the person's unread items again and bumps the inbox's version, in a
 * transaction that holds its row lock ({@link lockInbox}).
 */
async function recountInbox(tx: Transaction, personId: string): Promise<InboxRecord> {
  await tx.$executeRaw`
    UPDATE inboxes SET version = version + 1, updated = now(),
      unread = (SELECT count(*) FROM notifications
                WHERE recipient_id = ${personId} AND read_at IS NULL)
    WHERE person_id = ${personId}`;
  const [row] = await inboxesOf(tx, [personId]);
  return toInboxRecord(row!);
}

/** The columns of a delivery's drafts, one array per column (the parameters of {@link DELIVER_SQL}). */
function draftColumns(drafts: NotificationDraft[]): unknown[] {
  const column = <T>(pick: (draft: NotificationDraft) => T) => drafts.map(pick);
  return [
    column(() => randomUUID()),
    column((draft) => draft.recipientId),
    column((draft) => draft.kind),
    column((draft) => draft.source.fromTopic),
    column((draft) => draft.source.aggregateId),
    column((draft) => draft.source.version),
    column((draft) => draft.source.occurrence),
    column((draft) => draft.offerId),
    column((draft) => draft.applicationId),
    column((draft) => draft.collaborationId),
    column((draft) => draft.title),
    column((draft) => draft.counterpart),
    column((draft) => draft.report?.itemKind ?? null),
    column((draft) => draft.report?.outcome ?? null),
  ];
}

/**
 * A whole delivery in one statement ({@link InboxRepository.deliver}): the
 * items not added before (nor turned off), then every inbox that gained some,
 * created or bumped in the order of its person (two deliveries lock shared
 * inboxes in the same order), each with the ids of its newest items. The
 * statement reads the items as they were before it, so the ones it adds are
 * taken from its own INSERT. Parameters: {@link draftColumns}.
 * @returns per changed inbox: its row, with `added` items
 */
const DELIVER_SQL = `
  WITH drafts AS (
    SELECT * FROM unnest($1::uuid[], $2::text[], $3::"NotificationKind"[], $4::text[], $5::text[],
                         $6::int[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[],
                         $12::text[], $13::text[], $14::text[])
      AS t(id, recipient_id, kind, source_topic, aggregate_id, aggregate_version, occurrence,
           offer_id, application_id, collaboration_id, title, counterpart,
           report_item_kind, report_outcome)
  ), added AS (
    INSERT INTO notifications (id, recipient_id, kind, source_topic, aggregate_id,
      aggregate_version, occurrence, offer_id, application_id, collaboration_id, title, counterpart,
      report_item_kind, report_outcome)
    SELECT t.* FROM drafts t
    -- A conversation tells its recipient once until they read it: while their item of an
    -- earlier message of the collaboration is unread, a new message adds none. Looked up per
    -- draft by recipient and collaboration (a LATERAL with LIMIT is run per row): as an EXISTS
    -- in the WHERE, the statement's generic plan hashed every unread message item of every
    -- person at each delivery.
    LEFT JOIN LATERAL (
      SELECT true AS unread FROM notifications u
      WHERE t.kind = 'message_received' AND u.recipient_id = t.recipient_id
        AND u.kind = 'message_received' AND u.collaboration_id = t.collaboration_id
        AND u.read_at IS NULL
      LIMIT 1) earlier ON true
    -- A person who turned the in-app channel of the item's category off gets no item.
    WHERE NOT EXISTS (
      SELECT 1 FROM notification_preferences o
      WHERE o.person_id = t.recipient_id AND o.channel = 'in_app'
        AND o.category::text = ${categoryOfKindSql('t.kind').sql})
    AND earlier.unread IS NULL
    ON CONFLICT (recipient_id, source_topic, aggregate_id, occurrence) DO NOTHING
    RETURNING id, recipient_id, sequence
  ), counts AS (
    SELECT recipient_id AS person_id, count(*)::int AS added FROM added GROUP BY recipient_id
  ), changed AS (
    INSERT INTO inboxes (person_id, version, unread, updated)
    SELECT person_id, 1, added, now() FROM counts ORDER BY person_id
    ON CONFLICT (person_id) DO UPDATE SET version = inboxes.version + 1,
      unread = inboxes.unread + EXCLUDED.unread, updated = now()
    RETURNING person_id, version, unread, updated
  )
  SELECT i.person_id, i.version, i.unread, i.updated, c.added,
         ARRAY(SELECT l.id::text FROM (
                 SELECT a.id, a.sequence FROM added a WHERE a.recipient_id = i.person_id
                 UNION ALL
                 (SELECT n.id, n.sequence FROM notifications n WHERE n.recipient_id = i.person_id
                  ORDER BY n.sequence DESC LIMIT ${INBOX_LATEST_MAX})
               ) l ORDER BY l.sequence DESC LIMIT ${INBOX_LATEST_MAX}) AS latest
  FROM changed i JOIN counts c USING (person_id)
  ORDER BY i.person_id`;

/**
 * The statement of a delivery of `drafts` ({@link DELIVER_SQL}), as the
 * repository sends it (for a test of its plan).
 * @returns its SQL text and parameters
 */
export function deliveryStatement(drafts: NotificationDraft[]): {
  text: string;
  values: unknown[];
} {
  return { text: DELIVER_SQL, values: draftColumns(drafts) };
}

/** An inbox a delivery changed ({@link DELIVER_SQL}), with how many items it gained. */
type DeliveredInbox = InboxRow & { added: number };

/** The items a delivery added, over the inboxes it changed. */
const addedIn = (rows: DeliveredInbox[]) => rows.reduce((sum, row) => sum + row.added, 0);

/**
 * @param prisma this service's client (reads)
 * @param events the kit's writer over it (changes and their events in one transaction)
 * @param deliveries the kit's plain-SQL writer over the service's pg pool ({@link DELIVER_SQL})
 */
export function inboxRepository(
  prisma: PrismaClient,
  events: NotificationsEventWriter,
  deliveries: PgEventWriter,
): InboxRepository {
  // One statement on either connection: a caller's Prisma transaction, or the pg writer's own.
  const deliverIn: InboxRepository['deliverIn'] = async (tx, record, drafts, raise) => {
    if (drafts.length === 0) return 0;
    const rows = await tx.$queryRawUnsafe<DeliveredInbox[]>(DELIVER_SQL, ...draftColumns(drafts));
    if (rows.length > 0) await record(...rows.map((row) => raise(toInboxRecord(row))));
    return addedIn(rows);
  };

  const inbox = async (personId: string): Promise<InboxRecord> => {
    const [row] = await inboxesOf(prisma, [personId]);
    return row ? toInboxRecord(row) : emptyInbox(personId);
  };

  return {
    deliverIn,
    deliver: (drafts, raise) =>
      drafts.length === 0
        ? Promise.resolve(0)
        : deliveries.transaction(async (tx, record) => {
            const { rows } = await tx.query<DeliveredInbox>({
              name: 'deliver-notifications',
              text: DELIVER_SQL,
              values: draftColumns(drafts),
            });
            if (rows.length > 0) record(...rows.map((row) => raise(toInboxRecord(row))));
            return addedIn(rows);
          }),
    inbox,
    async page(personId, query) {
      const rows = await prisma.notification.findMany({
        where: {
          recipientId: personId,
          ...(query.cursor ? { sequence: { lt: BigInt(query.cursor) } } : {}),
        },
        orderBy: { sequence: 'desc' },
        take: query.limit + 1,
      });
      const items = rows.slice(0, query.limit);
      return {
        items: items.map(toNotification),
        nextCursor: rows.length > query.limit ? String(items.at(-1)!.sequence) : null,
        inbox: await inbox(personId),
      };
    },
    markRead: (personId, notificationId, raise) =>
      events.transaction(async (tx, record) => {
        if (!(await lockInbox(tx, personId))) return null;
        const changed = await tx.$executeRaw`
          UPDATE notifications SET read_at = now()
          WHERE id = ${notificationId}::uuid AND recipient_id = ${personId} AND read_at IS NULL`;
        if (changed === 0) {
          const mine = await tx.notification.count({
            where: { id: notificationId, recipientId: personId },
          });
          return mine === 0 ? null : toInboxRecord((await inboxesOf(tx, [personId]))[0]!);
        }
        const changedInbox = await recountInbox(tx, personId);
        await record(raise(changedInbox));
        return changedInbox;
      }),
    markAllRead: (personId, raise) =>
      events.transaction(async (tx, record) => {
        if (!(await lockInbox(tx, personId))) return emptyInbox(personId);
        const changed = await tx.$executeRaw`
          UPDATE notifications SET read_at = now()
          WHERE recipient_id = ${personId} AND read_at IS NULL`;
        if (changed === 0) return toInboxRecord((await inboxesOf(tx, [personId]))[0]!);
        const changedInbox = await recountInbox(tx, personId);
        await record(raise(changedInbox));
        return changedInbox;
      }),
  };
}
