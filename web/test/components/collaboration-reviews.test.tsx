import assert from 'node:assert/strict';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, test } from 'vitest';
import { messages } from '@raly/contracts/messages';
import { ReviewsPanel } from '@/features/collaborations/components/reviews-panel';
import {
  BrandTrackRecord,
  CreatorTrackRecord,
  hoursInWords,
} from '@/features/public-profiles/components/track-record';
import { aCollaborationRecord } from '../support/collaboration-records';
import { answerBff, jsonAnswer, renderInApp } from './render';

/** A completed collaboration with `reviews`; every command answers it with version + 1. */
function completedWith(reviews: Partial<ReturnType<typeof aCollaborationRecord>['reviews']>) {
  const base = aCollaborationRecord({ status: 'completed' });
  const collaboration = { ...base, reviews: { ...base.reviews, ...reviews } };
  const calls = answerBff(() =>
    jsonAnswer(200, { data: { ...collaboration, version: collaboration.version + 1 } }),
  );
  return { collaboration, calls };
}

const form = () => screen.getByRole('form', { name: /^Review / });

describe('the reviews panel', () => {
  test('when the creator has not reviewed yet, then the form names the brand, counts the comment against 500, and sends the stars and the comment', async () => {
    const { collaboration, calls } = completedWith({});
    renderInApp(<ReviewsPanel collaboration={collaboration} side="creator" />);

    assert.equal(form().getAttribute('aria-label'), `Review ${collaboration.brand.company}`);
    within(screen.getByTestId('their-review')).getByText('Not reviewed yet.');
    await userEvent.click(within(form()).getByRole('radio', { name: '4 stars' }));
    await userEvent.type(within(form()).getByLabelText('Comment (optional)'), 'Clear brief.');
    screen.getByText('12/500');
    await userEvent.click(within(form()).getByRole('button', { name: 'Publish review' }));

    await waitFor(() => assert.equal(calls.length, 1));
    assert.deepEqual(calls[0], {
      method: 'POST',
      path: `/api/collaborations/${collaboration.id}/review`,
      body: { rating: 4, comment: 'Clear brief.' },
    });
  });

  test('when no stars are chosen or the comment is over 500 characters, then the contract’s messages show and nothing is sent', async () => {
    const { collaboration, calls } = completedWith({});
    renderInApp(<ReviewsPanel collaboration={collaboration} side="brand" />);

    fireEvent.change(within(form()).getByLabelText('Comment (optional)'), {
      target: { value: 'x'.repeat(501) },
    });
    await userEvent.click(within(form()).getByRole('button', { name: 'Publish review' }));

    await within(form()).findByText(messages.reviewRatingRequired);
    within(form()).getByText(messages.partyReviewCommentTooLong);
    screen.getByText('501/500');
    assert.equal(calls.length, 0);
  });

  test('when the comment holds a phone number, then the form says to leave contact details out and nothing is sent', async () => {
    const { collaboration, calls } = completedWith({});
    renderInApp(<ReviewsPanel collaboration={collaboration} side="creator" />);

    await userEvent.click(within(form()).getByRole('radio', { name: '5 stars' }));
    fireEvent.change(within(form()).getByLabelText('Comment (optional)'), {
      target: { value: 'Lovely team, call them on 020 7946 0958' },
    });
    await userEvent.click(within(form()).getByRole('button', { name: 'Publish review' }));

    await within(form()).findByText(messages.reviewContactDetails);
    assert.equal(calls.length, 0);
  });

  test('when the service refuses a second review, then its message shows above the button', async () => {
    const collaboration = aCollaborationRecord({ status: 'completed' });
    answerBff(() =>
      jsonAnswer(409, { error: { code: 'conflict', message: messages.reviewAlreadyLeft } }),
    );
    renderInApp(<ReviewsPanel collaboration={collaboration} side="brand" />);

    await userEvent.click(within(form()).getByRole('radio', { name: '1 star' }));
    await userEvent.click(within(form()).getByRole('button', { name: 'Publish review' }));

    await within(form()).findByText(messages.reviewAlreadyLeft);
  });

  test('when both sides reviewed, then each sees its own review and the other side’s, and no form', () => {
    const { collaboration } = completedWith({
      brand: { rating: 5, comment: 'Great cut.', reviewedAt: '2026-11-20T10:00:00Z' },
      creator: { rating: 3, comment: '', reviewedAt: '2026-11-21T10:00:00Z' },
    });
    renderInApp(<ReviewsPanel collaboration={collaboration} side="brand" />);

    assert.equal(screen.queryByRole('form'), null);
    within(screen.getByTestId('my-review')).getByRole('img', { name: '5 out of 5 stars' });
    within(screen.getByTestId('my-review')).getByText('“Great cut.”');
    within(screen.getByTestId('their-review')).getByRole('img', { name: '3 out of 5 stars' });
    screen.getByText(`${collaboration.creator.username}’s review of you`);
  });
});

describe('the track record of a public profile', () => {
  test('when there is no data yet, then each figure shows "—" and says why', () => {
    answerBff(() => jsonAnswer(404, {}));
    renderInApp(
      <BrandTrackRecord
        reviews={{ average: null, count: 0 }}
        figures={{
          medianHoursToReview: null,
          reviewedSubmissions: 0,
          medianHoursToPay: null,
          payments: 0,
        }}
      />,
    );

    within(screen.getByTestId('reviews-summary')).getByText('No reviews yet');
    within(screen.getByTestId('median-review-time')).getByText('—');
    within(screen.getByTestId('median-payment-time')).getByText('No payments yet');
  });

  test('when there are reviews and figures, then the average, the count, the medians and the share show in words', () => {
    answerBff(() => jsonAnswer(404, {}));
    const { unmount } = renderInApp(
      <BrandTrackRecord
        reviews={{ average: 4.5, count: 2 }}
        figures={{
          medianHoursToReview: 5.2,
          reviewedSubmissions: 3,
          medianHoursToPay: 60,
          payments: 1,
        }}
      />,
    );
    within(screen.getByTestId('reviews-summary')).getByText('2 reviews');
    within(screen.getByTestId('reviews-summary')).getByRole('img', {
      name: '4.5 out of 5 stars',
    });
    within(screen.getByTestId('median-review-time')).getByText('5 hours');
    within(screen.getByTestId('median-payment-time')).getByText('2.5 days');
    unmount();

    renderInApp(
      <CreatorTrackRecord
        reviews={{ average: 5, count: 1 }}
        figures={{ onTimeShare: 0.667, deliverablesOnTime: 2, deliverablesWithDueDate: 3 }}
      />,
    );
    within(screen.getByTestId('on-time-share')).getByText('67%');
    within(screen.getByTestId('on-time-share')).getByText('2 of 3 deliverables with a due date');
    assert.equal(hoursInWords(0.4), 'under an hour');
  });
});
