/**
 * Offers pushed live through the BFF, in front of the real identity-profile,
 * brand and offers services: a brand's draft and open offer reach its own
 * sockets and the matching creators' (./support/offers-suite), also when the
 * creator's socket is on another replica.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import type { Me } from '@raly/contracts/bff-api';
import type { OfferRecord } from '@raly/contracts/offers';
import { eventually } from '@raly/test-support';
import { callBff } from '@raly/test-support/bff';
import { anOfferForm, offerPushes, offersSuite } from './support/offers-suite';

const suite = offersSuite({ replica: true });
const { api, live, aBrand, onboardedCreator, settle, anOffer, seen } = suite;

describe('offers through the BFF, live', () => {
  test("when a brand saves a draft and then opens it, then the brand's socket gets both, the matching creator's two sockets get the open offer once each, and others get nothing", async () => {
    // Arrange
    const brand = await aBrand();
    const creator = await onboardedCreator(['Gaming', 'Sports']);
    const otherInterests = await onboardedCreator(['AI']);
    const notificationsOff = await onboardedCreator(['Gaming']);
    const off = await callBff<Me>(suite.bff, 'PATCH', '/api/me', {
      token: notificationsOff.accessToken,
      body: { notifications: { offers: false, marketing: false } },
    });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    notificationsOff.record = off.body.data.user;
    const brandSocket = await live(brand.accessToken);
    const creatorSockets = [await live(creator.accessToken), await live(creator.accessToken)];
    const otherSocket = await live(otherInterests.accessToken);
    const offSocket = await live(notificationsOff.accessToken);

    // Act: a draft
    const draft = await api<OfferRecord>('POST', '/api/offers', {
      token: brand.accessToken,
      body: anOfferForm({ interests: ['Gaming', 'Sports'] }),
    });

    // Assert
    assert.equal(draft.status, 201, JSON.stringify(draft.body));
    assert.equal(draft.body.data.status, 'draft');
    const offerId = draft.body.data.id;
    await eventually('the draft at the brand', () => offerPushes(brandSocket, offerId).length > 0);

    // Act: open it
    const opened = await api<OfferRecord>('POST', `/api/offers/${offerId}/open`, {
      token: brand.accessToken,
    });

    // Assert
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    assert.equal(opened.body.data.status, 'open');
    for (const socket of creatorSockets)
      await eventually(
        'the open offer at the creator',
        () => offerPushes(socket, offerId).length > 0,
      );
    await settle(creator, creatorSockets[0]!);
    await settle(otherInterests, otherSocket);
    await settle(notificationsOff, offSocket);
    for (const socket of creatorSockets)
      assert.deepEqual(
        offerPushes(socket, offerId).map((offer) => offer.status),
        ['open'],
        'the open offer once, never the draft',
      );
    assert.deepEqual(offerPushes(otherSocket, offerId), []);
    assert.deepEqual(offerPushes(offSocket, offerId), []);
    assert.deepEqual(
      offerPushes(brandSocket, offerId).map((offer) => offer.status),
      ['draft', 'open'],
    );
    for (const socket of [brandSocket, ...creatorSockets])
      seen.push({
        what: 'socket events',
        body: socket.received.filter(([e]) => e !== 'user.updated'),
      });
  });

  test("when a creator turns offer notifications on through the BFF, then their open socket gets the brand's next offer", async () => {
    // Arrange
    const brand = await aBrand();
    const creator = await onboardedCreator(['Crypto']);
    const socket = await live(creator.accessToken);
    const off = await callBff<Me>(suite.bff, 'PATCH', '/api/me', {
      token: creator.accessToken,
      body: { notifications: { offers: false, marketing: false } },
    });
    assert.equal(off.status, 200);
    const muted = await anOffer(brand, { interests: ['Crypto'] });

    // Act
    const on = await callBff<Me>(suite.bff, 'PATCH', '/api/me', {
      token: creator.accessToken,
      body: { notifications: { offers: true, marketing: false } },
    });
    assert.equal(on.status, 200);
    creator.record = on.body.data.user;
    const heard = await anOffer(brand, { interests: ['Crypto'] });

    // Assert
    await eventually(
      'the offer after notifications on',
      () => offerPushes(socket, heard.id).length > 0,
    );
    assert.deepEqual(offerPushes(socket, muted.id), []);
  });
});

describe('offer routing across replicas', () => {
  test("when a creator's setting is saved on one replica, then their socket on another replica moves rooms: it gets the next offer opened there, and none after they turn offer notifications off", async () => {
    // Arrange: the creator's socket is on the replica; every command goes to `bff`
    const brand = await aBrand();
    const creator = await onboardedCreator(['Business']);
    const muted = await callBff<Me>(suite.bff, 'PATCH', '/api/me', {
      token: creator.accessToken,
      body: { notifications: { offers: false, marketing: false } },
    });
    assert.equal(muted.status, 200, JSON.stringify(muted.body));
    const socket = await live(creator.accessToken, suite.replica);
    const brandSocket = await live(brand.accessToken, suite.replica);

    // Act: on, through the other replica
    const on = await callBff<Me>(suite.bff, 'PATCH', '/api/me', {
      token: creator.accessToken,
      body: { notifications: { offers: true, marketing: false } },
    });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    creator.record = on.body.data.user;
    const heard = await anOffer(brand, { interests: ['Business'] });

    // Assert
    await eventually(
      'the offer on the other replica',
      () => offerPushes(socket, heard.id).length > 0,
    );

    // Act: off, through the other replica
    const off = await callBff<Me>(suite.bff, 'PATCH', '/api/me', {
      token: creator.accessToken,
      body: { notifications: { offers: false, marketing: false } },
    });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    creator.record = off.body.data.user;
    const unheard = await anOffer(brand, { interests: ['Business'] });

    // Assert
    await eventually(
      'the brand member gets it on the replica',
      () => offerPushes(brandSocket, unheard.id).length > 0,
    );
    await settle(creator, socket);
    assert.deepEqual(offerPushes(socket, unheard.id), []);
    assert.deepEqual(offerPushes(socket, heard.id).length, 1);
  });
});

describe('privacy', () => {
  test('when every answer, error and offer or application event of this file is read, then none carries a first name, last name or e-mail', () => {
    suite.assertNothingPrivateSeen(6);
  });
});
