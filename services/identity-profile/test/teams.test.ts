import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { messages } from '@raly/contracts/messages';
import type { UserRecord } from '@raly/contracts/records';
import { callApi as call, passwordGrant, uniqueToken } from '@raly/test-support';
import {
  invitationTokenFor,
  type RalySystem,
  registeredBrand,
  registeredCreator,
  startSystem,
} from '@raly/test-support/system';

let system: RalySystem;

beforeAll(async () => {
  system = await startSystem();
});

afterAll(async () => {
  await system.stop();
});

type Admin = Awaited<ReturnType<typeof registeredBrand>>;

/** An invitation of a fresh e-mail to the admin's brand, sent through services/brand. */
async function invitation(admin: Admin) {
  const email = `im${uniqueToken(10)}@raly.test`;
  const sent = await call(system.brandUrl, 'POST', `/brands/${admin.brandId}/invitations`, {
    token: admin.accessToken,
    body: { email },
  });
  assert.equal(sent.status, 201, JSON.stringify(sent.body));
  return { email, token: await invitationTokenFor(email) };
}

const memberRegistration = (invited: { email: string; token: string }, overrides = {}) => ({
  token: invited.token,
  handle: `m${uniqueToken(8)}`,
  email: invited.email,
  password: 'secret-123',
  confirmPassword: 'secret-123',
  firstName: 'Mia',
  lastName: 'Member',
  agreeTerms: true,
  ...overrides,
});

const registerMember = (body: object) =>
  call<{ userId: string }>(system.identityUrl, 'POST', '/accounts/members', {
    serviceToken: system.serviceToken,
    body,
  });

describe('registering from an invitation', () => {
  test('when the invited person registers, then they are a member of the brand, not admin, with the brand step done and terms still to do; the link then is spent', async () => {
    // Arrange
    const admin = await registeredBrand(system);
    const invited = await invitation(admin);
    const registration = memberRegistration(invited);

    // Act
    const created = await registerMember(registration);
    const again = await registerMember(memberRegistration(invited, { email: invited.email }));

    // Assert
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const userId = created.body.data!.userId;
    const { rows } = await system.sql.identity.query(
      'SELECT brand_id, brand_is_admin, onboarding_brand, onboarding_terms, username FROM users WHERE id = $1',
      [userId],
    );
    assert.deepEqual(rows[0], {
      brand_id: admin.brandId,
      brand_is_admin: false,
      onboarding_brand: true,
      onboarding_terms: false,
      username: null,
    });
    const tokens = await passwordGrant(system.stack, invited.email, registration.password);
    assert.ok(tokens.access_token);
    assert.equal(again.status, 409);
    assert.equal(again.body.error?.message, messages.invitationUsed);
  });

  test('when the registration uses another e-mail than the invited one, then 400 and no account is made', async () => {
    // Arrange
    const admin = await registeredBrand(system);
    const invited = await invitation(admin);
    const otherEmail = `ot${uniqueToken(10)}@raly.test`;

    // Act
    const answer = await registerMember(memberRegistration(invited, { email: otherEmail }));

    // Assert
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error?.message, messages.invitationEmailMismatch);
    const { rowCount } = await system.sql.identity.query('SELECT 1 FROM users WHERE email = $1', [
      otherEmail,
    ]);
    assert.equal(rowCount, 0);
  });

  test('when the handle is a username already in use, then 409 and the invitation stays usable', async () => {
    // Arrange
    const admin = await registeredBrand(system);
    const invited = await invitation(admin);

    // Act
    const taken = await registerMember(
      memberRegistration(invited, { handle: admin.registration.username }),
    );
    const preview = await call(system.identityUrl, 'POST', '/queries/invitation-preview', {
      serviceToken: system.serviceToken,
      body: { token: invited.token },
    });

    // Assert
    assert.equal(taken.status, 409);
    assert.equal(taken.body.error?.message, messages.usernameExists);
    assert.equal(preview.status, 200);
  });
});

describe('joining as a signed-in user', () => {
  test('when a creator opens an invitation and joins, then it is refused 403 with its message and the invitation stays usable', async () => {
    // Arrange
    const admin = await registeredBrand(system);
    const creator = await registeredCreator(system);
    const invited = await invitation(admin);

    // Act
    const answer = await call(system.identityUrl, 'POST', '/users/me/team', {
      token: creator.accessToken,
      body: { token: invited.token, handle: `c${uniqueToken(8)}` },
    });

    // Assert
    assert.equal(answer.status, 403);
    assert.equal(answer.body.error?.message, messages.creatorCannotJoinBrand);
    const { rows } = await system.sql.brand.query(
      'SELECT used_at FROM brand_invitations WHERE email = $1',
      [invited.email],
    );
    assert.equal(rows[0].used_at, null);
  });

  test('when a removed member is synced, then their record loses the brand; a brand-side user without a brand then joins another brand from its invitation', async () => {
    // Arrange
    const admin = await registeredBrand(system);
    const invited = await invitation(admin);
    const registration = memberRegistration(invited);
    const { userId } = (await registerMember(registration)).body.data!;
    await call(system.brandUrl, 'DELETE', `/brands/${admin.brandId}/members/${userId}`, {
      token: admin.accessToken,
    });
    const other = await registeredBrand(system, { company: `Other ${uniqueToken(8)}` });
    await call(system.brandUrl, 'POST', `/brands/${other.brandId}/invitations`, {
      token: other.accessToken,
      body: { email: invited.email },
    });

    // Act
    const synced = await call<UserRecord>(system.identityUrl, 'POST', '/brand-memberships/sync', {
      serviceToken: system.serviceToken,
      body: { userId, brandId: admin.brandId },
    });
    const member = await passwordGrant(system.stack, invited.email, registration.password);
    const joined = await call<UserRecord>(system.identityUrl, 'POST', '/users/me/team', {
      token: member.access_token,
      body: {
        token: await invitationTokenFor(invited.email, other.registration.company),
        handle: `n${uniqueToken(8)}`,
      },
    });

    // Assert
    assert.equal(synced.status, 200);
    assert.equal(synced.body.data!.brand, null);
    assert.equal(joined.status, 200, JSON.stringify(joined.body));
    assert.deepEqual(joined.body.data!.brand, { id: other.brandId, isAdmin: false });
  });
});
