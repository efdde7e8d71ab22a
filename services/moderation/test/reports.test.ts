/**
 * Reports: the BFF opens a report for a person (one per person and item, whatever the
 * concurrency) and its snapshot is published; bad bodies answer 400 with the rule's words; staff
 * read the open queue oldest first and the resolved reports newest first, a page at a time; a
 * reporter reads their own; resolving a report once updates it, publishes it and records the
 * staff action in the audit log and on moderation.audit.v1; only the BFF may call.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AuditEntry, AuditPage } from '@raly/contracts/audit';
import { eventTypes, topics } from '@raly/contracts/events';
import { messages } from '@raly/contracts/messages';
import { REPORT_PAGE_SIZE, type ReportPage, type ReportRecord } from '@raly/contracts/reports';
import { listenToTopic, type TopicListener } from '@raly/test-support';
import type { KafkaMessage } from 'kafkajs';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  aReportCommand,
  aStaffMember,
  allReportPages,
  callReports,
  openReport,
  outboxRowsOf,
  readAuditLog,
  useModerationService,
} from './support';

const harness = useModerationService();
let reportEvents: TopicListener;
let auditEvents: TopicListener;

beforeAll(async () => {
  reportEvents = await listenToTopic(harness.stack.kafkaBrokers, topics.moderationReport);
  auditEvents = await listenToTopic(harness.stack.kafkaBrokers, topics.moderationAudit);
});

afterAll(async () => {
  await reportEvents?.stop();
  await auditEvents?.stop();
});

/** The envelope of a Kafka message. */
const envelopeOf = <Data>(message: KafkaMessage) =>
  JSON.parse(message.value!.toString()) as { type: string; version: number; data: Data };

/** Waits for the event of `type` about `key` on a topic. */
const eventOf = <Data>(listener: TopicListener, key: string, type: string) =>
  listener
    .waitFor((message) => message.key?.toString() === key && envelopeOf(message).type === type)
    .then((message) => envelopeOf<Data>(message));

/** Reports in the open queue's order: oldest first, then by id. */
const oldestFirst = (reports: ReportRecord[]) =>
  [...reports].sort((a, b) =>
    a.created === b.created
      ? a.id < b.id
        ? -1
        : 1
      : Date.parse(a.created) - Date.parse(b.created),
  );

/** The same, newest first. */
const newestFirst = (reports: ReportRecord[]) => oldestFirst(reports).reverse();

const resolve = (id: string, body: unknown) =>
  callReports(harness, 'PUT', `/reports/${id}/resolution`, body);

describe('opening a report', () => {
  test('when the BFF opens a report, then it answers 201 with the open report, version 1, and publishes moderation.report.opened', async () => {
    // Arrange
    const command = aReportCommand({
      reason: 'off-platform-contact',
      note: '  Asked me to pay\nby bank transfer  ',
    });

    // Act
    const answer = await callReports(harness, 'POST', '/reports', command);

    // Assert
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    const report = answer.body.data!;
    assert.deepEqual(
      { ...report, id: undefined, created: undefined, updated: undefined },
      {
        ...command,
        id: undefined,
        version: 1,
        note: 'Asked me to pay\nby bank transfer',
        status: 'open',
        resolution: null,
        created: undefined,
        updated: undefined,
      },
    );
    const event = await eventOf<ReportRecord>(reportEvents, report.id, eventTypes.reportOpened);
    assert.equal(event.version, 1);
    assert.deepEqual(event.data, report);
    const read = await callReports(harness, 'GET', `/reports/${report.id}`);
    assert.deepEqual(read.body.data, report);
  });

  test("when the same person reports the same item again, then it answers 409 'You have already reported this.' and keeps one report", async () => {
    // Arrange
    const command = aReportCommand();
    const first = await openReport(harness, command);

    // Act
    const again = await callReports(harness, 'POST', '/reports', {
      ...command,
      reason: 'other',
      note: 'Still there',
    });

    // Assert
    assert.equal(again.status, 409);
    assert.equal(again.body.error?.message, messages.alreadyReported);
    const mine = await callReports<ReportPage>(
      harness,
      'GET',
      `/reports/mine?reporterUserId=${command.reporterUserId as string}`,
    );
    assert.deepEqual(mine.body.data?.reports, [first]);
  });

  test('when 10 attempts of one person on one item arrive at once, then exactly one opens the report and the others answer 409', async () => {
    // Arrange
    const command = aReportCommand({
      item: { kind: 'creator', id: 'creator-1', label: '@spammer' },
      accused: { kind: 'creator', id: 'creator-1' },
    });

    // Act
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => callReports(harness, 'POST', '/reports', command)),
    );

    // Assert
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [
      201,
      ...Array<number>(9).fill(409),
    ]);
    for (const answer of answers.filter(({ status }) => status === 409))
      assert.equal(answer.body.error?.message, messages.alreadyReported);
    const { rows } = await harness.service.sql.query(
      'SELECT id FROM reports WHERE reporter_user_id = $1',
      [command.reporterUserId],
    );
    assert.equal(rows.length, 1);
    assert.deepEqual(await outboxRowsOf(harness, rows[0].id), [
      { topic: topics.moderationReport, event_type: eventTypes.reportOpened },
    ]);
  });

  test('when another person reports the same item, then that is a report of its own', async () => {
    const first = await openReport(harness, aReportCommand());

    const second = await openReport(
      harness,
      aReportCommand({ item: first.item, accused: first.accused }),
    );

    assert.notEqual(second.id, first.id);
    assert.deepEqual(second.item, first.item);
  });

  test.each([
    ['no reason', { reason: undefined }, 'reason', messages.reportReasonRequired],
    ['an unknown reason', { reason: 'boring' }, 'reason', messages.reportReasonRequired],
    [
      'the reason other without a note',
      { reason: 'other', note: '   ' },
      'note',
      messages.reportNoteRequired,
    ],
    ['a note over 1000 characters', { note: 'x'.repeat(1001) }, 'note', messages.reportNoteTooLong],
    [
      'a note with a control character',
      { note: 'bad\u0000note' },
      'note',
      messages.controlCharacters,
    ],
    [
      'an unknown item kind',
      { item: { kind: 'post', id: 'p1', label: 'A post' } },
      'item.kind',
      messages.requestProblem,
    ],
    [
      'an item without a label',
      { item: { kind: 'offer', id: 'o1', label: ' ' } },
      'item.label',
      messages.requestProblem,
    ],
    [
      'an item label over 200 characters',
      { item: { kind: 'message', id: 'm1', label: 'x'.repeat(201) } },
      'item.label',
      messages.valueTooLong,
    ],
    [
      'a profile accusing someone else',
      { item: { kind: 'brand', id: 'b1', label: 'Acme' }, accused: { kind: 'brand', id: 'b2' } },
      'accused',
      messages.requestProblem,
    ],
    [
      'an offer accusing a creator',
      { accused: { kind: 'creator', id: 'c1' } },
      'accused',
      messages.requestProblem,
    ],
    ['no reporter', { reporterUserId: '' }, 'reporterUserId', messages.requestProblem],
    ['an unknown field', { status: 'resolved' }, '', messages.requestProblem],
  ])(
    'when the body has %s, then it answers 400 and opens nothing',
    async (_case, overrides, field, message) => {
      const command = aReportCommand(overrides);

      const answer = await callReports(harness, 'POST', '/reports', command);

      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.equal(answer.body.error?.fields?.[field], message, JSON.stringify(answer.body));
      const { rows } = await harness.service.sql.query(
        'SELECT id FROM reports WHERE reporter_user_id = $1',
        [command.reporterUserId],
      );
      assert.equal(rows.length, 0);
    },
  );

  test('when the reason is other and the note says what is wrong, then the report opens', async () => {
    const report = await openReport(
      harness,
      aReportCommand({
        item: { kind: 'message', id: randomUUID(), label: 'Send me your number\nand I pay you' },
        accused: { kind: 'creator', id: randomUUID() },
        reason: 'other',
        note: 'x'.repeat(1000),
      }),
    );

    assert.equal(report.reason, 'other');
    assert.equal(report.note.length, 1000);
  });
});

describe('the queue', () => {
  let opened: ReportRecord[];

  beforeAll(async () => {
    opened = [];
    for (let index = 0; index < REPORT_PAGE_SIZE + 5; index += 1)
      opened.push(await openReport(harness, aReportCommand()));
  });

  test('when staff read the open queue, then following nextBefore answers every open report once, oldest first', async () => {
    // Act
    const pages = await allReportPages(harness, '/reports?status=open');

    // Assert
    assert.equal(pages[0]!.reports.length, REPORT_PAGE_SIZE);
    assert.equal(pages.at(-1)!.nextBefore, null);
    const all = pages.flatMap((page) => page.reports);
    assert.deepEqual(all, oldestFirst(all));
    assert.equal(new Set(all.map((report) => report.id)).size, all.length);
    const ids = new Set(opened.map((report) => report.id));
    assert.deepEqual(
      all.filter((report) => ids.has(report.id)),
      oldestFirst(opened),
    );
    assert.ok(all.every((report) => report.status === 'open'));
    const byDefault = await callReports<ReportPage>(harness, 'GET', '/reports');
    assert.deepEqual(byDefault.body.data, pages[0]);
  });

  test('when staff read the resolved reports, then following nextBefore answers each once, newest resolution first', async () => {
    // Arrange
    const staff = aStaffMember();
    const resolved: ReportRecord[] = [];
    for (const report of opened) {
      const answer = await resolve(report.id, { staff, outcome: 'no-action', note: 'Fine' });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      resolved.push(answer.body.data!);
    }

    // Act
    const pages = await allReportPages(harness, '/reports?status=resolved');

    // Assert
    assert.equal(pages[0]!.reports.length, REPORT_PAGE_SIZE);
    const all = pages.flatMap((page) => page.reports);
    const byResolution = (reports: ReportRecord[]) =>
      [...reports].sort((a, b) => {
        const [atA, atB] = [Date.parse(a.resolution!.at), Date.parse(b.resolution!.at)];
        return atA === atB ? (a.id < b.id ? 1 : -1) : atB - atA;
      });
    assert.deepEqual(all, byResolution(all));
    const ids = new Set(resolved.map((report) => report.id));
    assert.deepEqual(
      all.filter((report) => ids.has(report.id)),
      byResolution(resolved),
    );
    const open = (await allReportPages(harness, '/reports?status=open')).flatMap(
      (page) => page.reports,
    );
    assert.ok(open.every((report) => !ids.has(report.id)));
  });

  test.each([
    ['an unknown status', 'status=closed'],
    ['an unknown parameter', 'sort=newest'],
    ['a malformed cursor', 'before=not*a*cursor'],
    ['a cursor of another shape', `before=${Buffer.from('{"at":1}').toString('base64url')}`],
  ])('when the queue is asked with %s, then it answers 400', async (_case, query) => {
    const answer = await callReports(harness, 'GET', `/reports?${query}`);

    assert.equal(answer.status, 400);
    assert.equal(answer.body.error?.message, messages.requestProblem);
  });
});

describe("a reporter's own reports", () => {
  test('when a reporter reads their reports, then they get theirs only, newest first, with the outcome once resolved', async () => {
    // Arrange
    const reporterUserId = randomUUID();
    const reports: ReportRecord[] = [];
    for (let index = 0; index < 3; index += 1)
      reports.push(await openReport(harness, aReportCommand({ reporterUserId })));
    await openReport(harness, aReportCommand());
    const resolved = await resolve(reports[0]!.id, {
      staff: aStaffMember(),
      outcome: 'warning',
      note: 'Warned the brand',
    });

    // Act
    const answer = await callReports<ReportPage>(
      harness,
      'GET',
      `/reports/mine?reporterUserId=${reporterUserId}`,
    );

    // Assert
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body.data, {
      reports: newestFirst([resolved.body.data!, reports[1]!, reports[2]!]),
      nextBefore: null,
    });
  });

  test('when no reporter is named, then it answers 400', async () => {
    const answer = await callReports(harness, 'GET', '/reports/mine');

    assert.equal(answer.status, 400);
  });
});

describe('resolving a report', () => {
  test('when staff resolve an open report, then it is resolved at version 2, published, and the staff action is in the audit log and on moderation.audit.v1', async () => {
    // Arrange
    const report = await openReport(harness, aReportCommand({ reason: 'scam-or-fraud' }));
    const staff = aStaffMember();

    // Act
    const answer = await resolve(report.id, {
      staff,
      outcome: 'suspension',
      note: ' Suspended the brand:\nunpaid work ',
    });

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const resolved = answer.body.data!;
    assert.equal(resolved.version, 2);
    assert.equal(resolved.status, 'resolved');
    assert.deepEqual(
      { ...resolved.resolution, at: undefined },
      { outcome: 'suspension', note: 'Suspended the brand:\nunpaid work', staff, at: undefined },
    );
    assert.equal(resolved.updated, resolved.resolution!.at);
    assert.deepEqual(
      { ...resolved, version: 1, status: 'open', resolution: null, updated: report.updated },
      report,
    );
    const event = await eventOf<ReportRecord>(reportEvents, report.id, eventTypes.reportUpdated);
    assert.equal(event.version, 2);
    assert.deepEqual(event.data, resolved);

    const log = await readAuditLog(harness, { query: staff.email, action: 'report.resolve' });
    assert.equal(log.status, 200);
    const [entry] = (log.body.data as AuditPage).entries;
    assert.deepEqual(
      { ...entry, id: undefined },
      {
        id: undefined,
        at: resolved.resolution!.at,
        staff,
        action: 'report.resolve',
        target: { kind: 'report', id: report.id, label: report.item.label },
        reason: 'Suspended the brand:\nunpaid work',
        details: { outcome: 'suspension', itemKind: 'offer', itemId: report.item.id },
      },
    );
    const published = await eventOf<AuditEntry>(
      auditEvents,
      entry!.id,
      eventTypes.moderationAuditEntryRecorded,
    );
    assert.deepEqual(published.data, entry);
    const { rows } = await harness.service.sql.query(
      'SELECT event_id, topic FROM audit_entries WHERE id = $1',
      [entry!.id],
    );
    assert.equal(rows[0].topic, topics.moderationAudit);
  });

  test("when a resolved report is resolved otherwise, then it answers 409 'This report is already resolved.' and the report stays as resolved", async () => {
    // Arrange
    const report = await openReport(harness, aReportCommand());
    const staff = aStaffMember();
    const first = await resolve(report.id, { staff, outcome: 'warning', note: 'Warned' });

    // Act
    const otherOutcome = await resolve(report.id, { staff, outcome: 'suspension', note: 'Warned' });
    const otherNote = await resolve(report.id, { staff, outcome: 'warning', note: 'Again' });
    const otherStaff = await resolve(report.id, {
      staff: aStaffMember(),
      outcome: 'warning',
      note: 'Warned',
    });

    // Assert
    for (const answer of [otherOutcome, otherNote, otherStaff]) {
      assert.equal(answer.status, 409);
      assert.equal(answer.body.error?.message, messages.reportAlreadyResolved);
    }
    const read = await callReports(harness, 'GET', `/reports/${report.id}`);
    assert.deepEqual(read.body.data, first.body.data);
  });

  test('when the same resolution is sent again, then it answers the resolved report and records no new event nor audit entry', async () => {
    // Arrange
    const report = await openReport(harness, aReportCommand());
    const body = { staff: aStaffMember(), outcome: 'no-action', note: 'Nothing wrong' };
    const first = await resolve(report.id, body);

    // Act
    const again = await resolve(report.id, { ...body, note: ' Nothing wrong ' });

    // Assert
    assert.equal(again.status, 200);
    assert.deepEqual(again.body.data, first.body.data);
    assert.deepEqual(
      (await outboxRowsOf(harness, report.id)).map((row) => row.event_type),
      [eventTypes.reportOpened, eventTypes.reportUpdated],
    );
    const { rows } = await harness.service.sql.query(
      'SELECT id FROM audit_entries WHERE target_id = $1',
      [report.id],
    );
    assert.equal(rows.length, 1);
  });

  test('when two staff members resolve one report at once, then one resolution wins and the other answers 409', async () => {
    const report = await openReport(harness, aReportCommand());

    const answers = await Promise.all(
      (['warning', 'suspension'] as const).map((outcome) =>
        resolve(report.id, { staff: aStaffMember(), outcome, note: `Decided ${outcome}` }),
      ),
    );

    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 409]);
    const read = await callReports(harness, 'GET', `/reports/${report.id}`);
    assert.equal(read.body.data?.version, 2);
  });

  test.each([
    ['no outcome', { outcome: undefined }, 'outcome', messages.reportOutcomeRequired],
    ['an unknown outcome', { outcome: 'ban' }, 'outcome', messages.reportOutcomeRequired],
    ['no note', { note: '  ' }, 'note', messages.reportResolutionNoteRequired],
    ['a note over 1000 characters', { note: 'x'.repeat(1001) }, 'note', messages.reportNoteTooLong],
    ['no staff member', { staff: undefined }, 'staff', messages.requestProblem],
  ])(
    'when the resolution has %s, then it answers 400 and the report stays open',
    async (_case, overrides, field, message) => {
      const report = await openReport(harness, aReportCommand());

      const answer = await resolve(report.id, {
        staff: aStaffMember(),
        outcome: 'warning',
        note: 'Warned',
        ...overrides,
      });

      assert.equal(answer.status, 400);
      assert.equal(answer.body.error?.fields?.[field], message);
      const read = await callReports(harness, 'GET', `/reports/${report.id}`);
      assert.deepEqual(read.body.data, report);
    },
  );

  test("when the report does not exist, then reading or resolving it answers 404 'This report does not exist.'", async () => {
    const body = { staff: aStaffMember(), outcome: 'warning', note: 'Warned' };

    for (const id of [randomUUID(), 'not-a-uuid']) {
      const read = await callReports(harness, 'GET', `/reports/${id}`);
      const resolved = await resolve(id, body);

      assert.equal(read.status, 404, id);
      assert.equal(read.body.error?.message, messages.reportNotFound);
      assert.equal(resolved.status, 404, id);
      assert.equal(resolved.body.error?.message, messages.reportNotFound);
    }
  });
});

describe('callers', () => {
  test('when a route is called without a service token or with another service’s, then it answers 401', async () => {
    const report = await openReport(harness, aReportCommand());
    const routes: [string, string, unknown?][] = [
      ['POST', '/reports', aReportCommand()],
      ['GET', '/reports'],
      ['GET', `/reports/mine?reporterUserId=${report.reporterUserId}`],
      ['GET', `/reports/${report.id}`],
      [
        'PUT',
        `/reports/${report.id}/resolution`,
        { staff: aStaffMember(), outcome: 'warning', note: 'Warned' },
      ],
    ];

    for (const [method, path, body] of routes)
      for (const caller of [null, 'notifications'] as const) {
        const answer = await callReports(harness, method, path, body, caller);
        assert.equal(answer.status, 401, `${method} ${path} as ${caller}`);
      }
    const read = await callReports(harness, 'GET', `/reports/${report.id}`);
    assert.deepEqual(read.body.data, report);
  });
});
