import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, test } from 'vitest';
import type { AuditEntry, AuditPage } from '@raly/contracts/audit';
import { aBrandRecord } from '@raly/test-support/records';
import { consoleApi } from '@/features/console/api/console-api';
import { AuditLog } from '@/features/console/components/audit-log';
import { ConsoleSections } from '@/features/console/components/console-page';
import { aSession, answerConsole, testLiveAddress, type ConsoleCall } from './console-bff';
import { jsonAnswer, renderInApp } from './render';

/** An audit entry as moderation keeps it: a moderator's brand suspension unless `changes` say otherwise. */
const anEntry = (changes: Partial<AuditEntry> = {}): AuditEntry => ({
  id: randomUUID(),
  at: '2026-11-27T14:05:09.000Z',
  staff: { userId: randomUUID(), email: 'moderator@raly.test' },
  action: 'brand.suspend',
  target: { kind: 'brand', id: randomUUID(), label: 'Acme Drinks' },
  reason: 'Fake giveaways',
  details: {},
  ...changes,
});

const aPage = (entries: AuditEntry[], nextBefore: string | null = null): AuditPage => ({
  entries,
  nextBefore,
});

/** The audit log's reads among `calls`: their paths with the query string. */
const auditReads = (calls: ConsoleCall[]) =>
  calls.filter((call) => call.path.startsWith('/api/console/audit')).map((call) => call.path);

/** Renders the audit log of a moderator; @returns the table once its first page shows */
function openAuditLog() {
  renderInApp(<AuditLog api={consoleApi('/api', aSession('raly-moderator'), testLiveAddress)} />);
  return screen.findByRole('table', { name: 'Staff actions' });
}

describe("the console's audit log", () => {
  test('when entries come, then each reads when, who, what in words, on whom, why and details, and none can be changed', async () => {
    // Arrange
    const suspension = anEntry();
    const flags = anEntry({
      at: '2026-11-27T15:30:00.000Z',
      staff: { userId: randomUUID(), email: 'admin@raly.test' },
      action: 'creator.flags',
      target: { kind: 'creator', id: randomUUID(), label: 'alice' },
      reason: null,
      details: { isBoosted: true, isAmbassador: false },
    });
    answerConsole(() => jsonAnswer(200, { data: aPage([flags, suspension]) }));

    // Act
    const table = await openAuditLog();

    // Assert
    const [, first, second] = within(table).getAllByRole('row');
    assert.ok(first && second);
    const flagCells = within(first)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    assert.deepEqual(flagCells.slice(1), [
      'admin@raly.test',
      "Set a creator's flags",
      '@alice',
      '—',
      'Boosted: on, Ambassador: off',
    ]);
    assert.equal(
      within(first).getByRole('link', { name: '@alice' }).getAttribute('href'),
      '/user/alice',
    );
    const when = first.querySelector('time');
    assert.equal(when?.getAttribute('dateTime'), flags.at);
    assert.match(when?.textContent ?? '', /2026/);
    assert.deepEqual(
      within(second)
        .getAllByRole('cell')
        .map((cell) => cell.textContent)
        .slice(1),
      ['moderator@raly.test', 'Suspended a brand', 'Acme Drinks', 'Fake giveaways', '—'],
    );
    assert.equal(within(second).queryByRole('link'), null);
    assert.deepEqual(within(table).queryAllByRole('button'), []);
    assert.deepEqual(within(table).queryAllByRole('textbox'), []);
  });

  test('when a staff member searches and picks an action, then the BFF is asked with the search and the action, and the list shows its answer', async () => {
    // Arrange
    const found = anEntry({ action: 'brand.verify', reason: 'Checked the company register' });
    const calls = answerConsole((call) =>
      jsonAnswer(200, {
        data: aPage(call.path.includes('action=brand.verify') ? [found] : [anEntry()]),
      }),
    );
    await openAuditLog();

    // Act
    await userEvent.type(screen.getByLabelText('Staff e-mail, brand or creator'), '  Acme ');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Action' }), [
      'Verified a brand',
    ]);

    // Assert
    await screen.findByRole('cell', { name: 'Checked the company register' });
    assert.deepEqual(auditReads(calls), [
      '/api/console/audit',
      '/api/console/audit?query=Acme',
      '/api/console/audit?query=Acme&action=brand.verify',
    ]);
  });

  test('when the action filter lists the actions, then every staff action is offered in words', async () => {
    answerConsole(() => jsonAnswer(200, { data: aPage([]) }));
    renderInApp(<AuditLog api={consoleApi('/api', aSession('raly-moderator'), testLiveAddress)} />);

    const options = within(screen.getByRole('combobox', { name: 'Action' }))
      .getAllByRole('option')
      .map((option) => option.textContent);

    assert.deepEqual(options, [
      'Every action',
      'Verified a brand',
      "Removed a brand's verification",
      'Suspended a brand',
      "Lifted a brand's suspension",
      "Set a brand's flags",
      'Suspended a creator',
      "Lifted a creator's suspension",
      "Set a creator's flags",
      'Viewed contact details',
      'Resolved a report',
    ]);
  });

  test('when a next page is named, then "Load more" asks for it with the filters and appends it, and goes once the last page came', async () => {
    // Arrange
    const newest = anEntry({ reason: 'Newest' });
    const older = anEntry({ reason: 'Older' });
    const calls = answerConsole((call) =>
      jsonAnswer(200, {
        data: call.path.includes('before=')
          ? aPage([older])
          : aPage([newest], 'cursor after newest'),
      }),
    );
    const table = await openAuditLog();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Action' }), [
      'brand.suspend',
    ]);
    await waitFor(() => assert.equal(auditReads(calls).length, 2));

    // Act
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));

    // Assert
    await within(table).findByRole('cell', { name: 'Older' });
    assert.deepEqual(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[4]?.textContent),
      ['Newest', 'Older'],
    );
    assert.equal(
      auditReads(calls).at(-1),
      `/api/console/audit?${new URLSearchParams({ action: 'brand.suspend', before: 'cursor after newest' })}`,
    );
    assert.equal(screen.queryByRole('button', { name: 'Load more' }), null);
  });

  test('while the first page is read, then the log says it is loading; when nothing matches, then it says "No staff actions match."', async () => {
    // Arrange
    let answer: (response: Response) => void = () => undefined;
    const pending = new Promise<Response>((resolve) => (answer = resolve));
    answerConsole(() => pending);

    // Act
    renderInApp(<AuditLog api={consoleApi('/api', aSession('raly-moderator'), testLiveAddress)} />);

    // Assert
    screen.getByRole('status', { name: 'Loading the audit log' });
    answer(jsonAnswer(200, { data: aPage([]) }));
    await screen.findByText('No staff actions match.');
    assert.equal(screen.queryByRole('status', { name: 'Loading the audit log' }), null);
    assert.equal(screen.queryByRole('table'), null);
  });

  test('when the BFF refuses the read, then its message shows as an alert and no list shows', async () => {
    answerConsole(() =>
      jsonAnswer(503, {
        error: { code: 'unavailable', message: 'The service is unavailable. Try again later.' },
      }),
    );

    renderInApp(<AuditLog api={consoleApi('/api', aSession('raly-moderator'), testLiveAddress)} />);

    assert.equal(
      (await screen.findByRole('alert')).textContent,
      'The service is unavailable. Try again later.',
    );
    assert.equal(screen.queryByRole('table'), null);
    assert.equal(screen.queryByText('No staff actions match.'), null);
  });

  test('when a staff member suspends a brand and opens the audit log again, then the log is read again and shows the decision', async () => {
    // Arrange
    const brand = aBrandRecord();
    let decided = false;
    const decision = anEntry({
      target: { kind: 'brand', id: brand.id, label: brand.company },
      reason: 'Fake giveaways',
    });
    const calls = answerConsole((call) => {
      if (call.path.startsWith('/api/console/audit'))
        return jsonAnswer(200, { data: aPage(decided ? [decision] : []) });
      if (call.method === 'PUT') {
        decided = true;
        return jsonAnswer(200, {
          data: { ...brand, permissions: { ...brand.permissions, isSuspended: true } },
        });
      }
      return jsonAnswer(200, { data: [brand] });
    });
    renderInApp(
      <ConsoleSections
        api={consoleApi('/api', aSession('raly-moderator'), testLiveAddress)}
        canSetFlags={false}
      />,
    );
    await userEvent.click(screen.getByRole('tab', { name: 'Audit log' }));
    await screen.findByText('No staff actions match.');

    // Act
    await userEvent.click(screen.getByRole('tab', { name: 'Brands' }));
    await userEvent.type(screen.getByLabelText('Username or company'), brand.username);
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    const row = await screen.findByRole('listitem', { name: brand.company });
    await userEvent.type(screen.getByLabelText('Reason for a decision'), 'Fake giveaways');
    await userEvent.click(within(row).getByRole('button', { name: 'Suspend' }));
    await within(row).findByRole('button', { name: 'Lift suspension' });
    await userEvent.click(screen.getByRole('tab', { name: 'Audit log' }));

    // Assert
    const table = await screen.findByRole('table', { name: 'Staff actions' });
    within(table).getByRole('cell', { name: brand.company });
    assert.equal(auditReads(calls).length, 2);
  });
});
