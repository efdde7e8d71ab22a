/**
 * Reviews after a completed collaboration: each side reviews the other
 * once (1–5 stars, a comment of at most 500 characters), only once the
 * collaboration is completed, only as one of its parties. Each review is one
 * `collaborations.collaboration.updated` carrying both sides' reviews and a
 * `reviewed` timeline entry; no answer or event names a person.
 */
import assert from 'node:assert/strict';
import { beforeAll, describe, test } from 'vitest';
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import { eventTypes } from '@raly/contracts/events';
import { messages } from '@raly/contracts/messages';
import { eventually } from '@raly/test-support';
import type { RalySystem } from '@raly/test-support/system';
import { publishedCollaboration, useCollaborationsSystem } from './support';
import {
  accepted,
  assertRefused,
  completedCollaboration,
  freshCollaboration,
  registeredWorkUsers,
  workAs,
  type WorkUsers,
} from './work-support';

const harness = useCollaborationsSystem();
let system: RalySystem;
let users: WorkUsers;
const brandWork = () => workAs(system, users.brand.accessToken);
const creatorWork = () => workAs(system, users.creator.accessToken);
/** Every answer of this file, for the privacy check. */
const answers: unknown[] = [];
/** Keeps an answer for the privacy check and hands it on. */
const kept = <T extends { body: unknown }>(answer: T): T => {
  answers.push(answer.body);
  return answer;
};

/** The reviews column of a collaboration, as stored. */
async function storedReviews(id: string): Promise<CollaborationRecord['reviews']> {
  const { rows } = await system.sql.collaborations!.query<{
    reviews: CollaborationRecord['reviews'];
  }>('SELECT reviews FROM collaborations WHERE id = $1', [id]);
  return rows[0]!.reviews;
}

beforeAll(async () => {
  system = harness.system;
  users = await registeredWorkUsers(system);
});

describe('a review', () => {
  test('when both sides review a completed collaboration, then the snapshot carries both reviews, the timeline says who reviewed, and each review is one event', async () => {
    const completed = await completedCollaboration(system, users);
    assert.deepEqual(completed.reviews, { brand: null, creator: null });

    // Act
    const byCreator = accepted(
      kept(
        await creatorWork().leaveReview(completed.id, {
          rating: 4,
          comment: '  Clear brief, paid on time.  ',
        }),
      ),
    );
    const byBrand = accepted(kept(await brandWork().leaveReview(completed.id, { rating: 5 })));

    // Assert
    assert.equal(byCreator.reviews.creator?.rating, 4);
    assert.equal(byCreator.reviews.creator?.comment, 'Clear brief, paid on time.');
    assert.equal(byCreator.reviews.brand, null);
    assert.equal(byBrand.reviews.brand?.rating, 5);
    assert.equal(byBrand.reviews.brand?.comment, '');
    assert.ok(Date.parse(byBrand.reviews.brand!.reviewedAt) >= Date.parse(completed.updated));
    assert.deepEqual(byBrand.reviews.creator, byCreator.reviews.creator);
    assert.deepEqual(
      byBrand.timeline.slice(-2).map(({ kind, party }) => [kind, party]),
      [
        ['reviewed', 'creator'],
        ['reviewed', 'brand'],
      ],
    );
    assert.equal(byBrand.status, 'completed');
    assert.equal(byBrand.version, completed.version + 2);
    const event = await publishedCollaboration(harness, byBrand);
    assert.equal(event.type, eventTypes.collaborationUpdated);
    assert.deepEqual(event.data.reviews, byBrand.reviews);
  });

  test('when a side reviews a second time, even at the same moment, then 409 reviewAlreadyLeft and the first review stays', async () => {
    const completed = await completedCollaboration(system, users);
    const first = accepted(
      await brandWork().leaveReview(completed.id, { rating: 2, comment: 'Late.' }),
    );

    // Act
    const again = kept(await brandWork().leaveReview(completed.id, { rating: 5 }));
    const together = await Promise.all([
      creatorWork().leaveReview(completed.id, { rating: 3 }),
      creatorWork().leaveReview(completed.id, { rating: 1 }),
    ]);

    // Assert
    assertRefused(again, 409, messages.reviewAlreadyLeft);
    assert.deepEqual(together.map((answer) => answer.status).sort(), [200, 409]);
    const refused = together.find((answer) => answer.status === 409)!;
    assertRefused(refused, 409, messages.reviewAlreadyLeft);
    const stored = await storedReviews(completed.id);
    assert.deepEqual(stored.brand, first.reviews.brand);
    assert.ok([3, 1].includes(stored.creator!.rating));
  });

  test('when the collaboration is active or cancelled, then either side is told 409 reviewNotYet and nothing is stored', async () => {
    const active = await freshCollaboration(system, users);
    const cancelled = accepted(
      await creatorWork().cancel((await freshCollaboration(system, users)).id, {
        reason: 'Plans changed',
      }),
    );

    // Act
    const refusals = await Promise.all([
      brandWork().leaveReview(active.id, { rating: 5 }),
      creatorWork().leaveReview(active.id, { rating: 5 }),
      brandWork().leaveReview(cancelled.id, { rating: 1 }),
      creatorWork().leaveReview(cancelled.id, { rating: 1 }),
    ]);

    // Assert
    for (const answer of refusals) assertRefused(kept(answer), 409, messages.reviewNotYet);
    assert.deepEqual(await storedReviews(active.id), { brand: null, creator: null });
    assert.deepEqual(await storedReviews(cancelled.id), { brand: null, creator: null });
  });

  test('when another brand’s member, another creator or a visitor reviews, then 404, 404 and 401, and nothing is stored', async () => {
    const completed = await completedCollaboration(system, users);

    // Act
    const byStrangers = await Promise.all(
      [users.otherBrand, users.otherCreator].map((stranger) =>
        workAs(system, stranger.accessToken).leaveReview(completed.id, { rating: 1 }),
      ),
    );
    const byVisitor = await workAs(system, undefined).leaveReview(completed.id, { rating: 1 });
    const unknown = await creatorWork().leaveReview('00000000-0000-4000-8000-000000000000', {
      rating: 5,
    });

    // Assert
    for (const answer of byStrangers)
      assertRefused(kept(answer), 404, messages.collaborationNotFound);
    assert.equal(byVisitor.status, 401);
    assert.equal(byVisitor.body.error?.code, 'unauthenticated');
    assertRefused(unknown, 404, messages.collaborationNotFound);
    assert.deepEqual(await storedReviews(completed.id), { brand: null, creator: null });
  });

  test('when the stars are outside 1–5, not whole, not a number or missing, or the comment is over 500 characters, then 400 with the field’s message', async () => {
    const completed = await completedCollaboration(system, users);

    // Act
    const badStars = await Promise.all(
      [0, 6, -1, 3.5, '5', null, undefined].map((rating) =>
        creatorWork().leaveReview(completed.id, { rating, comment: 'Fine' }),
      ),
    );
    const tooLong = await creatorWork().leaveReview(completed.id, {
      rating: 4,
      comment: 'x'.repeat(501),
    });
    const unknownField = await creatorWork().leaveReview(completed.id, {
      rating: 4,
      author: 'someone',
    });
    const contactDetails = await creatorWork().leaveReview(completed.id, {
      rating: 5,
      comment: 'Great brand, reach them at team@example.com',
    });
    const longest = await creatorWork().leaveReview(completed.id, {
      rating: 1,
      comment: 'y'.repeat(500),
    });

    // Assert
    for (const answer of badStars)
      assertRefused(answer, 400, messages.reviewRatingRequired, 'rating');
    assertRefused(tooLong, 400, messages.partyReviewCommentTooLong, 'comment');
    assert.equal(unknownField.status, 400);
    assertRefused(contactDetails, 400, messages.reviewContactDetails, 'comment');
    const stored = accepted(longest);
    assert.equal(stored.reviews.creator?.comment.length, 500);
    assert.equal(stored.reviews.creator?.rating, 1);
  });
});

describe('privacy', () => {
  test('when every answer and event of the reviewed collaborations is read, then none carries a brand member’s last name or any user’s e-mail', async () => {
    const reviewed = await completedCollaboration(system, users);
    kept(await creatorWork().leaveReview(reviewed.id, { rating: 5, comment: 'Great brand' }));
    const last = accepted(kept(await brandWork().leaveReview(reviewed.id, { rating: 4 })));
    await publishedCollaboration(harness, last);
    const events = await eventually('the collaboration’s events', () => {
      const found = harness.collaborationEvents.messages
        .filter((message) => message.key?.toString() === reviewed.id)
        .map((message) => message.value?.toString() ?? '');
      return found.length > 0 && found;
    });

    // Act
    const everything = JSON.stringify([answers, events]);

    // Assert
    assert.ok(answers.length >= 8);
    const privateValues = [
      ...[users.brand, users.otherBrand].flatMap(({ registration }) => [
        registration.lastName,
        registration.email,
      ]),
      ...[users.creator, users.otherCreator].map(({ registration }) => registration.email),
    ];
    for (const value of privateValues)
      assert.ok(!everything.includes(value), `${value} was disclosed`);
  });
});
