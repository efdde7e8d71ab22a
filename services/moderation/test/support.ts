/**
 * Helpers of the moderation tests only: the moderation service started on a fresh database and
 * consumer group (after the audit and report topics and the realm's service clients exist), audit
 * entries published as identity-profile and brand publish them, waiting until the service handled
 * them, the audit log and reports called as the BFF, and their rows read directly.
 */
import { randomUUID } from 'node:crypto';
import type { AuditEntry, AuditPage, StaffActor } from '@raly/contracts/audit';
import type { ReportPage, ReportRecord } from '@raly/contracts/reports';
import { deadLetterTopic } from '@raly/contracts/envelope';
import { eventTypes, topics } from '@raly/contracts/events';
import {
  callApi,
  uniqueToken,
  connectTestKafka,
  ensureRealmServiceClients,
  ensureTopics,
  serviceTokenOf,
  testStack,
  type ApiBody,
  type JsonAnswer,
  type ServiceCaller,
  type TestStack,
} from '@raly/test-support';
import { startService, type RunningService } from '@raly/test-support/system';
import { afterAll, beforeAll } from 'vitest';

/** What {@link useModerationService} fills in before the file's tests run. */
export interface ModerationHarness {
  stack: TestStack;
  service: RunningService;
}

/** The audit topics moderation consumes. */
export const auditTopics = [topics.identityAudit, topics.brandAudit];

/** The topics moderation publishes on. */
export const moderationTopics = [topics.moderationReport, topics.moderationAudit];

/**
 * Registers the hooks that start the moderation service for one test file (its consumer group
 * starts at the topics' end) and stop it, dropping its database.
 */
export function useModerationService(): ModerationHarness {
  const harness = {} as ModerationHarness;
  beforeAll(async () => {
    harness.stack = await testStack();
    await ensureTopics(harness.stack.kafkaBrokers, [
      ...auditTopics,
      ...auditTopics.map(deadLetterTopic),
      ...moderationTopics,
      ...moderationTopics.map(deadLetterTopic),
    ]);
    // A Keycloak imported before raly-moderation-service existed issues the BFF no token for it.
    await ensureRealmServiceClients(harness.stack);
    harness.service = await startService('moderation', { stack: harness.stack });
  });
  afterAll(async () => {
    await harness.service?.stop();
  });
  return harness;
}

/** Who records an entry: identity-profile (creators) or brand (brands). */
export type Recorder = 'identity' | 'brand';

const topicOf = { identity: topics.identityAudit, brand: topics.brandAudit } as const;
const typeOf = {
  identity: eventTypes.identityAuditEntryRecorded,
  brand: eventTypes.brandAuditEntryRecorded,
} as const;

/** One message to publish on an audit topic. */
export interface AuditMessage {
  recorder: Recorder;
  /** The entry, or any value as the envelope's data (a poison message). */
  data: AuditEntry | unknown;
  /** The envelope's subject and the message key; default the entry's id. */
  key?: string;
  /** The envelope's id (the same to redeliver one); default a new one. */
  envelopeId?: string;
}

/** An entry as its recorder publishes it. */
export const recorded = (recorder: Recorder, entry: AuditEntry): AuditMessage => ({
  recorder,
  data: entry,
});

/**
 * Publishes each message in an envelope as the outbox relay does (`subject` the entry's id,
 * version 1), in order, and waits until the moderation service's group committed past each.
 * @returns the envelope ids, in order
 */
export async function publish(
  harness: ModerationHarness,
  ...messages: AuditMessage[]
): Promise<string[]> {
  const kafka = await connectTestKafka(harness.stack.kafkaBrokers);
  try {
    const positions = [];
    const envelopeIds = [];
    for (const message of messages) {
      const key = message.key ?? (message.data as { id: string }).id;
      const envelope = {
        id: message.envelopeId ?? randomUUID(),
        type: typeOf[message.recorder],
        source: `raly-test-${message.recorder}`,
        subject: key,
        time: new Date().toISOString(),
        version: 1,
        data: message.data,
      };
      envelopeIds.push(envelope.id);
      const topic = topicOf[message.recorder];
      positions.push({ topic, at: await kafka.produce(topic, key, JSON.stringify(envelope)) });
    }
    const groupId = harness.service.env.KAFKA_GROUP_ID!;
    for (const { topic, at } of positions) await kafka.waitUntilCommitted(groupId, topic, at);
    return envelopeIds;
  } finally {
    await kafka.close();
  }
}

/**
 * `GET /audit-entries` with `query` as the query string, as `caller` (default the BFF; null: no
 * token).
 */
export async function readAuditLog(
  harness: ModerationHarness,
  query: string | Record<string, string>,
  caller: ServiceCaller | null = 'bff',
) {
  const search = typeof query === 'string' ? query : new URLSearchParams(query).toString();
  return callApi<AuditPage>(harness.service.url, 'GET', `/audit-entries?${search}`, {
    serviceToken: caller ? serviceTokenOf(harness.stack, caller) : undefined,
  });
}

/**
 * Every page a list answers, following `nextBefore` until it is null.
 * @param read answers the page after the cursor (null: the first page)
 * @returns the pages in order
 * @throws Error when a page is not answered 200
 */
async function followPages<Page extends { nextBefore: string | null }>(
  read: (before: string | null) => Promise<JsonAnswer<ApiBody<Page>>>,
): Promise<Page[]> {
  const pages: Page[] = [];
  let before: string | null = null;
  do {
    const answer = await read(before);
    if (answer.status !== 200)
      throw new Error(`page ${pages.length + 1}: ${answer.status} ${JSON.stringify(answer.body)}`);
    pages.push(answer.body.data!);
    before = answer.body.data!.nextBefore;
  } while (before && pages.length < 100);
  return pages;
}

/**
 * Every page of the audit log for `query`, following `nextBefore` until it is null.
 * @returns the pages in order
 * @throws Error when a page is not answered 200
 */
export function allPages(
  harness: ModerationHarness,
  query: Record<string, string>,
): Promise<AuditPage[]> {
  return followPages((before) => readAuditLog(harness, before ? { ...query, before } : query));
}

/** One row of `audit_entries`, as stored. */
export interface AuditEntryRow {
  id: string;
  at: Date;
  staff_email: string;
  action: string;
  target_label: string;
  event_id: string;
  topic: string;
}

/** The rows of the entry `id` (direct SQL). */
export async function rowsOf(harness: ModerationHarness, id: string): Promise<AuditEntryRow[]> {
  const { rows } = await harness.service.sql.query<AuditEntryRow>(
    'SELECT * FROM audit_entries WHERE id = $1',
    [id],
  );
  return rows;
}

/** Entries sorted as the audit log answers them: newest first, then by id descending. */
export const newestFirst = (entries: AuditEntry[]): AuditEntry[] =>
  [...entries].sort((a, b) =>
    a.at === b.at ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : Date.parse(b.at) - Date.parse(a.at),
  );

/** A body of `POST /reports`: a new reporter reports a new offer for spam; `overrides` win. */
export function aReportCommand(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const token = uniqueToken();
  return {
    reporterUserId: randomUUID(),
    item: { kind: 'offer', id: randomUUID(), label: `Free followers ${token}` },
    accused: { kind: 'brand', id: randomUUID() },
    reason: 'spam',
    note: '',
    ...overrides,
  };
}

/** A staff member with a unique e-mail. */
export const aStaffMember = (): StaffActor => ({
  userId: randomUUID(),
  email: `moderator.${uniqueToken()}@raly.test`,
});

/** A report route called as `caller` (default the BFF; null: no token). */
export function callReports<Data = ReportRecord>(
  harness: ModerationHarness,
  method: string,
  path: string,
  body?: unknown,
  caller: ServiceCaller | null = 'bff',
) {
  return callApi<Data>(harness.service.url, method, path, {
    serviceToken: caller ? serviceTokenOf(harness.stack, caller) : undefined,
    body,
  });
}

/**
 * `POST /reports` with `body`, as the BFF.
 * @returns the report opened
 * @throws Error when the answer is not 201
 */
export async function openReport(
  harness: ModerationHarness,
  body: Record<string, unknown>,
): Promise<ReportRecord> {
  const answer = await callReports(harness, 'POST', '/reports', body);
  if (answer.status !== 201)
    throw new Error(`POST /reports: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data!;
}

/**
 * Every page of a report list (`path` with its query string), following `nextBefore`.
 * @returns the pages in order
 * @throws Error when a page is not answered 200
 */
export function allReportPages(harness: ModerationHarness, path: string): Promise<ReportPage[]> {
  const separator = path.includes('?') ? '&' : '?';
  return followPages((before) =>
    callReports<ReportPage>(harness, 'GET', before ? `${path}${separator}before=${before}` : path),
  );
}

/** The outbox rows of one key (an aggregate's events), oldest first (direct SQL). */
export async function outboxRowsOf(
  harness: ModerationHarness,
  key: string,
): Promise<{ topic: string; event_type: string }[]> {
  const { rows } = await harness.service.sql.query<{ topic: string; event_type: string }>(
    'SELECT topic, event_type FROM outbox WHERE key = $1 ORDER BY sequence',
    [key],
  );
  return rows;
}
