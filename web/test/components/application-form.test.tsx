import assert from 'node:assert/strict';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, test } from 'vitest';
import { messages } from '@raly/contracts/messages';
import { Toaster } from '@/components/ui/toaster';
import { ApplicationForm } from '@/features/offers/components/application-form';
import { anApplicationRecord, anOfferRecord } from '../support/offer-records';
import { answerBff, jsonAnswer, renderInApp } from './render';

const setField = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label, { exact: true }), { target: { value } });

const apply = () => userEvent.click(screen.getByRole('button', { name: 'Apply' }));

const goodPitch = 'I stream this genre every day to an audience of fifty thousand players.';

describe('the Apply form', () => {
  test('when it is sent empty, then the pitch is required and nothing is sent', async () => {
    const calls = answerBff(() => jsonAnswer(500, {}));
    renderInApp(<ApplicationForm offerId="offer-1" />);

    await apply();

    await screen.findByText(messages.pitchRequired);
    assert.deepEqual(calls, []);
  });

  test('when the pitch is too short or too long, then its length rule shows', async () => {
    answerBff(() => jsonAnswer(500, {}));
    renderInApp(<ApplicationForm offerId="offer-1" />);

    setField('Pitch', 'Hire me.');
    await apply();
    await screen.findByText(messages.pitchTooShort);

    setField('Pitch', 'P'.repeat(501));
    await apply();
    await screen.findByText(messages.pitchTooLong);
  });

  test('when the proposed rate is 0 or too large, then the amount rules show', async () => {
    answerBff(() => jsonAnswer(500, {}));
    renderInApp(<ApplicationForm offerId="offer-1" />);
    setField('Pitch', goodPitch);

    setField('Amount', '0');
    await apply();
    await screen.findByText(messages.compensationAmountInvalid);

    setField('Amount', '2000000');
    await apply();
    await screen.findByText(messages.compensationAmountTooLarge);
  });

  test('when a valid application is sent, then it goes to the offer with its rate in minor units', async () => {
    const offer = anOfferRecord();
    const calls = answerBff(() => jsonAnswer(201, { data: anApplicationRecord(offer) }));
    renderInApp(
      <>
        <ApplicationForm offerId={offer.id} />
        <Toaster />
      </>,
    );
    setField('Pitch', goodPitch);
    setField('Amount', '450');
    await userEvent.selectOptions(screen.getByLabelText('Currency'), 'EUR');

    await apply();

    await screen.findByText(messages.applicationSent);
    assert.deepEqual(calls, [
      {
        method: 'POST',
        path: `/api/offers/${offer.id}/applications`,
        body: { pitch: goodPitch, proposedRate: { amountMinor: 45_000, currency: 'EUR' } },
      },
    ]);
  });

  test('when the server refuses the application, then the returned error text shows', async () => {
    answerBff(() =>
      jsonAnswer(409, { error: { code: 'conflict', message: messages.alreadyApplied } }),
    );
    renderInApp(
      <>
        <ApplicationForm offerId="offer-1" />
        <Toaster />
      </>,
    );
    setField('Pitch', goodPitch);

    await apply();

    await screen.findByText(messages.alreadyApplied);
  });
});
