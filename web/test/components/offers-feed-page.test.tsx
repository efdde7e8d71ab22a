import assert from 'node:assert/strict';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, test } from 'vitest';
import type { OfferRecord, Page } from '@raly/contracts/offers';
import { OffersFeedPage } from '@/features/offers/components/offers-feed-page';
import { anOfferRecord } from '../support/offer-records';
import { answerBff, jsonAnswer, renderInApp } from './render';

/** A feed page of `total` offers, showing the first few. */
const feedPage = (total: number, items: OfferRecord[]): Page<OfferRecord> => ({
  items,
  page: 1,
  pageSize: 10,
  total,
});

describe('the offers feed', () => {
  test('when there are more offers than a page, then paging, filters and search each ask the BFF again from page 1', async () => {
    // Arrange
    const offers = [anOfferRecord(), anOfferRecord({ title: 'Second offer of the feed' })];
    const calls = answerBff(() => jsonAnswer(200, { data: feedPage(25, offers) }));
    renderInApp(<OffersFeedPage />, { route: '/offers' });
    await screen.findByText('Page 1 of 3');
    assert.equal(screen.getAllByTestId('offer-card').length, 2);
    const searches = () => calls.map((call) => call.search ?? '');

    // Act + Assert: next page
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => assert.ok(searches().includes('?page=2&pageSize=10')));

    // Act + Assert: an interest filter starts again from page 1
    await userEvent.click(screen.getByRole('button', { name: 'Gaming' }));
    await waitFor(() => assert.ok(searches().includes('?interest=Gaming&page=1&pageSize=10')));
    assert.equal(
      screen.getByRole('button', { name: 'Gaming' }).getAttribute('aria-pressed'),
      'true',
    );

    // Act + Assert: a platform and a search text join it
    await userEvent.click(screen.getByRole('button', { name: 'Instagram' }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search' }), 'sneakers');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      assert.ok(
        searches().includes('?interest=Gaming&platform=instagram&q=sneakers&page=1&pageSize=10'),
      ),
    );
  });

  test('when no offer matches, then the feed says so', async () => {
    answerBff(() => jsonAnswer(200, { data: feedPage(0, []) }));

    renderInApp(<OffersFeedPage />, { route: '/offers?interest=AI' });

    await screen.findByText(/No offers match these filters yet/);
  });
});
