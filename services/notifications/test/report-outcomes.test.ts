/**
 * The reporter learns the outcome (docs/console.md "Reports"): once a report's
 * snapshot on `moderation.report.v1` is resolved, its reporter gets one
 * `report_resolved` item with the label they saw and the outcome, and nobody
 * else gets anything. An open report, a redelivery, a replay or an older
 * snapshot adds nothing; the item never names whom the report accused nor the
 * staff member, nor copies a reported message's text, and no preference
 * switch turns it off.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, test } from 'vitest';
import type { NotificationsPage } from '@raly/contracts/notifications';
import { type RalySystem, registeredCreator } from '@raly/test-support/system';
import {
  anOpenReport,
  asUser,
  inboxSnapshotsOf,
  itemsOf,
  publish,
  reportEvent,
  resolved,
  useNotificationsSystem,
} from './support';

const harness = useNotificationsSystem();
let system: RalySystem;
let reporter: Awaited<ReturnType<typeof registeredCreator>>;

beforeAll(async () => {
  system = harness.system;
  reporter = await registeredCreator(system);
});

describe('the outcome of a report', () => {
  test('when a report is opened and then resolved, then its reporter gets one item with the label and the outcome, and the accused and the staff member appear nowhere', async () => {
    // Arrange
    const report = anOpenReport(reporter.userId);
    await publish(system, reportEvent(report));
    assert.deepEqual(await itemsOf(system, reporter.userId), [], 'an open report tells nobody');
    const decided = resolved(report, 'warning');

    // Act
    await publish(system, reportEvent(decided));

    // Assert
    const items = await itemsOf(system, reporter.userId);
    assert.equal(items.length, 1);
    assert.equal(items[0]!.kind, 'report_resolved');
    assert.equal(items[0]!.title, report.item.label);
    assert.equal(items[0]!.report_item_kind, 'offer');
    assert.equal(items[0]!.report_outcome, 'warning');
    assert.equal(items[0]!.counterpart, null);
    const stored = JSON.stringify(items[0]);
    for (const hidden of [
      report.accused.id,
      decided.resolution!.staff.userId,
      decided.resolution!.staff.email,
      decided.resolution!.note,
    ])
      assert.ok(!stored.includes(hidden), `the item holds ${hidden}`);
    assert.deepEqual(await itemsOf(system, report.accused.id), [], 'the accused is told nothing');
    const page = await asUser(system, reporter.accessToken)<NotificationsPage>(
      'GET',
      '/notifications',
    );
    assert.equal(page.status, 200, JSON.stringify(page.body));
    const [item] = page.body.data!.items.filter((entry) => entry.kind === 'report_resolved');
    assert.deepEqual(
      {
        report: item?.report,
        offerId: item?.offerId,
        collaborationId: item?.collaborationId,
        read: item?.read,
      },
      {
        report: { itemKind: 'offer', outcome: 'warning' },
        offerId: null,
        collaborationId: null,
        read: false,
      },
    );
  });

  test('when the resolved snapshot comes again, by redelivery or replay, or an older one follows, then nothing is added and the inbox does not change', async () => {
    // Arrange
    const person = randomUUID();
    const report = anOpenReport(person);
    const decided = resolved(report, 'no-action');
    const envelopeId = randomUUID();
    await publish(system, reportEvent(report), { ...reportEvent(decided), envelopeId });
    assert.equal((await itemsOf(system, person)).length, 1);

    // Act
    await publish(
      system,
      { ...reportEvent(decided), envelopeId },
      reportEvent(decided),
      reportEvent(report),
    );

    // Assert
    const items = await itemsOf(system, person);
    assert.equal(items.length, 1);
    assert.equal(items[0]!.report_outcome, 'no-action');
    // The distinct snapshots: the same one seen again changes nothing, a later version would.
    assert.deepEqual(
      [
        ...new Set(
          inboxSnapshotsOf(harness, person).map((inbox) => `${inbox.version}:${inbox.unread}`),
        ),
      ],
      ['1:1'],
    );
  });

  test('when a reported message is resolved, then the item names it by its kind and never holds its text', async () => {
    const person = randomUUID();
    const excerpt = `Send me your phone number ${randomUUID()}`;
    const report = anOpenReport(person, {
      item: { kind: 'message', id: randomUUID(), label: excerpt },
      accused: { kind: 'creator', id: randomUUID() },
    });

    await publish(system, reportEvent(report), reportEvent(resolved(report, 'suspension')));

    const items = await itemsOf(system, person);
    assert.equal(items.length, 1);
    assert.equal(items[0]!.title, '');
    assert.equal(items[0]!.report_item_kind, 'message');
    assert.equal(items[0]!.report_outcome, 'suspension');
    assert.ok(!JSON.stringify(items[0]).includes(excerpt));
  });

  test('when the reporter turned every category off in the app, then the outcome of their report still reaches their inbox', async () => {
    // Arrange
    const person = await registeredCreator(system);
    const off = await asUser(system, person.accessToken)('PUT', '/preferences', {
      offers: { in_app: false },
      applications: { in_app: false },
      collaborations: { in_app: false },
    });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    const report = anOpenReport(person.userId);

    // Act
    await publish(system, reportEvent(report), reportEvent(resolved(report, 'warning')));

    // Assert
    assert.deepEqual(
      (await itemsOf(system, person.userId)).map((item) => item.kind),
      ['report_resolved'],
    );
  });

  test('when a report was resolved longer ago than the age limit (a replay of history), then it tells nobody', async () => {
    const person = randomUUID();
    const report = anOpenReport(person);
    const longAgo = new Date(Date.now() - 4 * 86_400_000).toISOString();

    await publish(system, reportEvent(report), reportEvent(resolved(report, 'warning', longAgo)));

    assert.deepEqual(await itemsOf(system, person), []);
  });
});
