/**
 * /settings/notifications (docs/product-spec.md §12.5): the side menu links
 * it; a table of categories by channel ('In app', 'E-mail') with a checkbox
 * per switch, labelled for assistive technology; 'Save' sends only the
 * switches changed and says so in the toast, or shows the BFF's error text;
 * brand users see no offers row; the account form's offers switch, when
 * off, disables the offers row; a category's e-mail follows its in-app
 * switch and the e-mail digest.
 */
import assert from 'node:assert/strict';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, test } from 'vitest';
import { messages } from '@raly/contracts/messages';
import {
  defaultNotificationPreferences,
  type NotificationPreferences,
} from '@raly/contracts/notifications';
import type { UserRecord } from '@raly/contracts/records';
import { aBrandRecord, aUserRecord } from '@raly/test-support/records';
import { SettingsNotificationsRoute } from '@/app/routes/settings/notifications';
import { Toaster } from '@/components/ui/toaster';
import { answerBff, jsonAnswer, renderInApp, type BffCall } from './render';

/** Answers GET /api/me with `user` and the preferences' GET and PUT (`put` decides the PUT). */
function answerWith(
  user: UserRecord,
  preferences: NotificationPreferences,
  put: (call: BffCall) => Response = (call) =>
    jsonAnswer(200, { data: merged(preferences, call.body as Partial<NotificationPreferences>) }),
) {
  const brand = user.brand?.id ? aBrandRecord({ id: user.brand.id }) : null;
  return answerBff((call) => {
    if (call.path === '/api/me') return jsonAnswer(200, { data: { user, brand } });
    if (call.path === '/api/notifications/preferences')
      return call.method === 'PUT' ? put(call) : jsonAnswer(200, { data: preferences });
    return jsonAnswer(404, {});
  });
}

const merged = (
  preferences: NotificationPreferences,
  update: Partial<NotificationPreferences>,
): NotificationPreferences => {
  const next = structuredClone(preferences) as unknown as Record<string, Record<string, boolean>>;
  for (const [category, channels] of Object.entries(update))
    Object.assign(next[category]!, channels);
  return next as unknown as NotificationPreferences;
};

const render = () =>
  renderInApp(
    <>
      <SettingsNotificationsRoute />
      <Toaster />
    </>,
    { route: '/settings/notifications' },
  );

const box = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;

const aCreator = (offers = true) =>
  aUserRecord({ id: 'user-1', notifications: { offers, marketing: true } });

describe('the notification settings', () => {
  test('when a creator opens it, then the menu links it and the table shows every category by channel, all on', async () => {
    answerWith(aCreator(), defaultNotificationPreferences());

    render();

    const table = await screen.findByRole('table', { name: 'Notifications' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    assert.deepEqual(headers, ['Notification', 'In app', 'E-mail']);
    const rows = within(table)
      .getAllByRole('rowheader')
      .map((cell) => cell.textContent);
    assert.equal(rows.length, 4);
    assert.match(rows[0]!, /^New offersOffers that open in one of your interests\.$/);
    assert.match(rows[1]!, /^Applications/);
    assert.match(rows[2]!, /^Collaborations/);
    assert.match(rows[3]!, /^E-mail digest/);
    for (const name of [
      'New offers: In app',
      'New offers: E-mail',
      'Applications: In app',
      'Applications: E-mail',
      'Collaborations: In app',
      'Collaborations: E-mail',
      'E-mail digest: E-mail',
    ])
      assert.equal(box(name).checked, true, name);
    assert.equal(screen.queryByRole('checkbox', { name: 'E-mail digest: In app' }), null);
    const menu = screen.getByRole('navigation', { name: 'Settings' });
    assert.equal(
      within(menu).getByRole('link', { name: 'Notifications' }).getAttribute('href'),
      '/settings/notifications',
    );
    assert.equal(
      (screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled,
      true,
    );
  });

  test('when switches are changed and saved, then only those are sent and the toast says saved', async () => {
    const calls = answerWith(aCreator(), defaultNotificationPreferences());
    render();
    await screen.findByRole('table', { name: 'Notifications' });

    await userEvent.click(box('Collaborations: E-mail'));
    await userEvent.click(box('New offers: In app'));
    await userEvent.click(box('New offers: In app'));
    await userEvent.click(box('Applications: In app'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await screen.findByText(messages.notificationPreferencesSaved);
    assert.deepEqual(
      calls.filter((call) => call.method === 'PUT'),
      [
        {
          method: 'PUT',
          path: '/api/notifications/preferences',
          body: { applications: { in_app: false }, collaborations: { email: false } },
        },
      ],
    );
    assert.equal(box('Collaborations: E-mail').checked, false);
    assert.equal(box('Applications: In app').checked, false);
    // E-mails are digests of in-app items: with in-app off the e-mail box is off and disabled.
    assert.equal(box('Applications: E-mail').checked, false);
    assert.equal(box('Applications: E-mail').disabled, true);
    await waitFor(() =>
      assert.equal(
        (screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled,
        true,
      ),
    );
  });

  test('when the BFF refuses the change, then its error text shows and the switch stays as the person set it', async () => {
    answerWith(aCreator(), defaultNotificationPreferences(), () =>
      jsonAnswer(400, {
        error: { code: 'invalid-argument', message: messages.notificationPreferencesInvalid },
      }),
    );
    render();
    await screen.findByRole('table', { name: 'Notifications' });

    await userEvent.click(box('E-mail digest: E-mail'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await screen.findByText(messages.notificationPreferencesInvalid);
    assert.equal(box('E-mail digest: E-mail').checked, false);
    assert.equal(box('Collaborations: E-mail').disabled, true);
  });

  test('when a brand user opens it, then there is no offers row', async () => {
    answerWith(
      aUserRecord({ id: 'user-1', brand: { id: 'brand-1', isAdmin: true } }),
      defaultNotificationPreferences(),
    );

    render();

    const table = await screen.findByRole('table', { name: 'Notifications' });
    assert.equal(within(table).queryByText('New offers'), null);
    assert.equal(within(table).getAllByRole('rowheader').length, 3);
    assert.equal(screen.queryByRole('checkbox', { name: /^New offers/ }), null);
  });

  test("when a creator's offer notifications are off in Account, then the offers row says so and cannot be changed", async () => {
    answerWith(aCreator(false), defaultNotificationPreferences());

    render();

    await screen.findByRole('table', { name: 'Notifications' });
    for (const name of ['New offers: In app', 'New offers: E-mail']) {
      assert.equal(box(name).disabled, true, name);
      assert.equal(box(name).checked, false, name);
    }
    const hint = screen.getByText(/Offer notifications are off in/);
    assert.match(hint.textContent ?? '', /turn them on there first/);
    assert.equal(
      within(hint).getByRole('link', { name: 'Account' }).getAttribute('href'),
      '/settings/account',
    );
  });
});
