/**
 * Reviews after a completed collaboration through the BFF, in front of the
 * real services (./support/offers-suite): each party reviews the other once,
 * each answer pushed at once to both parties' tabs and to nobody else; the
 * refusals (not completed, twice, strangers, a visitor, bad stars, a long
 * comment) with the contract's messages; the rate limit; and the public
 * profiles' reviews and figures, the same for anyone who reads them. Nobody's
 * first name, last name or e-mail in any answer or push.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'vitest';
import type { PublicBrandPage, PublicCreatorPage } from '@raly/contracts/collaboration-reviews';
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import { messages } from '@raly/contracts/messages';
import { eventually } from '@raly/test-support';
import type { RunningBff } from '@raly/test-support/bff';
import {
  anOpenedCollaboration,
  collaborationPushes,
  settleSocket,
  type TestBrand,
} from './support/collaborations';
import { daysFromNow, offersSuite, type TestCreator } from './support/offers-suite';

const suite = offersSuite({ collaborations: true, tight: true });
const { api, live, aBrand, onboardedCreator, seen } = suite;

/** A collaboration of a new brand and creator, and a creator and a brand who are no party of it. */
async function partiesAndStrangers() {
  const brand = await aBrand();
  const creator = await onboardedCreator(['Gaming']);
  const otherCreator = await onboardedCreator(['Gaming']);
  const otherBrand = await aBrand();
  const collaboration = await anOpenedCollaboration(suite, { brand, creator });
  return { brand, creator, otherCreator, otherBrand, collaboration };
}

/** One call of a party through the BFF, asserting its status. @returns the answered snapshot */
async function acted(
  party: TestBrand | TestCreator,
  method: 'PUT' | 'POST',
  path: string,
  body: unknown = {},
  status = 200,
): Promise<CollaborationRecord> {
  const answer = await api<CollaborationRecord>(method, path, { token: party.accessToken, body });
  assert.equal(answer.status, status, `${path}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/**
 * Sets one deliverable due in ten days, hands it in, approves it, pays and confirms.
 * @returns the completed snapshot
 */
async function completed(
  brand: TestBrand,
  creator: TestCreator,
  collaboration: CollaborationRecord,
): Promise<CollaborationRecord> {
  const base = `/api/collaborations/${collaboration.id}`;
  const set = await acted(brand, 'PUT', `${base}/deliverables`, {
    items: [{ title: 'One launch video', dueAt: daysFromNow(10) }],
  });
  const deliverable = `${base}/deliverables/${set.deliverables[0]!.id}`;
  const link = `https://video.example/${randomUUID()}`;
  await acted(creator, 'POST', `${deliverable}/submissions`, { link }, 201);
  await acted(brand, 'POST', `${deliverable}/review`, { decision: 'approve' });
  await acted(brand, 'POST', `${base}/payment/paid`, { reference: 'INV-7' });
  return acted(creator, 'POST', `${base}/payment/received`);
}

/** A public profile as the holder of `token` (none: a visitor) reads it. */
const publicPage = <Page>(path: string, token?: string, on?: RunningBff) =>
  api<Page>('GET', path, { token, on });

describe('reviews through the BFF', () => {
  test("when both parties review a completed collaboration, then each answer reaches both parties' tabs and no stranger's, and both public profiles show the reviews and figures to anyone", async () => {
    // Arrange
    const { brand, creator, otherCreator, otherBrand, collaboration } = await partiesAndStrangers();
    const done = await completed(brand, creator, collaboration);
    const partySockets = [await live(brand.accessToken), await live(creator.accessToken)];
    const strangerSockets = [
      await live(otherCreator.accessToken),
      await live(otherBrand.accessToken),
    ];
    const path = `/api/collaborations/${done.id}/review`;

    // Act
    const byCreator = await acted(creator, 'POST', path, { rating: 4, comment: 'Clear brief.' });
    const byBrand = await acted(brand, 'POST', path, { rating: 5, comment: 'On time, great cut.' });

    // Assert: both tabs got each answer, strangers nothing.
    for (const record of [byCreator, byBrand])
      for (const socket of partySockets) {
        const pushed = await eventually(`v${record.version} pushed`, () =>
          collaborationPushes(socket, done.id).find(({ version }) => version === record.version),
        );
        assert.deepEqual(pushed, record);
      }
    assert.deepEqual(
      { creator: byBrand.reviews.creator?.rating, brand: byBrand.reviews.brand?.rating },
      { creator: 4, brand: 5 },
    );
    assert.equal(byBrand.reviews.brand?.comment, 'On time, great cut.');
    await settleSocket(suite, otherCreator.accessToken, strangerSockets[0]!);
    await settleSocket(suite, otherBrand.accessToken, strangerSockets[1]!);
    for (const socket of strangerSockets)
      assert.deepEqual(collaborationPushes(socket, done.id), []);
    for (const socket of [...partySockets, ...strangerSockets])
      seen.push({
        what: 'socket events',
        body: socket.received.filter(([event]) => event.startsWith('collaboration.')),
      });

    // Act + Assert: the public profiles, the same for a visitor, the other party and strangers.
    const brandPath = `/api/public/brands/${brand.registration.username}`;
    const creatorPath = `/api/public/users/${creator.username}`;
    const brandPages = await Promise.all(
      [undefined, creator, otherCreator, otherBrand].map((reader) =>
        publicPage<PublicBrandPage>(brandPath, reader?.accessToken),
      ),
    );
    const creatorPages = await Promise.all(
      [undefined, brand, otherCreator, otherBrand].map((reader) =>
        publicPage<PublicCreatorPage>(creatorPath, reader?.accessToken),
      ),
    );
    for (const page of [...brandPages, ...creatorPages])
      assert.equal(page.status, 200, JSON.stringify(page.body));
    const brandPage = brandPages[0]!.body.data;
    assert.deepEqual(brandPage.reviews, { average: 4, count: 1 });
    assert.equal(brandPage.figures.reviewedSubmissions, 1);
    assert.equal(brandPage.figures.payments, 1);
    assert.equal(typeof brandPage.figures.medianHoursToReview, 'number');
    assert.equal(typeof brandPage.figures.medianHoursToPay, 'number');
    const creatorPage = creatorPages[0]!.body.data;
    assert.deepEqual(creatorPage.reviews, { average: 5, count: 1 });
    assert.deepEqual(creatorPage.figures, {
      onTimeShare: 1,
      deliverablesOnTime: 1,
      deliverablesWithDueDate: 1,
    });
    for (const page of brandPages) assert.deepEqual(page.body.data, brandPage);
    for (const page of creatorPages) assert.deepEqual(page.body.data, creatorPage);
    // No comment, no collaboration and no person on the public pages: counts and medians only.
    const published = JSON.stringify([brandPage.reviews, brandPage.figures, creatorPage]);
    assert.ok(!published.includes('Clear brief.') && !published.includes(done.id));
  });

  test("when a party reviews too early or twice, a stranger or a visitor reviews, or the form breaks a rule, then each answers with the contract's message", async () => {
    // Arrange
    const { brand, creator, otherCreator, otherBrand, collaboration } = await partiesAndStrangers();
    const path = `/api/collaborations/${collaboration.id}/review`;
    const early = await api('POST', path, { token: creator.accessToken, body: { rating: 5 } });
    await completed(brand, creator, collaboration);

    // Act
    const strangers = await Promise.all(
      [otherCreator, otherBrand].map((stranger) =>
        api('POST', path, { token: stranger.accessToken, body: { rating: 1 } }),
      ),
    );
    const visitor = await api('POST', path, { body: { rating: 1 } });
    const noStars = await api('POST', path, { token: brand.accessToken, body: { rating: 0 } });
    const tooLong = await api('POST', path, {
      token: brand.accessToken,
      body: { rating: 3, comment: 'a'.repeat(501) },
    });
    const first = await api('POST', path, { token: brand.accessToken, body: { rating: 3 } });
    const twice = await api('POST', path, { token: brand.accessToken, body: { rating: 4 } });

    // Assert
    assert.equal(early.status, 409, JSON.stringify(early.body));
    assert.equal(early.body.error.message, messages.reviewNotYet);
    for (const answer of strangers) {
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.equal(answer.body.error.message, messages.collaborationNotFound);
    }
    assert.equal(visitor.status, 401);
    assert.equal(noStars.status, 400);
    assert.equal(noStars.body.error.fields?.rating, messages.reviewRatingRequired);
    assert.equal(tooLong.status, 400);
    assert.equal(tooLong.body.error.fields?.comment, messages.partyReviewCommentTooLong);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(twice.status, 409);
    assert.equal(twice.body.error.message, messages.reviewAlreadyLeft);
  });

  test('when a user sends more reviews than RATE_LIMIT_LEAVE_REVIEW_PER_USER allows, then the next answers 429 with Retry-After and records nothing', async () => {
    // Arrange: the tight BFF allows 2 reviews per user and hour.
    const { brand, creator, collaboration } = await partiesAndStrangers();
    const on = suite.tightBff;
    const path = `/api/collaborations/${collaboration.id}/review`;
    await completed(brand, creator, collaboration);
    for (const rating of [0, 6]) {
      const refused = await api('POST', path, { token: creator.accessToken, body: { rating }, on });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
    }

    // Act
    const third = await fetch(`${on.url}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${creator.accessToken}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ rating: 5 }),
    });
    const refusal = (await third.json()) as { error: { code: string; message: string } };
    seen.push({ what: 'the refused review', body: refusal });
    const brandReview = await api('POST', path, {
      token: brand.accessToken,
      body: { rating: 4 },
      on,
    });
    const after = await api<CollaborationRecord>('GET', `/api/collaborations/${collaboration.id}`, {
      token: creator.accessToken,
    });

    // Assert
    assert.equal(third.status, 429, JSON.stringify(refusal));
    assert.equal(refusal.error.code, 'resource-exhausted');
    assert.ok(Number(third.headers.get('retry-after')) > 0);
    assert.equal(brandReview.status, 200, JSON.stringify(brandReview.body));
    assert.equal(after.body.data.reviews.creator, null);
    assert.equal(after.body.data.reviews.brand?.rating, 4);
  });
});

describe('privacy', () => {
  test('when every answer, error and collaboration push of this file is read, then none carries a first name, last name or e-mail', () => {
    suite.assertNothingPrivateSeen(30);
  });
});
