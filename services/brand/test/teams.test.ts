import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { INVITATIONS_PER_WINDOW } from '@raly/contracts/constants';
import { eventTypes, topics } from '@raly/contracts/events';
import { messages } from '@raly/contracts/messages';
import type { Invitation, TeamRecord } from '@raly/contracts/teams';
import {
  callApi as call,
  eventually,
  listenToTopic,
  type TopicListener,
  uniqueToken,
  waitForMail,
} from '@raly/test-support';
import { type RalySystem, registeredBrand, startSystem } from '@raly/test-support/system';

let system: RalySystem;
let teamEvents: TopicListener;

beforeAll(async () => {
  system = await startSystem();
  teamEvents = await listenToTopic(system.stack.kafkaBrokers, topics.brandTeam);
});

afterAll(async () => {
  await teamEvents.stop();
  await system.stop();
});

type Admin = Awaited<ReturnType<typeof registeredBrand>>;

const asUser = <T>(token: string, method: string, path: string, body?: unknown) =>
  call<T>(system.brandUrl, method, path, { body, token });

const asIdentity = <T>(path: string, body: unknown) =>
  call<T>(system.brandUrl, 'POST', path, { body, serviceToken: system.serviceTokens.identity });

/** A fresh invited address; its mail's link carries the token. */
const newEmail = () => `tm${uniqueToken(10)}@raly.test`;

/** Invites `email` as `admin` and reads the token from the mail the catcher caught. */
async function invite(admin: Admin, email = newEmail()) {
  const answer = await asUser<{ team: TeamRecord; invitations: Invitation[] }>(
    admin.accessToken,
    'POST',
    `/brands/${admin.brandId}/invitations`,
    { email },
  );
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  const mail = await waitForMail(email);
  const token = new URL(/https?:\/\/\S+/.exec(mail.text)![0]).searchParams.get('token')!;
  return { email, token, mail, answer: answer.body.data! };
}

/** Joins the admin's brand through an invitation as a made-up user (identity-profile's call). */
async function join(admin: Admin, handle = `h${uniqueToken(8)}`) {
  const { email, token } = await invite(admin);
  const userId = `u-${uniqueToken(12)}`;
  const answer = await asIdentity<{ brandId: string; team: TeamRecord }>('/invitations/accept', {
    token,
    userId,
    email,
    handle,
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return { userId, handle, email, token };
}

describe('invitations', () => {
  test('when an admin invites an e-mail, then a mail names the brand (never the inviter) and carries a single-use link whose token only hashed is stored', async () => {
    // Arrange
    const admin = await registeredBrand(system);

    // Act
    const { mail, token, answer, email } = await invite(admin);

    // Assert
    assert.match(mail.subject, new RegExp(admin.registration.company));
    assert.ok(mail.text.includes('/join/team?token='));
    for (const secret of [
      admin.registration.firstName,
      admin.registration.lastName,
      admin.registration.email,
    ])
      assert.ok(!mail.text.includes(secret) && !mail.html.includes(secret), secret);
    assert.equal(answer.team.pendingInvitations, 1);
    assert.deepEqual(
      answer.invitations.map((invitation) => invitation.email),
      [email],
    );
    const { rows } = await system.sql.brand.query(
      'SELECT token_hash, round(extract(epoch FROM expires_at - created) / 86400) AS days FROM brand_invitations WHERE email = $1',
      [email],
    );
    assert.notEqual(rows[0].token_hash, token);
    assert.equal(Number(rows[0].days), 7);
  });

  test('when a member who is not an admin invites, lists or cancels, then each is refused 403', async () => {
    // Arrange
    const admin = await registeredBrand(system);
    const { userId } = await join(admin);
    const promoted = await registeredBrand(system);
    // The joined member has no token of their own: a non-admin's view is checked with the
    // promoted-then-demoted founder of another brand instead.
    await system.sql.brand.query('UPDATE brand_members SET is_admin = false WHERE user_id = $1', [
      promoted.userId,
    ]);

    // Act
    const answers = await Promise.all([
      asUser(promoted.accessToken, 'POST', `/brands/${promoted.brandId}/invitations`, {
        email: newEmail(),
      }),
      asUser(promoted.accessToken, 'GET', `/brands/${promoted.brandId}/invitations`),
      asUser(promoted.accessToken, 'PATCH', `/brands/${promoted.brandId}/members/${userId}`, {
        isAdmin: true,
      }),
      asUser(admin.accessToken, 'POST', `/brands/${promoted.brandId}/invitations`, {
        email: newEmail(),
      }),
    ]);

    // Assert
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [403, 403, 403, 403],
    );
    assert.equal(answers[0]!.body.error?.message, messages.onlyAdminsCan);
  });

  test('when an invitation is used, cancelled or expired, then accepting it is refused with its message and the team is unchanged', async () => {
    // Arrange
    const admin = await registeredBrand(system);
    const used = await join(admin);
    const cancelled = await invite(admin);
    const expired = await invite(admin);
    const [{ id: cancelledId }] = (
      await system.sql.brand.query('SELECT id FROM brand_invitations WHERE email = $1', [
        cancelled.email,
      ])
    ).rows;
    const cancel = await asUser(
      admin.accessToken,
      'DELETE',
      `/brands/${admin.brandId}/invitations/${cancelledId}`,
    );
    await system.sql.brand.query(
      "UPDATE brand_invitations SET expires_at = now() - interval '1 second' WHERE email = $1",
      [expired.email],
    );
    const accept = (invitation: { token: string; email: string }) =>
      asIdentity<never>('/invitations/accept', {
        token: invitation.token,
        email: invitation.email,
        userId: `u-${uniqueToken(12)}`,
        handle: `h${uniqueToken(8)}`,
      });

    // Act
    const answers = [
      await accept(used),
      await accept(cancelled),
      await accept(expired),
      await accept({ token: 'no-such-token', email: newEmail() }),
      await asIdentity('/invitations/preview', { token: expired.token }),
    ];

    // Assert
    assert.equal(cancel.status, 200);
    assert.deepEqual(
      answers.map((answer) => [answer.status, answer.body.error?.message]),
      [
        [409, messages.invitationUsed],
        [409, messages.invitationCancelled],
        [409, messages.invitationExpired],
        [404, messages.invitationInvalid],
        [409, messages.invitationExpired],
      ],
    );
    const team = await asUser<TeamRecord>(
      admin.accessToken,
      'GET',
      `/brands/${admin.brandId}/team`,
    );
    assert.equal(team.body.data!.members.length, 2);
    assert.equal(team.body.data!.pendingInvitations, 0);
  });

  test('when accepting with another e-mail than the invited one, then it is refused 400 and the invitation stays usable', async () => {
    // Arrange
    const admin = await registeredBrand(system);
    const { token, email } = await invite(admin);

    // Act
    const wrong = await asIdentity('/invitations/accept', {
      token,
      email: newEmail(),
      userId: `u-${uniqueToken(12)}`,
      handle: `h${uniqueToken(8)}`,
    });
    const preview = await asIdentity<{ email: string; company: string }>('/invitations/preview', {
      token,
    });

    // Assert
    assert.equal(wrong.status, 400);
    assert.equal(preview.status, 200);
    assert.equal(preview.body.data!.email, email);
    assert.equal(preview.body.data!.company, admin.registration.company);
  });

  test(`when a brand has sent ${INVITATIONS_PER_WINDOW} invitations within the hour, then the next is refused 429`, async () => {
    // Arrange
    const admin = await registeredBrand(system);
    await system.sql.brand.query(
      `INSERT INTO brand_invitations (id, brand_id, email, token_hash, expires_at)
       SELECT gen_random_uuid(), $1, 'x' || n || '@raly.test', md5(random()::text) || n, now() + interval '7 days'
       FROM generate_series(1, $2::int) AS n`,
      [admin.brandId, INVITATIONS_PER_WINDOW],
    );

    // Act
    const answer = await asUser(admin.accessToken, 'POST', `/brands/${admin.brandId}/invitations`, {
      email: newEmail(),
    });

    // Assert
    assert.equal(answer.status, 429);
    assert.equal(answer.body.error?.message, messages.tooManyInvitations);
  });
});

describe('members and roles', () => {
  test('when a teammate joins, then the team lists them by handle, not admin, and the change is a brand.team.updated event', async () => {
    // Arrange
    const admin = await registeredBrand(system);

    // Act
    const { userId, handle } = await join(admin);

    // Assert
    const team = await asUser<TeamRecord>(
      admin.accessToken,
      'GET',
      `/brands/${admin.brandId}/team`,
    );
    const joined = team.body.data!.members.find((member) => member.userId === userId);
    assert.deepEqual(
      { handle: joined?.handle, isAdmin: joined?.isAdmin },
      { handle, isAdmin: false },
    );
    assert.ok(!JSON.stringify(team.body).includes(admin.registration.email));
    const event = await eventually('the joined event', () =>
      teamEvents.messages
        .map((message) => JSON.parse(message.value?.toString() ?? '{}'))
        .find(
          (envelope) =>
            envelope.type === eventTypes.teamUpdated &&
            envelope.data.id === admin.brandId &&
            envelope.data.lastChange?.kind === 'joined',
        ),
    );
    assert.equal(event.data.lastChange.handle, handle);
    const claim = await system.sql.identity.query(
      'SELECT owner_type, owner_id FROM usernames WHERE username = $1',
      [handle],
    );
    assert.deepEqual(claim.rows[0], { owner_type: 'member', owner_id: userId });
  });

  test('when the last admin is demoted or leaves, then it is refused 409; after promoting another, both succeed', async () => {
    // Arrange
    const admin = await registeredBrand(system);
    const { userId } = await join(admin);
    const self = `/brands/${admin.brandId}/members/${admin.userId}`;

    // Act
    const demote = await asUser(admin.accessToken, 'PATCH', self, { isAdmin: false });
    const leave = await asUser(admin.accessToken, 'DELETE', self);
    const promote = await asUser<TeamRecord>(
      admin.accessToken,
      'PATCH',
      `/brands/${admin.brandId}/members/${userId}`,
      { isAdmin: true },
    );
    const leaveAfter = await asUser<TeamRecord>(admin.accessToken, 'DELETE', self);

    // Assert
    assert.deepEqual([demote.status, leave.status], [409, 409]);
    assert.equal(demote.body.error?.message, messages.lastAdmin);
    assert.equal(promote.status, 200);
    assert.equal(leaveAfter.status, 200);
    assert.deepEqual(
      leaveAfter.body.data!.members.map((member) => [member.userId, member.isAdmin]),
      [[userId, true]],
    );
    assert.equal(leaveAfter.body.data!.lastChange?.kind, 'left');
    const access = await asUser(admin.accessToken, 'GET', `/brands/${admin.brandId}`);
    assert.equal(access.status, 403);
  });

  test('when an admin removes a member, then the member is gone and their handle is free again', async () => {
    // Arrange
    const admin = await registeredBrand(system);
    const { userId, handle } = await join(admin);

    // Act
    const removed = await asUser<TeamRecord>(
      admin.accessToken,
      'DELETE',
      `/brands/${admin.brandId}/members/${userId}`,
    );
    const again = await asUser(
      admin.accessToken,
      'DELETE',
      `/brands/${admin.brandId}/members/${userId}`,
    );

    // Assert
    assert.equal(removed.status, 200);
    assert.equal(removed.body.data!.lastChange?.kind, 'removed');
    assert.equal(removed.body.data!.lastChange?.handle, handle);
    assert.ok(!removed.body.data!.members.some((member) => member.userId === userId));
    assert.equal(again.status, 404);
    const claim = await system.sql.identity.query('SELECT 1 FROM usernames WHERE username = $1', [
      handle,
    ]);
    assert.equal(claim.rowCount, 0);
  });

  test('when the founder chooses a handle already held as a username, then 409; a free one is saved and shown', async () => {
    // Arrange
    const admin = await registeredBrand(system);
    const other = await registeredBrand(system);
    const path = `/brands/${admin.brandId}/members/me/handle`;

    // Act
    const taken = await asUser(admin.accessToken, 'PUT', path, {
      handle: other.registration.username,
    });
    const invalid = await asUser(admin.accessToken, 'PUT', path, { handle: 'a!' });
    const handle = `F${uniqueToken(8)}`;
    const saved = await asUser<TeamRecord>(admin.accessToken, 'PUT', path, { handle });

    // Assert
    assert.equal(taken.status, 409);
    assert.equal(invalid.status, 400);
    assert.equal(saved.status, 200);
    assert.equal(
      saved.body.data!.members.find((member) => member.userId === admin.userId)?.handle,
      handle.toLowerCase(),
    );
  });

  test('when someone outside the brand reads its team, then 403', async () => {
    // Arrange
    const admin = await registeredBrand(system);
    const stranger = await registeredBrand(system);

    // Act
    const answer = await asUser(stranger.accessToken, 'GET', `/brands/${admin.brandId}/team`);

    // Assert
    assert.equal(answer.status, 403);
    assert.equal(answer.body.error?.message, messages.notATeamMember);
  });
});
