/**
 * /join/team?token=…: the invitation's preview (brand company, invited
 * e-mail, expiry), registration as a member (the body of POST
 * /api/accounts/members, then the sign-in with the answered TokenSet), and
 * the message of a link that is not valid; a signed-in user without a
 * brand joins with a handle, one already in a brand is told so, and a
 * signed-in creator is told at once that creators cannot join, with a way
 * to sign out.
 */
import assert from 'node:assert/strict';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, test, vi } from 'vitest';
import type { Me, TokenSet } from '@raly/contracts/bff-api';
import { messages } from '@raly/contracts/messages';
import type { InvitationPreview } from '@raly/contracts/teams';
import { aUserRecord } from '@raly/test-support/records';
import type { SessionState } from '@/lib/session';
import { Toaster } from '@/components/ui/toaster';
import { JoinTeamPage } from '@/features/team/components/join-team-page';
import { answerBff, jsonAnswer, renderInApp } from './render';

// A visitor: no session; the sign-in after registration is recorded, not run (Keycloak is outside).
const session = vi.hoisted(() => ({
  signedIn: [] as unknown[],
  signedOut: 0,
  // One snapshot object: useSyncExternalStore needs a stable one.
  snapshot: { status: 'signed-out' } as SessionState,
}));
vi.mock('@/lib/session', async (original) => ({
  ...(await original<typeof import('@/lib/session')>()),
  getSessionSnapshot: () => session.snapshot,
  signIn: async (tokens: unknown) => {
    session.signedIn.push(tokens);
  },
  signOut: async () => {
    session.signedOut += 1;
  },
}));

afterEach(() => {
  session.snapshot = { status: 'signed-out' };
});

const preview: InvitationPreview = {
  brandId: 'brand-1',
  company: 'Acme Drinks',
  brandUsername: 'acme',
  email: 'sam@example.test',
  expiresAt: '2026-12-04T10:00:00.000Z',
};
const tokens: TokenSet = {
  accessToken: 'access',
  refreshToken: 'refresh',
  idToken: 'id',
  expiresIn: 300,
  refreshExpiresIn: 1800,
};

const renderPage = (token: string) =>
  renderInApp(
    <>
      <JoinTeamPage />
      <Toaster />
    </>,
    { route: `/join/team?token=${token}` },
  );

describe('the invitation landing page', () => {
  test('when the link is valid, then the brand, the invited e-mail and the expiry show', async () => {
    const calls = answerBff((call) =>
      call.path === '/api/invitations/preview'
        ? jsonAnswer(200, { data: preview })
        : jsonAnswer(500, {}),
    );

    renderPage('tok-1');

    const summary = await screen.findByTestId('invitation-preview');
    assert.match(summary.textContent ?? '', /Acme Drinks invites sam@example\.test/);
    assert.match(summary.textContent ?? '', /expires on Dec 4, 2026/);
    assert.deepEqual(calls[0], {
      method: 'POST',
      path: '/api/invitations/preview',
      body: { token: 'tok-1' },
    });
    assert.equal((screen.getByLabelText('Email') as HTMLInputElement).value, 'sam@example.test');
  });

  test('when a visitor registers, then the BFF gets the member registration with the token, and the answered tokens sign them in', async () => {
    session.signedIn.length = 0;
    const calls = answerBff((call) =>
      call.path === '/api/invitations/preview'
        ? jsonAnswer(200, { data: preview })
        : call.path === '/api/accounts/members'
          ? jsonAnswer(201, { data: tokens })
          : jsonAnswer(500, {}),
    );
    renderPage('tok-1');

    await userEvent.type(await screen.findByLabelText('First name'), 'Sam');
    await userEvent.type(screen.getByLabelText('Last name'), 'Stone');
    await userEvent.type(screen.getByLabelText('Handle'), 'samstone');
    await userEvent.type(screen.getByLabelText('Password'), 'Sup3r-secret!');
    await userEvent.type(screen.getByLabelText('Confirm password'), 'Sup3r-secret!');
    await userEvent.click(screen.getByLabelText('I agree to the terms and conditions'));
    await userEvent.click(screen.getByRole('button', { name: 'Join the team' }));

    await waitFor(() => assert.deepEqual(session.signedIn, [tokens]));
    assert.deepEqual(
      calls.filter((call) => call.path === '/api/accounts/members').map((call) => call.body),
      [
        {
          token: 'tok-1',
          handle: 'samstone',
          email: 'sam@example.test',
          password: 'Sup3r-secret!',
          confirmPassword: 'Sup3r-secret!',
          firstName: 'Sam',
          lastName: 'Stone',
          agreeTerms: true,
        },
      ],
    );
  });

  test('when the link has expired, then the message of the BFF shows and no form', async () => {
    answerBff(() =>
      jsonAnswer(409, { error: { code: 'conflict', message: messages.invitationExpired } }),
    );

    renderPage('tok-old');

    await screen.findByText(messages.invitationExpired);
    assert.equal(screen.queryByRole('button', { name: 'Join the team' }), null);
  });

  test('when the link carries no token, then the invalid link message shows without asking the BFF', async () => {
    const calls = answerBff(() => jsonAnswer(500, {}));

    renderPage('');

    await screen.findByText(messages.invitationInvalid);
    assert.deepEqual(calls, []);
  });

  test('when a signed-in user without a brand joins and is refused, then the BFF got the token and their handle and its message shows', async () => {
    session.snapshot = { status: 'signed-in', userId: 'user-9' };
    const me: Me = {
      user: aUserRecord({ id: 'user-9', brand: null, onboarding: { terms: true, brand: true } }),
      brand: null,
    };
    const calls = answerBff((call) =>
      call.path === '/api/invitations/preview'
        ? jsonAnswer(200, { data: preview })
        : call.path === '/api/me'
          ? jsonAnswer(200, { data: me })
          : jsonAnswer(409, {
              error: { code: 'conflict', message: messages.invitationUsed },
            }),
    );
    renderPage('tok-1');

    await userEvent.type(await screen.findByLabelText('Handle'), 'samstone');
    await userEvent.click(screen.getByRole('button', { name: 'Join the team' }));

    await screen.findByText(messages.invitationUsed);
    assert.deepEqual(
      calls.filter((call) => call.path === '/api/me/team').map((call) => call.body),
      [{ token: 'tok-1', handle: 'samstone' }],
    );
    assert.equal(screen.queryByLabelText('Password'), null);
  });

  test('when a signed-in creator opens a link, then the refusal shows before any submit, with no form, and Log out signs them out', async () => {
    session.snapshot = { status: 'signed-in', userId: 'user-9' };
    session.signedOut = 0;
    const me: Me = { user: aUserRecord({ id: 'user-9', brand: null }), brand: null };
    const calls = answerBff((call) =>
      call.path === '/api/invitations/preview'
        ? jsonAnswer(200, { data: preview })
        : call.path === '/api/me'
          ? jsonAnswer(200, { data: me })
          : jsonAnswer(500, {}),
    );
    renderPage('tok-1');

    await screen.findByText(messages.creatorCannotJoinBrand);
    assert.equal(screen.queryByLabelText('Handle'), null);
    assert.equal(screen.queryByRole('button', { name: 'Join the team' }), null);
    await userEvent.click(
      screen.getByRole('button', { name: 'Log out to join with another account' }),
    );
    assert.equal(session.signedOut, 1);
    assert.deepEqual(
      calls.filter((call) => call.path === '/api/me/team'),
      [],
    );
  });

  test('when a signed-in user already in a brand opens a link, then they are told so and no form shows', async () => {
    session.snapshot = { status: 'signed-in', userId: 'user-9' };
    const me: Me = {
      user: aUserRecord({
        id: 'user-9',
        brand: { id: 'brand-2', isAdmin: false },
        onboarding: { terms: true, brand: true },
      }),
      brand: null,
    };
    answerBff((call) =>
      call.path === '/api/invitations/preview'
        ? jsonAnswer(200, { data: preview })
        : jsonAnswer(200, { data: me }),
    );

    renderPage('tok-1');

    await screen.findByText(messages.alreadyInABrand);
    assert.equal(screen.queryByRole('button', { name: 'Join the team' }), null);
  });
});
