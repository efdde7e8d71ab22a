/**
 * Brands as teams through the BFF, in front of the real identity-profile,
 * brand and offers services: an admin invites by e-mail, the teammate
 * registers from the mailed link and works on the brand's offers; members
 * see each other by handle only; a removed member is refused the brand's
 * data at once, over HTTP and on their open socket.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import type { Me, TokenSet } from '@raly/contracts/bff-api';
import { messages } from '@raly/contracts/messages';
import type { OfferRecord } from '@raly/contracts/offers';
import type { TeamRecord } from '@raly/contracts/teams';
import { eventually, uniqueToken } from '@raly/test-support';
import { invitationTokenFor } from '@raly/test-support/system';
import { anOfferForm, offersSuite } from './support/offers-suite';
import { receivedOf } from './support/sockets';

const suite = offersSuite();
const { api, aBrand } = suite;

/** An admin's teammate, registered through the BFF from the invitation mail. */
async function aTeammate(admin: Awaited<ReturnType<typeof aBrand>>) {
  const email = `tm${uniqueToken(10)}@raly.test`;
  const invited = await api('POST', '/api/brand/invitations', {
    token: admin.accessToken,
    body: { email },
  });
  assert.equal(invited.status, 201, JSON.stringify(invited.body));
  const token = await invitationTokenFor(email);
  const preview = await api<{ company: string; email: string }>(
    'POST',
    '/api/invitations/preview',
    { body: { token } },
  );
  assert.equal(preview.body.data?.company, admin.registration.company);
  const handle = `t${uniqueToken(8)}`;
  const registered = await api<TokenSet>('POST', '/api/accounts/members', {
    body: {
      token,
      handle,
      email,
      password: 'secret-123',
      confirmPassword: 'secret-123',
      firstName: `Tina${uniqueToken(6)}`,
      lastName: `Mate${uniqueToken(6)}`,
      agreeTerms: true,
    },
  });
  assert.equal(registered.status, 201, JSON.stringify(registered.body));
  const accessToken = registered.body.data!.accessToken;
  const me = await api<Me>('GET', '/api/me', { token: accessToken });
  return { email, handle, accessToken, userId: me.body.data!.user.id, me: me.body.data! };
}

describe('a brand team through the BFF', () => {
  test('when an admin invites and the teammate registers from the mail, then the teammate is a member by handle, sees the brand and its offers, and no member sees another one’s name or e-mail', async () => {
    // Arrange
    const admin = await aBrand();
    const offer = await api<OfferRecord>('POST', '/api/offers', {
      token: admin.accessToken,
      body: anOfferForm(),
    });
    assert.equal(offer.status, 201, JSON.stringify(offer.body));

    // Act
    const mate = await aTeammate(admin);

    // Assert
    assert.equal(mate.me.brand?.id, admin.brandId);
    assert.deepEqual(mate.me.user.onboarding, { terms: false, brand: true });
    const offers = await api<OfferRecord[]>('GET', '/api/brand/offers', {
      token: mate.accessToken,
    });
    assert.equal(offers.status, 200);
    assert.ok(offers.body.data!.some((listed) => listed.id === offer.body.data!.id));
    const team = await api<TeamRecord>('GET', '/api/brand/team', { token: mate.accessToken });
    assert.equal(team.status, 200);
    assert.deepEqual(
      team.body.data!.members.map((member) => [member.handle, member.isAdmin]),
      [
        [null, true],
        [mate.handle, false],
      ],
    );
    const text = JSON.stringify(team.body);
    for (const secret of [
      admin.registration.email,
      admin.registration.firstName,
      mate.email,
      mate.me.user.firstName,
    ])
      assert.ok(!text.includes(secret), secret);
    const invite = await api('POST', '/api/brand/invitations', {
      token: mate.accessToken,
      body: { email: `x${uniqueToken(8)}@raly.test` },
    });
    assert.equal(invite.status, 403);
    assert.equal(invite.body.error?.message, messages.onlyAdminsCan);
  });

  test('when an admin removes a member, then the member is refused the brand over HTTP at once and their open socket leaves the brand’s room', async () => {
    // Arrange
    const admin = await aBrand();
    const mate = await aTeammate(admin);
    const mateTab = await suite.live(mate.accessToken);
    const adminTab = await suite.live(admin.accessToken);

    // Act
    const removed = await api<TeamRecord>('DELETE', `/api/brand/members/${mate.userId}`, {
      token: admin.accessToken,
    });
    const offers = await api('GET', '/api/brand/offers', { token: mate.accessToken });
    const team = await api('GET', '/api/brand/team', { token: mate.accessToken });
    const bio = `A bio written after the removal, long enough. ${uniqueToken(8)}`;
    const brand = await api<Me['brand']>('GET', `/api/brands/${admin.registration.username}`);
    const changed = await api('PATCH', '/api/brand', {
      token: admin.accessToken,
      body: {
        username: brand.body.data!.username,
        company: brand.body.data!.company,
        websiteUrl: brand.body.data!.websiteUrl,
        bio,
        socials: brand.body.data!.socials,
      },
    });

    // Assert
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal(removed.body.data!.lastChange?.kind, 'removed');
    assert.equal(removed.body.data!.lastChange?.handle, mate.handle);
    assert.deepEqual([offers.status, team.status], [403, 403]);
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    await eventually('the admin’s tab to receive the new bio', () =>
      receivedOf(adminTab, 'brand.updated').some((record) => record.bio === bio),
    );
    await eventually('the member’s tab to learn they have no brand', () =>
      receivedOf(mateTab, 'user.updated').some((record) => record.brand === null),
    );
    assert.ok(!receivedOf(mateTab, 'brand.updated').some((record) => record.bio === bio));
  });

  test('when the last admin tries to leave, then 409 with its message; a member leaves', async () => {
    // Arrange
    const admin = await aBrand();
    const mate = await aTeammate(admin);

    // Act
    const adminLeaves = await api('DELETE', `/api/brand/members/${admin.userId}`, {
      token: admin.accessToken,
    });
    const mateLeaves = await api<TeamRecord>('DELETE', `/api/brand/members/${mate.userId}`, {
      token: mate.accessToken,
    });
    const me = await api<Me>('GET', '/api/me', { token: mate.accessToken });

    // Assert
    assert.equal(adminLeaves.status, 409);
    assert.equal(adminLeaves.body.error?.message, messages.lastAdmin);
    assert.equal(mateLeaves.status, 200, JSON.stringify(mateLeaves.body));
    assert.equal(mateLeaves.body.data!.lastChange?.kind, 'left');
    assert.equal(me.body.data!.user.brand, null);
  });
});
