import assert from 'node:assert/strict';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, test } from 'vitest';
import { messages } from '@raly/contracts/messages';
import type { OfferDetail, OfferRecord } from '@raly/contracts/offers';
import { Toaster } from '@/components/ui/toaster';
import { OfferDetailPage } from '@/features/offers/components/offer-detail-page';
import { anApplicationRecord, anOfferRecord } from '../support/offer-records';
import { answerBff, jsonAnswer, renderInApp } from './render';

/** The detail GET /api/offers/:id answers: the offer, its brand's public profile, the caller's application. */
function detailOf(
  offer: OfferRecord,
  myApplication: OfferDetail['myApplication'] = null,
): OfferDetail {
  return {
    offer,
    brand: {
      id: offer.brand.id,
      username: offer.brand.username,
      company: offer.brand.company,
      websiteUrl: 'https://acme.example',
      profileImg: '',
      coverImg: '',
      bio: '',
      socials: { x: '', instagram: '', threads: '', discord: '' },
      isVerified: offer.brand.isVerified,
    },
    myApplication,
  };
}

describe('the offer page', () => {
  test('when an open offer of a verified brand shows, then its facts, the verified badge, the brand link and the Apply form are there', async () => {
    // Arrange
    const offer = anOfferRecord({ creatorsWanted: 5, placesFilled: 2 });
    answerBff(() => jsonAnswer(200, { data: detailOf(offer) }));

    // Act
    renderInApp(<OfferDetailPage id={offer.id} />, { route: `/offers/${offer.id}` });

    // Assert
    await screen.findByRole('heading', { level: 1, name: offer.title });
    assert.ok(screen.getByText('$1,250.00'));
    assert.equal(screen.getByTestId('places-left').textContent, '3');
    assert.ok(screen.getByText('Verified'));
    assert.equal(
      screen.getByRole('link', { name: offer.brand.company }).getAttribute('href'),
      `/brand/${offer.brand.username}`,
    );
    assert.ok(screen.getByRole('form', { name: 'Apply' }));
  });

  test('when the creator has a pending application, then its status shows and Withdraw withdraws it', async () => {
    // Arrange
    const offer = anOfferRecord({ brand: { ...anOfferRecord().brand, isVerified: false } });
    const application = anApplicationRecord(offer);
    const calls = answerBff((call) =>
      call.method === 'GET'
        ? jsonAnswer(200, { data: detailOf(offer, application) })
        : jsonAnswer(200, { data: { ...application, version: 2, status: 'withdrawn' } }),
    );
    renderInApp(
      <>
        <OfferDetailPage id={offer.id} />
        <Toaster />
      </>,
    );
    const section = await screen.findByRole('region', { name: 'Your application' });
    assert.equal(within(section).getByTestId('application-status').dataset.status, 'pending');
    assert.equal(screen.queryByText('Verified'), null);
    assert.equal(screen.queryByRole('form', { name: 'Apply' }), null);

    // Act
    await userEvent.click(within(section).getByRole('button', { name: 'Withdraw' }));

    // Assert
    await screen.findByText(messages.applicationWithdrawn);
    assert.ok(
      calls.some(
        (call) =>
          call.method === 'POST' && call.path === `/api/applications/${application.id}/withdraw`,
      ),
    );
  });

  test('when the offer does not exist, then the returned error text shows', async () => {
    answerBff(() =>
      jsonAnswer(404, { error: { code: 'not-found', message: messages.offerNotFound } }),
    );

    renderInApp(<OfferDetailPage id="missing" />);

    await screen.findByText(messages.offerNotFound);
  });
});
