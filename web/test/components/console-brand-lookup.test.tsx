import assert from 'node:assert/strict';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, test } from 'vitest';
import { messages } from '@raly/contracts/messages';
import type { BrandRecord } from '@raly/contracts/records';
import { aBrandRecord } from '@raly/test-support/records';
import { consoleApi } from '@/features/console/api/console-api';
import { BrandLookup } from '@/features/console/components/brand-lookup';
import type { StaffRole } from '@/features/console/services/console-session';
import { aSession, answerConsole, testLiveAddress, type ConsoleCall } from './console-bff';
import { jsonAnswer, renderInApp } from './render';

/** Renders the lookup for `role` and finds `brand`; @returns the brand's row */
async function lookUp(brand: BrandRecord, role: StaffRole) {
  const session = aSession(role);
  renderInApp(
    <BrandLookup
      api={consoleApi('/api', session, testLiveAddress)}
      canSetFlags={session.roles.includes('raly-admin')}
    />,
  );
  await userEvent.type(screen.getByLabelText('Username or company'), brand.username);
  await userEvent.click(screen.getByRole('button', { name: 'Search' }));
  return screen.findByRole('listitem', { name: brand.company });
}

/** The brand with its `permissions` changed as `body` asks (the BFF's answer to a decision). */
const decided = (brand: BrandRecord, body: unknown): BrandRecord => {
  const { suspended, isAgency } = body as { suspended?: boolean; isAgency?: boolean };
  return {
    ...brand,
    version: brand.version + 1,
    permissions: {
      ...brand.permissions,
      ...(suspended === undefined ? {} : { isSuspended: suspended }),
      ...(isAgency === undefined ? {} : { isAgency }),
    },
  };
};

/** A BFF that finds `brand` and answers each decision with the brand as decided. */
const aConsoleBff = (brand: BrandRecord) => (call: ConsoleCall) =>
  call.method === 'GET'
    ? jsonAnswer(200, { data: [brand] })
    : jsonAnswer(200, { data: decided(brand, call.body) });

describe("the console's brand rows", () => {
  test('when a moderator suspends a brand with a reason, then the decision goes to the BFF, the row shows Suspended and "Lift suspension", and no flag shows', async () => {
    // Arrange
    const brand = aBrandRecord();
    const calls = answerConsole(aConsoleBff(brand));
    const row = await lookUp(brand, 'raly-moderator');

    // Act
    await userEvent.type(screen.getByLabelText('Reason for a decision'), 'Fake giveaways');
    await userEvent.click(within(row).getByRole('button', { name: 'Suspend' }));

    // Assert
    await within(row).findByRole('button', { name: 'Lift suspension' });
    within(row).getByText('Suspended', { exact: true });
    assert.deepEqual(calls.at(-1), {
      method: 'PUT',
      path: `/api/console/brands/${brand.id}/suspension`,
      body: { suspended: true, reason: 'Fake giveaways' },
    });
    assert.equal(within(row).queryByRole('switch', { name: 'Agency' }), null);
  });

  test("when a suspension has no reason, then the row says 'Give a reason for the suspension.' and nothing is sent", async () => {
    // Arrange
    const brand = aBrandRecord();
    const calls = answerConsole(aConsoleBff(brand));
    const row = await lookUp(brand, 'raly-moderator');

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

  test("when the BFF refuses a decision, then its message shows on the brand's row and the brand stays as it was", async () => {
    // Arrange
    const brand = aBrandRecord();
    answerConsole((call) =>
      call.method === 'GET'
        ? jsonAnswer(200, { data: [brand] })
        : jsonAnswer(503, {
            error: { code: 'unavailable', message: 'The brand service is unavailable.' },
          }),
    );
    const row = await lookUp(brand, 'raly-moderator');

    // Act
    await userEvent.type(screen.getByLabelText('Reason for a decision'), 'Fake giveaways');
    await userEvent.click(within(row).getByRole('button', { name: 'Suspend' }));

    // Assert
    assert.equal(
      (await within(row).findByRole('alert')).textContent,
      'The brand service is unavailable.',
    );
    within(row).getByRole('button', { name: 'Suspend' });
    assert.equal(within(row).queryByText('Suspended', { exact: true }), null);
  });

  test('when an administrator turns the Agency switch on, then the BFF gets the flag alone and the switch shows it on', async () => {
    // Arrange
    const brand = aBrandRecord();
    const calls = answerConsole(aConsoleBff(brand));
    const row = await lookUp(brand, 'raly-admin');
    const agency = within(row).getByRole('switch', { name: 'Agency' });
    assert.equal((agency as HTMLInputElement).checked, false);

    // Act
    await userEvent.click(agency);

    // Assert
    await waitFor(() =>
      assert.equal(
        (within(row).getByRole('switch', { name: 'Agency' }) as HTMLInputElement).checked,
        true,
      ),
    );
    assert.deepEqual(calls.at(-1), {
      method: 'PUT',
      path: `/api/console/brands/${brand.id}/flags`,
      body: { isAgency: true },
    });
  });
});
