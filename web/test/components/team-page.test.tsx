/**
 * /brand/team: members by handle and role; an admin sees the role and
 * removal commands, the invite form and the pending invitations, a member
 * only the list and "Leave the team"; a member without a handle is asked to
 * choose one; a refusal of the service shows its text; a newer team pushed
 * live (`team.updated`) replaces the list (and reads the invitations again
 * when their number changed), an older one does not.
 */
import assert from 'node:assert/strict';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, test, vi } from 'vitest';
import type { Me } from '@raly/contracts/bff-api';
import { messages } from '@raly/contracts/messages';
import type { Invitation, TeamMember, TeamRecord } from '@raly/contracts/teams';
import { aUserRecord } from '@raly/test-support/records';
import { Toaster } from '@/components/ui/toaster';
import { TeamPage } from '@/features/team/components/team-page';
import { live } from './fake-live';
import { answerBff, jsonAnswer, renderInApp, type BffCall } from './render';

// One fake socket for the live pushes, and a signed-in session so that the team follows it.
vi.mock('@/lib/live-socket', () =>
  import('./fake-live').then(({ live }) => ({ liveSocket: () => live.socket })),
);
vi.mock('@/lib/session', async (original) => ({
  ...(await original<typeof import('@/lib/session')>()),
  getSessionSnapshot: () => ({ status: 'signed-in', userId: 'user-1' }),
}));

const brandId = 'brand-1';
const aMember = (userId: string, handle: string | null, isAdmin = false): TeamMember => ({
  userId,
  handle,
  isAdmin,
  joined: '2026-11-01T10:00:00.000Z',
});
const aTeam = (members: TeamMember[], version = 3): TeamRecord => ({
  id: brandId,
  version,
  members,
  pendingInvitations: 0,
  lastChange: null,
});
const anInvitation = (email: string): Invitation => ({
  id: `invitation-${email}`,
  email,
  expiresAt: '2026-12-04T10:00:00.000Z',
  created: '2026-11-27T10:00:00.000Z',
});
const meAs = (isAdmin: boolean): Me => ({
  user: aUserRecord({ id: 'user-1', brand: { id: brandId, isAdmin } }),
  brand: null,
});

/** Answers the team, the invitations and, for commands, `command(call)`. */
function answerTeam(
  team: TeamRecord,
  invitations: Invitation[],
  command: (call: BffCall) => Response = () => jsonAnswer(500, {}),
) {
  return answerBff((call) => {
    if (call.method === 'GET' && call.path === '/api/brand/team')
      return jsonAnswer(200, { data: team });
    if (call.method === 'GET' && call.path === '/api/brand/invitations')
      return jsonAnswer(200, { data: invitations });
    return command(call);
  });
}

const renderPage = (me: Me) =>
  renderInApp(
    <>
      <TeamPage me={me} />
      <Toaster />
    </>,
    { route: '/brand/team' },
  );

const memberRows = async () =>
  within(await screen.findByRole('list', { name: 'Members' }))
    .getAllByRole('listitem')
    .map((row) => row.textContent ?? '');

describe('the team page', () => {
  test('when an admin opens it, then members show by handle and role with the admin commands, the invite form and the pending invitations', async () => {
    answerTeam(aTeam([aMember('user-1', 'acmeboss', true), aMember('user-2', 'acmejoe')]), [
      anInvitation('new@example.test'),
    ]);

    renderPage(meAs(true));

    const rows = await memberRows();
    assert.equal(rows.length, 2);
    assert.match(rows[0]!, /acmeboss \(you\)Admin/);
    assert.match(rows[1]!, /acmejoeMember/);
    assert.ok(screen.getByRole('button', { name: 'Make admin: acmejoe' }));
    assert.ok(screen.getByRole('button', { name: 'Remove acmejoe' }));
    assert.ok(screen.getByRole('form', { name: 'Invite a member' }));
    const pending = await screen.findByRole('list', { name: 'Pending invitations' });
    assert.match(pending.textContent ?? '', /new@example\.test/);
    assert.ok(screen.getByRole('button', { name: 'Leave the team' }));
  });

  test('when a member opens it, then they see the list and Leave only, and no admin command', async () => {
    const calls = answerTeam(
      aTeam([aMember('user-2', 'acmeboss', true), aMember('user-1', 'acmejoe')]),
      [],
    );

    renderPage(meAs(false));

    const rows = await memberRows();
    assert.match(rows[1]!, /acmejoe \(you\)Member/);
    assert.equal(screen.queryByRole('button', { name: /Make admin|Remove admin|Remove / }), null);
    assert.equal(screen.queryByRole('form', { name: 'Invite a member' }), null);
    assert.ok(screen.getByRole('button', { name: 'Leave the team' }));
    assert.ok(!calls.some((call) => call.path === '/api/brand/invitations'));
  });

  test('when an admin invites an e-mail, then the BFF gets { email }, the new invitation lists and the form empties', async () => {
    const team = aTeam([aMember('user-1', 'acmeboss', true)]);
    const calls = answerTeam(team, [], (call) =>
      call.method === 'POST' && call.path === '/api/brand/invitations'
        ? jsonAnswer(201, {
            data: {
              team: { ...team, version: 4, pendingInvitations: 1 },
              invitations: [anInvitation('sam@example.test')],
            },
          })
        : jsonAnswer(500, {}),
    );
    renderPage(meAs(true));

    const email = await screen.findByLabelText('Email');
    await userEvent.type(email, 'sam@example.test');
    await userEvent.click(screen.getByRole('button', { name: 'Send invitation' }));

    await screen.findByText(messages.invitationSent);
    const invites = calls.filter((call) => call.method === 'POST');
    assert.deepEqual(invites, [
      { method: 'POST', path: '/api/brand/invitations', body: { email: 'sam@example.test' } },
    ]);
    const pending = await screen.findByRole('list', { name: 'Pending invitations' });
    assert.match(pending.textContent ?? '', /sam@example\.test/);
    assert.equal((email as HTMLInputElement).value, '');
  });

  test('when the service refuses to demote the last admin, then its message shows and the role stays', async () => {
    const calls = answerTeam(aTeam([aMember('user-1', 'acmeboss', true)]), [], () =>
      jsonAnswer(409, { error: { code: 'conflict', message: messages.lastAdmin } }),
    );
    renderPage(meAs(true));

    await userEvent.click(await screen.findByRole('button', { name: 'Remove admin: acmeboss' }));

    await screen.findByText(messages.lastAdmin);
    assert.deepEqual(
      calls.filter((call) => call.method === 'PATCH'),
      [{ method: 'PATCH', path: '/api/brand/members/user-1', body: { isAdmin: false } }],
    );
    assert.match((await memberRows())[0]!, /Admin/);
  });

  test('when a newer team is pushed live, then the list follows it (and the invitations when their number changed), and an older one is ignored', async () => {
    const calls = answerTeam(aTeam([aMember('user-1', 'acmeboss', true)], 3), []);
    const invitationReads = () =>
      calls.filter((call) => call.path === '/api/brand/invitations').length;
    renderPage(meAs(true));
    assert.equal((await memberRows()).length, 1);
    await waitFor(() => assert.equal(invitationReads(), 1));
    await waitFor(() => assert.ok(live.listeners.get('team.updated')?.size));

    act(() =>
      live.push(
        'team.updated',
        aTeam([aMember('user-1', 'acmeboss', true), aMember('user-3', 'acmesue')], 4),
      ),
    );
    await waitFor(async () => assert.equal((await memberRows()).length, 2));
    act(() =>
      live.push('team.updated', {
        ...aTeam([aMember('user-1', 'acmeboss', true), aMember('user-3', 'acmesue')], 5),
        pendingInvitations: 1,
      }),
    );
    await waitFor(() => assert.equal(invitationReads(), 2));
    await act(async () =>
      live.push('team.updated', aTeam([aMember('user-1', 'acmeboss', true)], 2)),
    );
    // A cache change reaches the page a task later: give a wrong one the time to show.
    await new Promise((resolve) => setTimeout(resolve, 50));

    assert.match((await memberRows())[1]!, /acmesue/);
  });

  test('when a member has no handle yet, then they choose one and the BFF gets { handle }', async () => {
    const calls = answerTeam(aTeam([aMember('user-1', null, true)]), [], (call) =>
      call.method === 'PUT'
        ? jsonAnswer(200, { data: aTeam([aMember('user-1', 'founder', true)], 4) })
        : jsonAnswer(500, {}),
    );
    renderPage(meAs(true));

    await userEvent.type(await screen.findByLabelText('Handle'), 'founder');
    await userEvent.click(screen.getByRole('button', { name: 'Save handle' }));

    await screen.findByText(messages.handleSaved);
    assert.deepEqual(
      calls.filter((call) => call.method === 'PUT'),
      [{ method: 'PUT', path: '/api/brand/members/me/handle', body: { handle: 'founder' } }],
    );
    await waitFor(async () => assert.match((await memberRows())[0]!, /founder \(you\)/));
    assert.equal(screen.queryByRole('form', { name: 'Choose your handle' }), null);
  });

  test('when an admin removes a member, then a confirmation is asked before the BFF is', async () => {
    const calls = answerTeam(
      aTeam([aMember('user-1', 'acmeboss', true), aMember('user-2', 'acmejoe')]),
      [],
      (call) =>
        call.method === 'DELETE'
          ? jsonAnswer(200, { data: aTeam([aMember('user-1', 'acmeboss', true)], 4) })
          : jsonAnswer(500, {}),
    );
    renderPage(meAs(true));

    await userEvent.click(await screen.findByRole('button', { name: 'Remove acmejoe' }));
    assert.ok(!calls.some((call) => call.method === 'DELETE'));
    await userEvent.click(screen.getByRole('button', { name: 'Remove member' }));

    await screen.findByText(messages.memberRemoved);
    assert.deepEqual(
      calls.filter((call) => call.method === 'DELETE').map((call) => call.path),
      ['/api/brand/members/user-2'],
    );
    await waitFor(async () => assert.equal((await memberRows()).length, 1));
  });
});
