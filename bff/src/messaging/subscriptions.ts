/**
 * Everything the BFF subscribes to, one line per event type and handler.
 * Each handler is the projector of one event: it hands the record snapshot
 * to `applySnapshot` (docs/adr/0007), which stores and pushes it only when
 * it is newer — a snapshot a command answer already applied is ignored. The
 * kit's consumer runner dead-letters poison messages to `<topic>.dlq`; it
 * asks {@link appliedVersions} first, so a version this instance already
 * applied is skipped before its envelope is even checked, and it handles
 * many aggregates of a batch at once ({@link PROJECTOR_CONCURRENCY}), so
 * their Redis writes leave in one pipeline (the client auto-pipelines).
 * A collaboration's message is no snapshot to keep: it is pushed to the
 * parties of its collaboration as the read model knows it (`pushMessage`),
 * and the collaboration's snapshot it was counted on is stored, not pushed
 * (the tabs count the message on the record they hold).
 * Nor is a report (`moderation.report.v1`): the read model keeps none, each
 * snapshot goes to the staff console's moderators (`pushReport`, the live
 * server's namespace `/console`, docs/console.md "Reports in the browser").
 */
import {
  collaborationMessageRecordSchema,
  collaborationRecordSchema,
  type CollaborationMessageRecord,
} from '@raly/contracts/collaborations';
import { eventTypes, topics, type Envelope } from '@raly/contracts/events';
import { inboxRecordSchema } from '@raly/contracts/notifications';
import { applicationRecordSchema, offerRecordSchema } from '@raly/contracts/offers';
import { brandRecordSchema, userRecordSchema } from '@raly/contracts/records';
import { reportRecordSchema, type ReportRecord } from '@raly/contracts/reports';
import { teamRecordSchema } from '@raly/contracts/teams';
import { on, PoisonEventError, type Subscription } from '@raly/service-kit/consumer';
import type { AggregateKind, RecordByKind } from '../data-access/read-model';
import type { RecordStore } from '../domain/record-store';
import type { LiveMetrics } from '../observability/live-metrics';

/**
 * Refuses an event whose envelope and record disagree: it can never be handled.
 * @throws PoisonEventError when the subject is not the record's id or the versions differ
 */
function assertEnvelopeOf(event: Envelope<{ id: string; version: number }>): void {
  if (event.data.id !== event.subject)
    throw new PoisonEventError('envelope subject and record id differ');
  if (event.data.version !== event.version)
    throw new PoisonEventError('envelope version and record version differ');
}

/**
 * Projects an event's snapshot through `applySnapshot`.
 * @throws PoisonEventError when the envelope and its record disagree (subject/version): dead-lettered at once
 */
const projectSnapshot =
  <K extends AggregateKind>(records: RecordStore, kind: K, live?: LiveMetrics) =>
  async (event: Envelope<RecordByKind[K]>): Promise<void> => {
    assertEnvelopeOf(event);
    if (await records.applySnapshot(kind, event.data)) live?.pushedFromEvent(kind, event.time);
  };

/**
 * Stores an event's snapshot through `applySnapshot` without pushing it: a collaboration a
 * message was counted on (`collaborations.collaboration.conversation-updated`), which the
 * tabs count from the message's push (its `collaborationVersion`).
 * @throws PoisonEventError when the envelope and its record disagree (subject/version): dead-lettered at once
 */
const storeSnapshot =
  <K extends AggregateKind>(records: RecordStore, kind: K) =>
  async (event: Envelope<RecordByKind[K]>): Promise<void> => {
    assertEnvelopeOf(event);
    await records.applySnapshot(kind, event.data, { push: false });
  };

/**
 * Pushes a message event's record to its collaboration's parties (subject:
 * the message's id, so the runner's newest-per-aggregate never drops one).
 * @throws PoisonEventError when the envelope and its record disagree: dead-lettered at once
 */
const pushMessage =
  (records: RecordStore, live?: LiveMetrics) =>
  async (event: Envelope<CollaborationMessageRecord>): Promise<void> => {
    assertEnvelopeOf(event);
    if (await records.pushMessage(event.data)) live?.pushedFromEvent('message', event.time);
  };

/**
 * Pushes a report event's record to the staff console (subject: the report's id).
 * @param push the live server's `pushReport` (false: not emitted, a version already pushed)
 * @throws PoisonEventError when the envelope and its record disagree: dead-lettered at once
 */
const pushReport =
  (push: ReportPush, live?: LiveMetrics) =>
  async (event: Envelope<ReportRecord>): Promise<void> => {
    assertEnvelopeOf(event);
    if (push(event.data)) live?.pushedFromEvent('report', event.time);
  };

/** Where a report snapshot goes: the console's moderators; true when it was emitted. */
export type ReportPush = (report: ReportRecord) => boolean;

/** The aggregate kind each projected topic carries. */
const kindOfTopic: Record<string, AggregateKind> = {
  [topics.identityUser]: 'user',
  [topics.brandBrand]: 'brand',
  [topics.brandTeam]: 'team',
  [topics.offersOffer]: 'offer',
  [topics.offersApplication]: 'application',
  [topics.collaborationsCollaboration]: 'collaboration',
  [topics.notificationsInbox]: 'inbox',
};

/**
 * How many aggregates of one Kafka batch the projector handles at once
 * (each aggregate's events stay in order): their version-checked writes go
 * to Redis together.
 */
export const PROJECTOR_CONCURRENCY = 512;

/** How many partitions' batches the projector handles at once (each partition stays in order). */
export const PROJECTOR_PARTITIONS_CONCURRENCY = 4;

/**
 * The consumer runner's `isApplied` pre-check: the record store's memory of
 * the versions it applied, by topic.
 * @returns true when the event's version is known applied (skip it unparsed)
 */
export const appliedVersions =
  (records: RecordStore) =>
  (topic: string, subject: string, version: number): boolean => {
    const kind = kindOfTopic[topic];
    return kind !== undefined && records.isApplied(kind, subject, version);
  };

/**
 * @param records the read model and its one writer, `applySnapshot`
 * @param live where the delay of each pushed snapshot is recorded (event time → emit)
 * @param reports where report snapshots go (none pushed without it)
 */
export function subscriptions(
  records: RecordStore,
  live?: LiveMetrics,
  reports: ReportPush = () => false,
): Subscription[] {
  const project = <K extends AggregateKind>(kind: K) => projectSnapshot(records, kind, live);
  return [
    on(topics.identityUser, eventTypes.userCreated, userRecordSchema, project('user')),
    on(topics.identityUser, eventTypes.userUpdated, userRecordSchema, project('user')),
    on(topics.brandBrand, eventTypes.brandCreated, brandRecordSchema, project('brand')),
    on(topics.brandBrand, eventTypes.brandUpdated, brandRecordSchema, project('brand')),
    on(topics.brandTeam, eventTypes.teamUpdated, teamRecordSchema, project('team')),
    on(topics.offersOffer, eventTypes.offerCreated, offerRecordSchema, project('offer')),
    on(topics.offersOffer, eventTypes.offerUpdated, offerRecordSchema, project('offer')),
    on(
      topics.offersApplication,
      eventTypes.applicationCreated,
      applicationRecordSchema,
      project('application'),
    ),
    on(
      topics.offersApplication,
      eventTypes.applicationUpdated,
      applicationRecordSchema,
      project('application'),
    ),
    on(
      topics.collaborationsCollaboration,
      eventTypes.collaborationOpened,
      collaborationRecordSchema,
      project('collaboration'),
    ),
    on(
      topics.collaborationsCollaboration,
      eventTypes.collaborationUpdated,
      collaborationRecordSchema,
      project('collaboration'),
    ),
    on(
      topics.collaborationsCollaboration,
      eventTypes.collaborationConversationUpdated,
      collaborationRecordSchema,
      storeSnapshot(records, 'collaboration'),
    ),
    on(
      topics.collaborationsCollaboration,
      eventTypes.collaborationSeenMarked,
      collaborationRecordSchema,
      project('collaboration'),
    ),
    on(
      topics.collaborationsMessage,
      eventTypes.messageSent,
      collaborationMessageRecordSchema,
      pushMessage(records, live),
    ),
    on(topics.notificationsInbox, eventTypes.inboxUpdated, inboxRecordSchema, project('inbox')),
    on(
      topics.moderationReport,
      eventTypes.reportOpened,
      reportRecordSchema,
      pushReport(reports, live),
    ),
    on(
      topics.moderationReport,
      eventTypes.reportUpdated,
      reportRecordSchema,
      pushReport(reports, live),
    ),
  ];
}
