import assert from 'node:assert/strict';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, test } from 'vitest';
import { messages } from '@raly/contracts/messages';
import { Toaster } from '@/components/ui/toaster';
import { OfferForm } from '@/features/brand-offers/components/offer-form';
import { anOfferRecord } from '../support/offer-records';
import { answerBff, jsonAnswer, renderInApp } from './render';

/** Sets a field's value at once (long texts would take seconds to type). */
const setField = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label, { exact: true }), { target: { value } });

const dateInDays = (days: number) => {
  const date = new Date(Date.now() + days * 86_400_000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
};

/** Fills every field with a valid value. */
async function fillValidOffer() {
  setField('Title', 'Launch video for our game');
  setField('Brief', 'Show the first level of our new game to your audience, in your own words.');
  await userEvent.click(screen.getByRole('checkbox', { name: 'Gaming' }));
  await userEvent.click(screen.getByRole('checkbox', { name: 'X' }));
  setField('Deliverables', 'One video of 30 to 60 seconds.');
  setField('Amount', '1,250.50');
  setField('Creators wanted', '3');
  setField('Apply by', dateInDays(14));
}

const publish = () => userEvent.click(screen.getByRole('button', { name: 'Publish' }));

describe('the offer form', () => {
  test('when it is published empty, then every required rule shows its message and nothing is sent', async () => {
    // Arrange
    const calls = answerBff(() => jsonAnswer(500, {}));
    renderInApp(<OfferForm />, { route: '/brand/offers/new' });
    setField('Creators wanted', '');

    // Act
    await publish();

    // Assert
    await screen.findByText(messages.offerTitleRequired);
    for (const message of [
      messages.offerBriefRequired,
      messages.offerInterestsRequired,
      messages.offerPlatformsRequired,
      messages.offerDeliverablesRequired,
      messages.compensationAmountInvalid,
      messages.creatorsWantedRange,
      messages.applyByRequired,
    ])
      assert.ok(screen.getByText(message), message);
    assert.deepEqual(calls, []);
  });

  test('when the texts are too short, then the length rules show their messages', async () => {
    answerBff(() => jsonAnswer(500, {}));
    renderInApp(<OfferForm />);
    await fillValidOffer();
    setField('Title', 'Short');
    setField('Brief', 'Too short a brief.');

    await publish();

    await screen.findByText(messages.offerTitleTooShort);
    assert.ok(screen.getByText(messages.offerBriefTooShort));
  });

  test('when the texts are too long, then the length rules show their messages', async () => {
    answerBff(() => jsonAnswer(500, {}));
    renderInApp(<OfferForm />);
    await fillValidOffer();
    setField('Title', 'T'.repeat(81));
    setField('Brief', 'B'.repeat(2001));
    setField('Deliverables', 'D'.repeat(1001));

    await publish();

    await screen.findByText(messages.offerTitleTooLong);
    assert.ok(screen.getByText(messages.offerBriefTooLong));
    assert.ok(screen.getByText(messages.offerDeliverablesTooLong));
  });

  test('when the amount is 0, too large or not an amount, then its message shows', async () => {
    answerBff(() => jsonAnswer(500, {}));
    renderInApp(<OfferForm />);
    await fillValidOffer();

    setField('Amount', '1000000.01');
    await publish();
    await screen.findByText(messages.compensationAmountTooLarge);

    setField('Amount', '0');
    await publish();
    await screen.findByText(messages.compensationAmountInvalid);

    setField('Amount', '12.345');
    await publish();
    await screen.findByText(messages.compensationAmountInvalid);
  });

  test('when the creators wanted are out of range, then the range message shows', async () => {
    answerBff(() => jsonAnswer(500, {}));
    renderInApp(<OfferForm />);
    await fillValidOffer();

    setField('Creators wanted', '101');
    await publish();
    await screen.findByText(messages.creatorsWantedRange);

    setField('Creators wanted', '0');
    await publish();
    await screen.findByText(messages.creatorsWantedRange);
  });

  test('when the apply-by date has passed, then it must be in the future', async () => {
    answerBff(() => jsonAnswer(500, {}));
    renderInApp(<OfferForm />);
    await fillValidOffer();
    setField('Apply by', dateInDays(-2));

    await publish();

    await screen.findByText(messages.applyByInFuture);
  });

  test('when the compensation is the product only, then its description is required and bounded', async () => {
    answerBff(() => jsonAnswer(500, {}));
    renderInApp(<OfferForm />);
    await fillValidOffer();
    await userEvent.click(screen.getByRole('radio', { name: 'Product only' }));

    await publish();
    await screen.findByText(messages.compensationProductRequired);

    setField('Product description', 'P'.repeat(501));
    await publish();
    await screen.findByText(messages.compensationProductTooLong);
  });

  test('when a valid offer is published, then it is sent opened, in minor units, with the apply-by at the end of the day', async () => {
    // Arrange
    const created = anOfferRecord();
    let release: (response: Response) => void = () => {};
    const calls = answerBff(
      () =>
        new Promise<Response>((resolve) => {
          release = resolve;
        }),
    );
    renderInApp(
      <>
        <OfferForm />
        <Toaster />
      </>,
    );
    await fillValidOffer();

    // Act
    await publish();

    // Assert: busy while the call runs, then the toast
    const button = await screen.findByRole('button', { name: 'Publish' });
    assert.equal(button.getAttribute('aria-busy'), 'true');
    assert.equal((button as HTMLButtonElement).disabled, true);
    release(jsonAnswer(201, { data: created }));
    await screen.findByText(messages.offerPublished);
    const [call] = calls;
    assert.equal(call?.method, 'POST');
    assert.equal(call?.path, '/api/offers');
    const body = call?.body as Record<string, unknown>;
    assert.equal(body.open, true);
    assert.deepEqual(body.compensation, { kind: 'fixed', amountMinor: 125_050, currency: 'USD' });
    assert.deepEqual(body.interests, ['Gaming']);
    assert.equal(body.creatorsWanted, 3);
    assert.equal(new Date(body.applyBy as string).getHours(), 23);
  });

  test('when a draft is saved and the server refuses, then the returned error text shows', async () => {
    const calls = answerBff(() =>
      jsonAnswer(403, { error: { code: 'forbidden', message: messages.brandSuspended } }),
    );
    renderInApp(
      <>
        <OfferForm />
        <Toaster />
      </>,
    );
    await fillValidOffer();

    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));

    await screen.findByText(messages.brandSuspended);
    assert.equal((calls[0]?.body as { open?: boolean }).open, false);
  });

  test('when an open offer is edited, then its fields show it, only Save is offered, and the changes are patched', async () => {
    // Arrange
    const offer = anOfferRecord({
      compensation: { kind: 'fixed', amountMinor: 99_950, currency: 'EUR' },
    });
    const calls = answerBff(() => jsonAnswer(200, { data: { ...offer, version: 2 } }));
    renderInApp(
      <>
        <OfferForm offer={offer} />
        <Toaster />
      </>,
    );
    assert.equal((screen.getByLabelText('Title') as HTMLInputElement).value, offer.title);
    assert.equal((screen.getByLabelText('Amount') as HTMLInputElement).value, '999.50');
    assert.equal((screen.getByLabelText('Currency') as HTMLSelectElement).value, 'EUR');
    assert.equal(screen.queryByRole('button', { name: 'Publish' }), null);
    assert.equal(screen.queryByRole('button', { name: 'Save draft' }), null);

    // Act
    setField('Title', 'A better title for the video');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    // Assert
    await screen.findByText(messages.offerSaved);
    assert.equal(calls.length, 1);
    assert.equal(calls[0]?.method, 'PATCH');
    assert.equal(calls[0]?.path, `/api/offers/${offer.id}`);
    assert.equal((calls[0]?.body as { title: string }).title, 'A better title for the video');
  });

  test('when a draft is published from its edit page, then it is patched, then opened', async () => {
    const offer = anOfferRecord({ status: 'draft', openedAt: null });
    const calls = answerBff((call) =>
      jsonAnswer(200, {
        data: { ...offer, version: 3, status: call.path.endsWith('/open') ? 'open' : 'draft' },
      }),
    );
    renderInApp(
      <>
        <OfferForm offer={offer} />
        <Toaster />
      </>,
    );

    await publish();

    await screen.findByText(messages.offerPublished);
    assert.deepEqual(
      calls.map((call) => `${call.method} ${call.path}`),
      [`PATCH /api/offers/${offer.id}`, `POST /api/offers/${offer.id}/open`],
    );
  });
});
