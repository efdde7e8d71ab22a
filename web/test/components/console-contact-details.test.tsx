import assert from 'node:assert/strict';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, test } from 'vitest';
import type {
  BrandContactView,
  ConsoleCreator,
  CreatorContactView,
} from '@raly/contracts/internal';
import { messages } from '@raly/contracts/messages';
import { aBrandRecord } from '@raly/test-support/records';
import { consoleApi } from '@/features/console/api/console-api';
import { BrandLookup } from '@/features/console/components/brand-lookup';
import { CreatorLookup } from '@/features/console/components/creator-lookup';
import { aConsoleCreator, aSession, answerConsole, testLiveAddress } from './console-bff';
import { jsonAnswer, renderInApp } from './render';

const auditNote = 'Viewing contact details is recorded in the audit log.';

/** Renders the creator lookup for a moderator, finds `creator`; @returns the creator's row */
async function creatorRow(creator: ConsoleCreator) {
  renderInApp(
    <CreatorLookup
      api={consoleApi('/api', aSession('raly-moderator'), testLiveAddress)}
      canSetFlags
    />,
  );
  await userEvent.type(screen.getByLabelText('Username or e-mail'), creator.username);
  await userEvent.click(screen.getByRole('button', { name: 'Search' }));
  return screen.findByRole('listitem', { name: `@${creator.username}` });
}

describe('contact details on a console row', () => {
  test("when a moderator asks for a creator's contact details with a reason, then the reason goes to the BFF and the row shows the e-mail as a mailto link, the name and the audit note, until Hide", async () => {
    // Arrange
    const creator = aConsoleCreator();
    const view: CreatorContactView = {
      kind: 'creator',
      id: creator.id,
      email: `${creator.username}@raly.test`,
      firstName: 'Cleo',
      lastName: null,
    };
    const calls = answerConsole((call) =>
      jsonAnswer(200, { data: call.method === 'GET' ? [creator] : view }),
    );
    const row = await creatorRow(creator);

    // Act
    await userEvent.type(screen.getByLabelText('Reason for a decision'), 'Payout query');
    await userEvent.click(within(row).getByRole('button', { name: 'Show contact details' }));

    // Assert
    const details = await within(row).findByRole('region', { name: 'Contact details' });
    assert.equal(
      within(details).getByRole('link', { name: view.email }).getAttribute('href'),
      `mailto:${view.email}`,
    );
    within(details).getByText('Cleo');
    within(details).getByText(auditNote);
    assert.deepEqual(calls.at(-1), {
      method: 'POST',
      path: `/api/console/creators/${creator.id}/contact-view`,
      body: { reason: 'Payout query' },
    });
    assert.equal(within(row).queryByRole('button', { name: 'Show contact details' }), null);

    // Act
    await userEvent.click(within(details).getByRole('button', { name: 'Hide' }));

    // Assert
    assert.equal(within(row).queryByRole('region', { name: 'Contact details' }), null);
    assert.equal(within(row).queryByText(view.email), null);
    within(row).getByRole('button', { name: 'Show contact details' });
  });

  test('when the reason is empty or too short, then the row says the rule and nothing is sent', async () => {
    // Arrange
    const creator = aConsoleCreator();
    const calls = answerConsole(() => jsonAnswer(200, { data: [creator] }));
    const row = await creatorRow(creator);

    // Act
    await userEvent.click(within(row).getByRole('button', { name: 'Show contact details' }));
    const empty = (await within(row).findByRole('alert')).textContent;
    await userEvent.type(screen.getByLabelText('Reason for a decision'), 'ab');
    await userEvent.click(within(row).getByRole('button', { name: 'Show contact details' }));

    // Assert
    assert.equal(empty, messages.contactViewReasonRequired);
    assert.equal(within(row).getByRole('alert').textContent, messages.contactViewReasonRequired);
    assert.deepEqual(
      calls.map((call) => call.method),
      ['GET'],
    );
    assert.equal(within(row).queryByText(auditNote), null);
  });

  test("when the BFF refuses the view, then the row shows the BFF's words and no details", async () => {
    // Arrange
    const creator = aConsoleCreator();
    answerConsole((call) =>
      call.method === 'GET'
        ? jsonAnswer(200, { data: [creator] })
        : jsonAnswer(404, { error: { code: 'not-found', message: 'No such creator.' } }),
    );
    const row = await creatorRow(creator);

    // Act
    await userEvent.type(screen.getByLabelText('Reason for a decision'), 'Payout query');
    await userEvent.click(within(row).getByRole('button', { name: 'Show contact details' }));

    // Assert
    assert.equal((await within(row).findByRole('alert')).textContent, 'No such creator.');
    assert.equal(within(row).queryByRole('region', { name: 'Contact details' }), null);
  });

  test("when a moderator asks for a brand's contact details, then each member shows with name and e-mail, the admin marked", async () => {
    // Arrange
    const brand = aBrandRecord();
    const view: BrandContactView = {
      kind: 'brand',
      id: brand.id,
      members: [
        {
          userId: 'admin-1',
          email: 'ada@acme.test',
          firstName: 'Ada',
          lastName: 'Admin',
          isAdmin: true,
        },
        {
          userId: 'member-1',
          email: 'max@acme.test',
          firstName: null,
          lastName: null,
          isAdmin: false,
        },
      ],
    };
    const calls = answerConsole((call) =>
      jsonAnswer(200, { data: call.method === 'GET' ? [brand] : view }),
    );
    renderInApp(
      <BrandLookup
        api={consoleApi('/api', aSession('raly-moderator'), testLiveAddress)}
        canSetFlags={false}
      />,
    );
    await userEvent.type(screen.getByLabelText('Username or company'), brand.username);
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    const row = await screen.findByRole('listitem', { name: brand.company });

    // Act
    await userEvent.type(screen.getByLabelText('Reason for a decision'), 'Invoice dispute');
    await userEvent.click(within(row).getByRole('button', { name: 'Show contact details' }));

    // Assert
    const members = await within(row).findByRole('list', { name: 'Members' });
    const [admin, member] = within(members).getAllByRole('listitem');
    assert.equal(admin?.textContent, 'Ada Admin ada@acme.testAdmin');
    assert.equal(member?.textContent, 'max@acme.test');
    assert.equal(
      within(member!).getByRole('link', { name: 'max@acme.test' }).getAttribute('href'),
      'mailto:max@acme.test',
    );
    within(row).getByText(auditNote);
    assert.deepEqual(calls.at(-1), {
      method: 'POST',
      path: `/api/console/brands/${brand.id}/contact-view`,
      body: { reason: 'Invoice dispute' },
    });
  });
});
