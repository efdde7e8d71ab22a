import assert from 'node:assert/strict';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, test } from 'vitest';
import type { ConsoleCreator } from '@raly/contracts/internal';
import { messages } from '@raly/contracts/messages';
import { consoleApi } from '@/features/console/api/console-api';
import { CreatorLookup } from '@/features/console/components/creator-lookup';
import type { StaffRole } from '@/features/console/services/console-session';
import {
  aConsoleCreator,
  aSession,
  answerConsole,
  testLiveAddress,
  type ConsoleCall,
} from './console-bff';
import { jsonAnswer, renderInApp } from './render';

/** A BFF that finds `creator` and answers each decision with the creator as decided. */
const aConsoleBff = (creator: ConsoleCreator) => (call: ConsoleCall) => {
  if (call.method === 'GET') return jsonAnswer(200, { data: [creator] });
  const { suspended, isBoosted, isAmbassador } = call.body as Record<string, boolean | undefined>;
  const decided = { isSuspended: suspended, isBoosted, isAmbassador };
  return jsonAnswer(200, {
    data: {
      ...creator,
      permissions: {
        ...creator.permissions,
        ...Object.fromEntries(Object.entries(decided).filter(([, value]) => value !== undefined)),
      },
    },
  });
};

/** Renders the creator lookup for `role` and searches `query`. */
async function search(query: string, role: StaffRole) {
  const session = aSession(role);
  renderInApp(
    <CreatorLookup
      api={consoleApi('/api', session, testLiveAddress)}
      canSetFlags={session.roles.includes('raly-admin')}
    />,
  );
  await userEvent.type(screen.getByLabelText('Username or e-mail'), query);
  await userEvent.click(screen.getByRole('button', { name: 'Search' }));
}

describe("the console's creator rows", () => {
  test('when a moderator finds a creator and suspends them with a reason, then the decision goes to the BFF, the row shows Suspended and "Lift suspension", and no flag shows', async () => {
    // Arrange
    const creator = aConsoleCreator();
    const calls = answerConsole(aConsoleBff(creator));
    await search(creator.username.slice(0, 5), 'raly-moderator');
    const row = await screen.findByRole('listitem', { name: `@${creator.username}` });

    // Act
    await userEvent.type(screen.getByLabelText('Reason for a decision'), 'Spam in applications');
    await userEvent.click(within(row).getByRole('button', { name: 'Suspend' }));

    // Assert
    await within(row).findByRole('button', { name: 'Lift suspension' });
    within(row).getByText('Suspended', { exact: true });
    assert.deepEqual(
      calls.map((call) => [call.method, call.path, call.body]),
      [
        ['GET', `/api/console/creators?query=${creator.username.slice(0, 5)}`, undefined],
        [
          'PUT',
          `/api/console/creators/${creator.id}/suspension`,
          { suspended: true, reason: 'Spam in applications' },
        ],
      ],
    );
    assert.equal(within(row).queryByRole('switch'), null);
  });

  test("when a suspension has no reason, then the row says 'Give a reason for the suspension.' and nothing is sent", async () => {
    // Arrange
    const creator = aConsoleCreator();
    const calls = answerConsole(aConsoleBff(creator));
    await search(creator.username, 'raly-moderator');
    const row = await screen.findByRole('listitem', { name: `@${creator.username}` });

    // Act
    await userEvent.click(within(row).getByRole('button', { name: 'Suspend' }));

    // Assert
    assert.equal(
      (await within(row).findByRole('alert')).textContent,
      messages.suspensionReasonRequired,
    );
    assert.deepEqual(
      calls.map((call) => call.method),
      ['GET'],
    );
  });

  test('when an administrator turns Boosted on, then the BFF gets that flag alone and the switch shows it on, Ambassador still off', async () => {
    // Arrange
    const creator = aConsoleCreator();
    const calls = answerConsole(aConsoleBff(creator));
    await search(creator.username, 'raly-admin');
    const row = await screen.findByRole('listitem', { name: `@${creator.username}` });

    // Act
    await userEvent.click(within(row).getByRole('switch', { name: 'Boosted' }));

    // Assert
    await waitFor(() =>
      assert.equal(
        (within(row).getByRole('switch', { name: 'Boosted' }) as HTMLInputElement).checked,
        true,
      ),
    );
    assert.equal(
      (within(row).getByRole('switch', { name: 'Ambassador' }) as HTMLInputElement).checked,
      false,
    );
    assert.deepEqual(calls.at(-1), {
      method: 'PUT',
      path: `/api/console/creators/${creator.id}/flags`,
      body: { isBoosted: true },
    });
  });

  test('when the query is shorter than 3 characters, then the form says so and nothing is sent', async () => {
    // Arrange
    const calls = answerConsole(aConsoleBff(aConsoleCreator()));

    // Act
    await search('ab', 'raly-moderator');

    // Assert
    assert.equal((await screen.findByRole('alert')).textContent, messages.creatorQueryTooShort);
    assert.deepEqual(calls, []);
  });
});
