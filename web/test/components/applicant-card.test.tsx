import assert from 'node:assert/strict';
import { screen, within } from '@testing-library/react';
import { describe, test } from 'vitest';
import type { ApplicationRecord } from '@raly/contracts/offers';
import { ApplicantCard } from '@/features/brand-offers/components/applicant-card';
import { anApplicationRecord, anOfferRecord } from '../support/offer-records';
import { answerBff, jsonAnswer, renderInApp } from './render';

/** Renders the cards of `applications` as the brand's offer page lists them. */
function renderCards(applications: ApplicationRecord[]) {
  // An accepted card asks for the collaborations (the way to its collaboration): none yet.
  answerBff(() => jsonAnswer(200, { data: [] }));
  renderInApp(
    <ul>
      {applications.map((application) => (
        <li key={application.id}>
          <ApplicantCard application={application} />
        </li>
      ))}
    </ul>,
    { route: '/brand/offers/any' },
  );
}

/** The card of `application`, found by its applicant. */
const cardOf = (application: ApplicationRecord) =>
  screen.getByRole('article', { name: `Application of ${application.creator.username}` });

describe("an application on the brand's offer page", () => {
  test('when a member with a handle accepted one and declined another, then each status reads with "Accepted by" or "Declined by" and their handle', () => {
    // Arrange
    const offer = anOfferRecord();
    const decided = { decidedAt: new Date().toISOString(), decidedBy: { memberHandle: 'sam' } };
    const accepted = anApplicationRecord(offer, {
      ...decided,
      status: 'accepted',
      creator: { ...anApplicationRecord(offer).creator, username: 'acceptedjane' },
    });
    const declined = anApplicationRecord(offer, {
      ...decided,
      status: 'declined',
      creator: { ...anApplicationRecord(offer).creator, username: 'declinedjoe' },
    });

    // Act
    renderCards([accepted, declined]);

    // Assert
    assert.equal(
      within(cardOf(accepted)).getByTestId('application-decided-by').textContent,
      'Accepted by sam',
    );
    assert.equal(
      within(cardOf(declined)).getByTestId('application-decided-by').textContent,
      'Declined by sam',
    );
    assert.equal(
      within(cardOf(declined)).getByTestId('application-status').dataset.status,
      'declined',
    );
  });

  test('when no member is named (a member without a handle, a pending application), then only the status shows', () => {
    // Arrange
    const offer = anOfferRecord();
    const withoutHandle = anApplicationRecord(offer, {
      status: 'accepted',
      decidedAt: new Date().toISOString(),
      creator: { ...anApplicationRecord(offer).creator, username: 'unnamedjane' },
    });
    const pending = anApplicationRecord(offer, {
      creator: { ...anApplicationRecord(offer).creator, username: 'pendingjoe' },
    });

    // Act
    renderCards([withoutHandle, pending]);

    // Assert
    assert.equal(within(cardOf(withoutHandle)).queryByTestId('application-decided-by'), null);
    assert.equal(within(cardOf(pending)).queryByTestId('application-decided-by'), null);
    assert.equal(
      within(cardOf(withoutHandle)).getByTestId('application-status').dataset.status,
      'accepted',
    );
    assert.ok(within(cardOf(pending)).getByRole('button', { name: 'Accept' }));
  });
});
