/**
 * Settings → Reports (docs/console.md "Reports in the browser"): the person's own reports newest
 * first as the BFF answers them, "Open" or the outcome in the reporter's words with the
 * resolution's note, "Load more" with the page's cursor, and the empty state.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, test } from 'vitest';
import {
  reportOutcomeWords,
  reportReasonWords,
  type ReporterReport,
} from '@raly/contracts/reports';
import { aUserRecord } from '@raly/test-support/records';
import { SettingsReportsRoute } from '@/app/routes/settings/reports';
import { MyReports } from '@/features/settings/components/my-reports';
import { answerBff, jsonAnswer, renderInApp } from './render';

/** A report as its reporter sees it: an open spam report on an offer unless `changes` say otherwise. */
const aReport = (changes: Partial<ReporterReport> = {}): ReporterReport => ({
  id: randomUUID(),
  item: { kind: 'offer', id: randomUUID(), label: 'Summer drinks' },
  reason: 'spam',
  note: '',
  status: 'open',
  resolution: null,
  created: '2026-11-27T14:05:09.000Z',
  ...changes,
});

describe('my reports', () => {
  test('when the BFF answers reports, then each shows its item, reason in words, when, and "Open" or the outcome words with the note', async () => {
    // Arrange
    const open = aReport();
    const resolved = aReport({
      item: { kind: 'creator', id: randomUUID(), label: '@maya' },
      reason: 'harassment',
      status: 'resolved',
      resolution: {
        outcome: 'warning',
        note: 'We warned the account.',
        at: '2026-11-27T15:00:00.000Z',
      },
    });
    const calls = answerBff(() =>
      jsonAnswer(200, { data: { reports: [open, resolved], nextBefore: null } }),
    );

    // Act
    renderInApp(<MyReports />);

    // Assert
    const first = await screen.findByRole('listitem', { name: 'Summer drinks' });
    assert.ok(within(first).getByText(/^Offer/));
    assert.ok(within(first).getByText(new RegExp(reportReasonWords.spam.label)));
    assert.equal(first.querySelector('time')?.getAttribute('dateTime'), open.created);
    assert.ok(within(first).getByText('Open'));
    const second = screen.getByRole('listitem', { name: '@maya' });
    assert.ok(within(second).getByText(new RegExp(reportReasonWords.harassment.label)));
    assert.ok(within(second).getByText(reportOutcomeWords.warning));
    assert.ok(within(second).getByText('We warned the account.'));
    assert.equal(within(second).queryByText('Open'), null);
    assert.deepEqual(
      screen.getAllByRole('listitem').map((item) => item.getAttribute('aria-label')),
      ['Summer drinks', '@maya'],
    );
    assert.deepEqual(
      calls.map((call) => [call.path, call.search]),
      [['/api/reports/mine', undefined]],
    );
    assert.equal(screen.queryByRole('button', { name: 'Load more' }), null);
  });

  test('when a next page is named, then "Load more" asks for it with the cursor and shows it after the first', async () => {
    // Arrange
    const newer = aReport({ item: { kind: 'brand', id: randomUUID(), label: 'Acme Drinks' } });
    const older = aReport({
      item: { kind: 'offer', id: randomUUID(), label: 'Winter coats' },
      status: 'resolved',
      resolution: { outcome: 'suspension', note: 'Fake offer.', at: '2026-11-27T16:00:00.000Z' },
    });
    const calls = answerBff((call) =>
      jsonAnswer(200, {
        data: call.search
          ? { reports: [older], nextBefore: null }
          : { reports: [newer], nextBefore: 'cursor after acme' },
      }),
    );
    renderInApp(<MyReports />);

    // Act
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));

    // Assert
    const item = await screen.findByRole('listitem', { name: 'Winter coats' });
    assert.ok(within(item).getByText(reportOutcomeWords.suspension));
    assert.deepEqual(
      screen.getAllByRole('listitem').map((listed) => listed.getAttribute('aria-label')),
      ['Acme Drinks', 'Winter coats'],
    );
    assert.equal(calls.at(-1)?.search, `?${new URLSearchParams({ before: 'cursor after acme' })}`);
    assert.equal(screen.queryByRole('button', { name: 'Load more' }), null);
  });

  test('when the person has reported nothing, then /settings/reports says "You have not reported anything." under the Reports menu item', async () => {
    answerBff((call) =>
      jsonAnswer(200, {
        data:
          call.path === '/api/me'
            ? { user: aUserRecord(), brand: null }
            : { reports: [], nextBefore: null },
      }),
    );

    renderInApp(<SettingsReportsRoute />, { route: '/settings/reports' });

    await screen.findByText('You have not reported anything.');
    assert.equal(screen.queryByRole('listitem', { name: /./ }), null);
    const menu = screen.getByRole('navigation', { name: 'Settings' });
    const link = within(menu).getByRole('link', { name: 'Reports' });
    assert.equal(link.getAttribute('href'), '/settings/reports');
    assert.equal(link.getAttribute('aria-current'), 'page');
  });
});
