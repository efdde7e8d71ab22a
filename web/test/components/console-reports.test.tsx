/**
 * The console's "Reports" tab (docs/console.md "Reports in the browser"): the open queue as the BFF
 * answers it, read again when the window gets the focus back and every 15 s while the console's
 * socket is down, kept live by the socket's pushes while it is up, the resolve form sending the
 * outcome and note, a refusal shown on the report, and the resolved reports.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, test, vi } from 'vitest';
import { messages } from '@raly/contracts/messages';
import { reportReasonWords, type ReportRecord } from '@raly/contracts/reports';
import { consoleApi } from '@/features/console/api/console-api';
import { ConsoleSections } from '@/features/console/components/console-page';
import { REPORT_QUEUE_REFRESH_MS } from '@/features/console/components/report-queue';
import {
  aReportFeed,
  aSession,
  answerConsole,
  testLiveAddress,
  type ConsoleCall,
} from './console-bff';
import { jsonAnswer, renderInApp } from './render';

/** An open report of an offer as moderation keeps it, unless `changes` say otherwise. */
const aReport = (changes: Partial<ReportRecord> = {}): ReportRecord => ({
  id: randomUUID(),
  version: 1,
  reporterUserId: randomUUID(),
  item: { kind: 'offer', id: randomUUID(), label: 'Summer drinks' },
  accused: { kind: 'brand', id: randomUUID() },
  reason: 'scam-or-fraud',
  note: 'Asks for a fee to apply',
  status: 'open',
  resolution: null,
  created: '2026-11-27T14:05:09.000Z',
  updated: '2026-11-27T14:05:09.000Z',
  ...changes,
});

/** A report resolved with a warning by moderator@raly.test. */
const aWarnedReport = (): ReportRecord =>
  aReport({
    status: 'resolved',
    resolution: {
      outcome: 'warning',
      note: 'Warned the brand',
      staff: { userId: randomUUID(), email: 'moderator@raly.test' },
      at: '2026-11-27T16:00:00.000Z',
    },
  });

const page = (reports: ReportRecord[], nextBefore: string | null = null) => ({
  data: { reports, nextBefore },
});

/** The tab's reads of the queue among `calls`: their paths with the query string. */
const queueReads = (calls: ConsoleCall[]) =>
  calls.filter((call) => call.method === 'GET').map((call) => call.path);

/** A report of `report` resolved by a staff member, one version on. */
const resolvedOf = (report: ReportRecord, email = 'other@raly.test'): ReportRecord => ({
  ...report,
  version: report.version + 1,
  status: 'resolved',
  resolution: {
    outcome: 'no-action',
    note: 'Looked fine',
    staff: { userId: randomUUID(), email },
    at: '2026-11-27T17:00:00.000Z',
  },
});

/**
 * Opens the console's Reports tab for a moderator; the console's socket is `feed` (down until the
 * test connects it).
 */
async function openReportsTab(feed = aReportFeed()) {
  const api = {
    ...consoleApi('/api', aSession('raly-moderator'), testLiveAddress),
    watchReports: feed.watch,
  };
  renderInApp(<ConsoleSections api={api} canSetFlags={false} />);
  await userEvent.click(screen.getByRole('tab', { name: 'Reports' }));
  return feed;
}

/** The reports shown, by label, in order. */
const shownLabels = () =>
  screen.queryAllByRole('listitem').map((item) => item.getAttribute('aria-label'));

describe("the console's Reports tab", () => {
  test('when open reports come, then each shows its item (offers and creators linked), the accused, the reason in words, the note and when; a focus reads the queue again', async () => {
    // Arrange
    const offer = aReport();
    const creator = aReport({
      item: { kind: 'creator', id: randomUUID(), label: '@maya' },
      accused: { kind: 'creator', id: randomUUID() },
      reason: 'harassment',
      note: '',
    });
    const brand = aReport({
      item: { kind: 'brand', id: randomUUID(), label: 'Acme Drinks' },
      reason: 'impersonation',
    });
    const calls = answerConsole(() => jsonAnswer(200, page([offer, creator, brand])));

    // Act
    await openReportsTab();

    // Assert
    const first = await screen.findByRole('listitem', { name: 'Summer drinks' });
    assert.equal(
      within(first).getByRole('link', { name: 'Summer drinks' }).getAttribute('href'),
      `/offers/${offer.item.id}`,
    );
    assert.ok(within(first).getByText('Brand'));
    assert.ok(within(first).getByText(reportReasonWords['scam-or-fraud'].label));
    assert.ok(within(first).getByText('Asks for a fee to apply'));
    assert.equal(first.querySelector('time')?.getAttribute('dateTime'), offer.created);
    const second = screen.getByRole('listitem', { name: '@maya' });
    assert.equal(
      within(second).getByRole('link', { name: '@maya' }).getAttribute('href'),
      '/user/maya',
    );
    assert.ok(within(second).getByText(reportReasonWords.harassment.label));
    const third = screen.getByRole('listitem', { name: 'Acme Drinks' });
    assert.equal(within(third).queryByRole('link'), null);
    assert.deepEqual(
      screen.getAllByRole('listitem').map((item) => item.getAttribute('aria-label')),
      ['Summer drinks', '@maya', 'Acme Drinks'],
    );
    assert.deepEqual(queueReads(calls), ['/api/console/reports?status=open']);

    act(() => void window.dispatchEvent(new Event('focus')));
    await waitFor(() => assert.equal(queueReads(calls).length, 2));
  });

  test("while the tab is shown and the console's socket is down, then the queue is read again every 15 s and shows what changed; once another tab is shown, it is not and the socket is let go", async () => {
    // Arrange
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const later = aReport({ item: { kind: 'offer', id: randomUUID(), label: 'Winter coats' } });
      let reads = 0;
      const calls = answerConsole((call) =>
        call.path.startsWith('/api/console/audit')
          ? jsonAnswer(200, { data: { entries: [], nextBefore: null } })
          : jsonAnswer(200, page(++reads > 1 ? [later] : [])),
      );
      const feed = await openReportsTab();
      await screen.findByText('No open reports.');

      // Act
      act(() => void vi.advanceTimersByTime(REPORT_QUEUE_REFRESH_MS));

      // Assert
      await screen.findByRole('listitem', { name: 'Winter coats' });
      assert.equal(REPORT_QUEUE_REFRESH_MS, 15_000);
      await userEvent.click(screen.getByRole('tab', { name: 'Audit log' }));
      const before = queueReads(calls).filter((path) => path.includes('reports')).length;
      act(() => void vi.advanceTimersByTime(REPORT_QUEUE_REFRESH_MS * 2));
      assert.equal(queueReads(calls).filter((path) => path.includes('reports')).length, before);
      assert.equal(feed.watchers(), 0);
    } finally {
      vi.useRealTimers();
    }
  });

  test("when the console's socket connects, then the queue is read once more and no longer every 15 s; a report opened elsewhere joins its end, one resolved elsewhere leaves it, and an older version changes nothing", async () => {
    // Arrange
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const first = aReport();
      const second = aReport({ item: { kind: 'offer', id: randomUUID(), label: 'Winter coats' } });
      const calls = answerConsole(() => jsonAnswer(200, page([first, second])));
      const feed = await openReportsTab();
      await screen.findByRole('listitem', { name: 'Winter coats' });
      assert.equal(feed.watchers(), 1);

      // Act: connected
      act(() => feed.connection(true));

      // Assert: one more read, then none on the clock
      await vi.waitFor(() => assert.equal(queueReads(calls).length, 2));
      act(() => void vi.advanceTimersByTime(REPORT_QUEUE_REFRESH_MS * 3));
      assert.equal(queueReads(calls).length, 2);

      // Act: a new report, then the first one resolved by someone else, then a stale version
      const opened = aReport({
        item: { kind: 'brand', id: randomUUID(), label: 'Acme Drinks' },
        created: '2026-11-27T18:00:00.000Z',
      });
      act(() => feed.push(opened));
      await screen.findByRole('listitem', { name: 'Acme Drinks' });
      act(() => feed.push(resolvedOf(first)));
      act(() => feed.push(first));

      // Assert
      await waitFor(() => assert.deepEqual(shownLabels(), ['Winter coats', 'Acme Drinks']));

      // Act: the socket goes down: the clock reads the queue again
      act(() => feed.connection(false));
      act(() => void vi.advanceTimersByTime(REPORT_QUEUE_REFRESH_MS));

      // Assert
      await vi.waitFor(() => assert.equal(queueReads(calls).length, 3));
    } finally {
      vi.useRealTimers();
    }
  });

  test('when "Resolved" is shown and a report is resolved elsewhere, then it heads the list with its resolution', async () => {
    // Arrange
    const older = aWarnedReport();
    answerConsole((call) =>
      jsonAnswer(200, page(call.path.includes('status=resolved') ? [older] : [])),
    );
    const feed = await openReportsTab();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Show' }), ['Resolved']);
    await screen.findByRole('listitem', { name: 'Summer drinks' });
    act(() => feed.connection(true));

    // Act
    const elsewhere = resolvedOf(
      aReport({ item: { kind: 'creator', id: randomUUID(), label: '@maya' } }),
      'other@raly.test',
    );
    act(() => feed.push(elsewhere));

    // Assert
    const item = await screen.findByRole('listitem', { name: '@maya' });
    assert.deepEqual(shownLabels(), ['@maya', 'Summer drinks']);
    assert.ok(within(item).getByText('other@raly.test', { exact: false }));
    assert.equal(within(item).queryByRole('button', { name: 'Resolve' }), null);
  });

  test('when a report is resolved in this tab and its resolved version is pushed, then it stays in the open queue with its resolution', async () => {
    // Arrange
    const report = aReport();
    const resolved = resolvedOf(report, 'staff@raly.test');
    answerConsole((call) =>
      call.method === 'PUT' ? jsonAnswer(200, { data: resolved }) : jsonAnswer(200, page([report])),
    );
    const feed = await openReportsTab();
    const item = await screen.findByRole('listitem', { name: 'Summer drinks' });
    act(() => feed.connection(true));

    // Act
    await userEvent.click(within(item).getByRole('radio', { name: 'No action' }));
    await userEvent.type(within(item).getByLabelText('Resolution note'), 'Looked fine');
    await userEvent.click(within(item).getByRole('button', { name: 'Resolve' }));
    act(() => feed.push(resolved));

    // Assert
    const shown = await screen.findByRole('listitem', { name: 'Summer drinks' });
    await within(shown).findByText('staff@raly.test', { exact: false });
    assert.equal(within(shown).queryByRole('button', { name: 'Resolve' }), null);
  });

  test('when a staff member resolves a report, then the outcome and note are sent and the report shows its resolution', async () => {
    // Arrange
    const report = aReport();
    const calls = answerConsole((call) =>
      call.method === 'PUT'
        ? jsonAnswer(200, {
            data: {
              ...report,
              version: 2,
              status: 'resolved',
              resolution: {
                ...(call.body as { outcome: 'suspension'; note: string }),
                staff: { userId: randomUUID(), email: 'staff@raly.test' },
                at: '2026-11-27T16:00:00.000Z',
              },
            } satisfies ReportRecord,
          })
        : jsonAnswer(200, page([report])),
    );
    await openReportsTab();
    const item = await screen.findByRole('listitem', { name: 'Summer drinks' });

    // Act: first without a note, then with one
    await userEvent.click(within(item).getByRole('radio', { name: 'Suspend the account' }));
    await userEvent.click(within(item).getByRole('button', { name: 'Resolve' }));
    assert.equal(
      (await within(item).findByRole('alert')).textContent,
      messages.reportResolutionNoteRequired,
    );
    await userEvent.type(within(item).getByLabelText('Resolution note'), ' Fee scam, confirmed ');
    await userEvent.click(within(item).getByRole('button', { name: 'Resolve' }));

    // Assert
    await within(item).findByText('staff@raly.test', { exact: false });
    assert.deepEqual(
      calls.filter((call) => call.method === 'PUT'),
      [
        {
          method: 'PUT',
          path: `/api/console/reports/${report.id}/resolution`,
          body: { outcome: 'suspension', note: 'Fee scam, confirmed' },
        },
      ],
    );
    assert.ok(within(item).getByText('Fee scam, confirmed'));
    assert.equal(within(item).queryByRole('button', { name: 'Resolve' }), null);
  });

  test('when the BFF refuses the resolution, then its message shows on the report as an alert and the form stays', async () => {
    // Arrange
    const report = aReport();
    answerConsole((call) =>
      call.method === 'PUT'
        ? jsonAnswer(409, { error: { code: 'conflict', message: messages.reportAlreadyResolved } })
        : jsonAnswer(200, page([report])),
    );
    await openReportsTab();
    const item = await screen.findByRole('listitem', { name: 'Summer drinks' });

    // Act
    await userEvent.click(within(item).getByRole('radio', { name: 'No action' }));
    await userEvent.type(within(item).getByLabelText('Resolution note'), 'Nothing wrong');
    await userEvent.click(within(item).getByRole('button', { name: 'Resolve' }));

    // Assert
    assert.equal(
      (await within(item).findByRole('alert')).textContent,
      messages.reportAlreadyResolved,
    );
    assert.ok(within(item).getByRole('button', { name: 'Resolve' }));
  });

  test('when "Resolved" is chosen, then the resolved reports are read and show the outcome, note, staff e-mail and when, without a form', async () => {
    // Arrange
    const resolved = aWarnedReport();
    const calls = answerConsole((call) =>
      jsonAnswer(200, page(call.path.includes('status=resolved') ? [resolved] : [])),
    );
    await openReportsTab();
    await screen.findByText('No open reports.');

    // Act
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Show' }), ['Resolved']);

    // Assert
    const item = await screen.findByRole('listitem', { name: 'Summer drinks' });
    assert.ok(within(item).getByText('Warning'));
    assert.ok(within(item).getByText('Warned the brand'));
    assert.ok(within(item).getByText('moderator@raly.test', { exact: false }));
    assert.ok(item.querySelector(`time[datetime="${resolved.resolution?.at}"]`));
    assert.equal(within(item).queryByRole('button', { name: 'Resolve' }), null);
    assert.deepEqual(queueReads(calls), [
      '/api/console/reports?status=open',
      '/api/console/reports?status=resolved',
    ]);
  });
});
