/**
 * The shared rules of reviews (`@raly/contracts/collaboration-reviews`): the
 * review form answers each rule with its message, the comment is trimmed and
 * optional, and a collaboration snapshot written before reviews existed
 * still parses with neither side's review.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import {
  leaveReviewSchema,
  PARTY_REVIEW_COMMENT_MAX_LENGTH,
  partyReviewsSchema,
} from '../src/collaboration-reviews';
import { messages } from '../src/messages';
import { firstErrorByField } from '../src/validation';

function errorsOf(value: unknown): Record<string, string> {
  const result = leaveReviewSchema.safeParse(value);
  return result.success ? {} : firstErrorByField(result.error);
}

describe('the review form', () => {
  test('when the stars are missing, not whole, or outside 1–5, then it answers "Choose from 1 to 5 stars"', () => {
    for (const rating of [undefined, null, '4', 0, 6, 2.5, Number.NaN])
      assert.deepEqual(
        errorsOf({ rating }),
        { rating: messages.reviewRatingRequired },
        `${rating}`,
      );
  });

  test('when the comment is over 500 characters after trimming, then it answers the length rule; 500 pass, trimmed', () => {
    const longest = 'a'.repeat(PARTY_REVIEW_COMMENT_MAX_LENGTH);
    assert.deepEqual(errorsOf({ rating: 3, comment: `${longest}a` }), {
      comment: messages.partyReviewCommentTooLong,
    });
    assert.deepEqual(leaveReviewSchema.parse({ rating: 3, comment: `  ${longest}  ` }), {
      rating: 3,
      comment: longest,
    });
  });

  test('when the comment holds an e-mail address or a phone number, then it is refused: a review is no channel for contact details', () => {
    for (const comment of [
      'Write to ada@example.com for more',
      'ada (at) example (dot) com',
      'Call +44 20 7946 0958 any time',
    ])
      assert.deepEqual(
        errorsOf({ rating: 4, comment }),
        { comment: messages.reviewContactDetails },
        comment,
      );
    assert.equal(
      leaveReviewSchema.safeParse({
        rating: 4,
        comment: 'Delivered on 2026-11-27 at 10:30, great.',
      }).success,
      true,
    );
  });

  test('when only the stars are given, then the comment is empty; an unknown key is refused', () => {
    assert.deepEqual(leaveReviewSchema.parse({ rating: 1 }), { rating: 1, comment: '' });
    assert.equal(leaveReviewSchema.safeParse({ rating: 5, author: 'Ada' }).success, false);
  });
});

describe('the reviews of a snapshot', () => {
  test('when a snapshot has no reviews yet, then neither side has reviewed', () => {
    assert.deepEqual(partyReviewsSchema.parse(undefined), { brand: null, creator: null });
    assert.deepEqual(partyReviewsSchema.parse({}), { brand: null, creator: null });
  });
});
