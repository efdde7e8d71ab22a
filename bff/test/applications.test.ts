/**
 * Applications through the BFF, in front of the real identity-profile,
 * brand and offers services (./support/offers-suite): applying, withdrawing,
 * accepting and declining, each answer pushed live to the applicant's and the
 * brand member's sockets, the services' refusals passed through, and the rate
 * limits of applying and creating offers.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { messages } from '@raly/contracts/messages';
import type { ApplicationRecord, OfferDetail, OfferRecord } from '@raly/contracts/offers';
import { eventually, uniqueToken } from '@raly/test-support';
import { callBff } from '@raly/test-support/bff';
import {
  anOfferForm,
  anApplicationForm,
  applicationPushes,
  offersSuite,
  type TestCreator,
} from './support/offers-suite';

const suite = offersSuite({ tight: true });
const { api, live, aBrand, onboardedCreator, settle, anOffer, seen } = suite;

describe('applications', () => {
  test("when a creator applies and the brand accepts, then both answers are pushed to the applicant's and the brand member's sockets, and the lists show it", async () => {
    // Arrange
    const brand = await aBrand();
    const creator = await onboardedCreator(['Gaming']);
    const bystander = await onboardedCreator(['Gaming']);
    const offer = await anOffer(brand);
    const brandSocket = await live(brand.accessToken);
    const creatorSocket = await live(creator.accessToken);
    const bystanderSocket = await live(bystander.accessToken);

    // Act: apply
    const applied = await api<ApplicationRecord>('POST', `/api/offers/${offer.id}/applications`, {
      token: creator.accessToken,
      body: anApplicationForm,
    });

    // Assert
    assert.equal(applied.status, 201, JSON.stringify(applied.body));
    const application = applied.body.data;
    assert.equal(application.status, 'pending');
    assert.equal(application.creator.username, creator.username);
    for (const socket of [brandSocket, creatorSocket])
      await eventually(
        'the application pushed',
        () => applicationPushes(socket, application.id).length > 0,
      );
    const ofOffer = await api<ApplicationRecord[]>('GET', `/api/offers/${offer.id}/applications`, {
      token: brand.accessToken,
    });
    assert.equal(ofOffer.status, 200, JSON.stringify(ofOffer.body));
    assert.deepEqual(
      ofOffer.body.data.map((record) => record.id),
      [application.id],
    );
    const mine = await api<ApplicationRecord[]>('GET', '/api/me/applications', {
      token: creator.accessToken,
    });
    assert.ok(mine.body.data.some((record) => record.id === application.id));

    // Act: accept
    const accepted = await api<ApplicationRecord>(
      'POST',
      `/api/applications/${application.id}/accept`,
      { token: brand.accessToken },
    );

    // Assert
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.equal(accepted.body.data.status, 'accepted');
    const pushed = await eventually('the accepted application at the applicant', () =>
      applicationPushes(creatorSocket, application.id).find(
        (record) => record.status === 'accepted',
      ),
    );
    assert.equal(pushed.version, accepted.body.data.version);
    await eventually('the accepted application at the brand', () =>
      applicationPushes(brandSocket, application.id).some((record) => record.status === 'accepted'),
    );
    await settle(bystander, bystanderSocket);
    assert.deepEqual(applicationPushes(bystanderSocket, application.id), []);
    for (const socket of [brandSocket, creatorSocket, bystanderSocket])
      seen.push({
        what: 'socket events',
        body: socket.received.filter(([e]) => e !== 'user.updated'),
      });
  });

  test('when a creator withdraws and the brand declines another, then each answer carries the decision; a second decision is refused', async () => {
    // Arrange
    const brand = await aBrand();
    const [first, second] = [
      await onboardedCreator(['Gaming']),
      await onboardedCreator(['Gaming']),
    ];
    const offer = await anOffer(brand);
    const applyAs = async (creator: TestCreator) => {
      const answer = await api<ApplicationRecord>('POST', `/api/offers/${offer.id}/applications`, {
        token: creator.accessToken,
        body: anApplicationForm,
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body.data;
    };
    const [withdrawn, declined] = [await applyAs(first), await applyAs(second)];

    // Act
    const byStranger = await api('POST', `/api/applications/${withdrawn.id}/withdraw`, {
      token: second.accessToken,
    });
    const withdraw = await api<ApplicationRecord>(
      'POST',
      `/api/applications/${withdrawn.id}/withdraw`,
      { token: first.accessToken },
    );
    const decline = await api<ApplicationRecord>(
      'POST',
      `/api/applications/${declined.id}/decline`,
      { token: brand.accessToken },
    );
    const again = await api('POST', `/api/applications/${declined.id}/accept`, {
      token: brand.accessToken,
    });

    // Assert
    assert.ok([403, 404].includes(byStranger.status), JSON.stringify(byStranger.body));
    assert.equal(withdraw.status, 200, JSON.stringify(withdraw.body));
    assert.equal(withdraw.body.data.status, 'withdrawn');
    assert.equal(decline.status, 200, JSON.stringify(decline.body));
    assert.equal(decline.body.data.status, 'declined');
    assert.equal(again.status, 409);
    assert.equal(again.body.error.message, messages.applicationDecided);
  });

  test("when a member with a handle accepts, then the brand's answer, list and socket name them, and the applicant's socket, list and offer page do not", async () => {
    // Arrange: a brand whose founder chose a handle in its team.
    const brand = await aBrand();
    const handle = `m${uniqueToken(8)}`.toLowerCase();
    const chosen = await api('PUT', '/api/brand/members/me/handle', {
      token: brand.accessToken,
      body: { handle },
    });
    assert.equal(chosen.status, 200, JSON.stringify(chosen.body));
    const creator = await onboardedCreator(['Gaming']);
    const offer = await anOffer(brand);
    const applied = await api<ApplicationRecord>('POST', `/api/offers/${offer.id}/applications`, {
      token: creator.accessToken,
      body: anApplicationForm,
    });
    assert.equal(applied.status, 201, JSON.stringify(applied.body));
    const application = applied.body.data;
    const brandSocket = await live(brand.accessToken);
    const creatorSocket = await live(creator.accessToken);

    // Act
    const accepted = await api<ApplicationRecord>(
      'POST',
      `/api/applications/${application.id}/accept`,
      { token: brand.accessToken },
    );

    // Assert
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    const decidedBy = { memberHandle: handle };
    assert.deepEqual(accepted.body.data.decidedBy, decidedBy);
    const atBrand = await eventually('the accepted application at the brand', () =>
      applicationPushes(brandSocket, application.id).find((record) => record.status === 'accepted'),
    );
    assert.deepEqual(atBrand.decidedBy, decidedBy);
    const atApplicant = await eventually('the accepted application at the applicant', () =>
      applicationPushes(creatorSocket, application.id).find(
        (record) => record.status === 'accepted',
      ),
    );
    assert.equal('decidedBy' in atApplicant, false);
    assert.equal(atApplicant.version, accepted.body.data.version);
    const ofOffer = await api<ApplicationRecord[]>('GET', `/api/offers/${offer.id}/applications`, {
      token: brand.accessToken,
    });
    assert.deepEqual(ofOffer.body.data[0]?.decidedBy, decidedBy);
    const mine = await api<ApplicationRecord[]>('GET', '/api/me/applications', {
      token: creator.accessToken,
    });
    const listed = mine.body.data.find((record) => record.id === application.id);
    assert.equal(listed?.status, 'accepted');
    assert.equal('decidedBy' in listed!, false);
    const detail = await api<OfferDetail>('GET', `/api/offers/${offer.id}`, {
      token: creator.accessToken,
    });
    assert.equal(detail.body.data.myApplication?.status, 'accepted');
    assert.equal('decidedBy' in detail.body.data.myApplication!, false);
  });

  test('when a creator applies twice, a brand user applies, or a creator lists an offer\u2019s applications, then the offers service\u2019s refusal passes through', async () => {
    // Arrange
    const brand = await aBrand();
    const otherBrand = await aBrand();
    const creator = await onboardedCreator(['Gaming']);
    const offer = await anOffer(brand);
    const path = `/api/offers/${offer.id}/applications`;
    const first = await api('POST', path, { token: creator.accessToken, body: anApplicationForm });
    assert.equal(first.status, 201, JSON.stringify(first.body));

    // Act
    const twice = await api('POST', path, { token: creator.accessToken, body: anApplicationForm });
    const byBrand = await api('POST', path, {
      token: otherBrand.accessToken,
      body: anApplicationForm,
    });
    const listedByCreator = await api('GET', path, { token: creator.accessToken });
    const listedByOtherBrand = await api('GET', path, { token: otherBrand.accessToken });
    const badPitch = await api('POST', path, {
      token: creator.accessToken,
      body: { pitch: 'too short' },
    });

    // Assert
    assert.equal(twice.status, 409);
    assert.equal(twice.body.error.message, messages.alreadyApplied);
    assert.equal(byBrand.status, 403);
    assert.equal(byBrand.body.error.message, messages.brandUsersCannotApply);
    assert.equal(listedByCreator.status, 403);
    assert.equal(listedByOtherBrand.status, 403);
    assert.equal(listedByOtherBrand.body.error.message, messages.notABrandMember);
    assert.equal(badPitch.status, 400);
    assert.equal(badPitch.body.error.fields?.pitch, messages.pitchTooShort);
  });
});

describe('rate limits of offers', () => {
  test('when a brand member creates more offers than the limit allows, then the next answers 429 with Retry-After', async () => {
    // Arrange
    const brand = await aBrand();
    const create = () =>
      callBff(suite.tightBff, 'POST', '/api/offers', {
        token: brand.accessToken,
        body: anOfferForm(),
      });
    assert.equal((await create()).status, 201);
    assert.equal((await create()).status, 201);

    // Act
    const limited = await create();

    // Assert
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error.code, 'resource-exhausted');
    assert.match(limited.body.error.message, /Too many attempts/);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
  });

  test('when a creator applies more often than the limit allows, then the next application answers 429', async () => {
    // Arrange
    const brand = await aBrand();
    const creator = await onboardedCreator(['Gaming']);
    const offers = [await anOffer(brand), await anOffer(brand), await anOffer(brand)];
    const applyTo = (offer: OfferRecord) =>
      callBff(suite.tightBff, 'POST', `/api/offers/${offer.id}/applications`, {
        token: creator.accessToken,
        body: anApplicationForm,
      });
    assert.equal((await applyTo(offers[0]!)).status, 201);
    assert.equal((await applyTo(offers[1]!)).status, 201);

    // Act
    const limited = await applyTo(offers[2]!);

    // Assert
    assert.equal(limited.status, 429);
    assert.match(limited.body.error.message, /Too many attempts/);
  });
});

describe('privacy', () => {
  test('when every answer, error and offer or application event of this file is read, then none carries a first name, last name or e-mail', () => {
    suite.assertNothingPrivateSeen(20);
  });
});
