import { test } from 'vitest';
import assert from 'node:assert/strict';
import { offerFormSchema } from '@raly/contracts/offers';
import {
  emptyOfferFormInput,
  offerCandidateOf,
  offerFieldOf,
  offerFormInputOf,
} from '../../src/features/brand-offers/utils/offer-form-values.ts';
import {
  applicationCandidateOf,
  applicationFieldOf,
} from '../../src/features/offers/utils/application-form-values.ts';
import { anOfferRecord } from '../support/offer-records.ts';

test('when an offer is edited, then its fields read back to the same offer', () => {
  const offer = anOfferRecord({
    compensation: { kind: 'fixed', amountMinor: 99_950, currency: 'EUR' },
  });

  const candidate = offerFormSchema.parse(offerCandidateOf(offerFormInputOf(offer)));

  assert.deepEqual(candidate.compensation, offer.compensation);
  assert.equal(candidate.creatorsWanted, offer.creatorsWanted);
  assert.equal(candidate.title, offer.title);
  // The apply-by date keeps its day (the time becomes the end of that day).
  assert.equal(new Date(candidate.applyBy).toDateString(), new Date(offer.applyBy).toDateString());
});

test('when the compensation is the product only, then the product description is sent', () => {
  const candidate = offerCandidateOf({
    ...emptyOfferFormInput,
    compensationKind: 'product',
    productDescription: 'A pair of shoes',
    amount: '12',
  });

  assert.deepEqual(candidate.compensation, { kind: 'product', description: 'A pair of shoes' });
});

test('when a rule fails inside the compensation or apply-by, then its message goes under the form field', () => {
  assert.equal(offerFieldOf(['compensation', 'amountMinor']), 'amount');
  assert.equal(offerFieldOf(['compensation', 'currency']), 'currency');
  assert.equal(offerFieldOf(['compensation', 'description']), 'productDescription');
  assert.equal(offerFieldOf(['applyBy']), 'applyByDate');
  assert.equal(offerFieldOf(['interests', 0]), 'interests');
});

test('when no rate is typed, then the application proposes none; a typed rate is sent in minor units', () => {
  assert.equal(
    applicationCandidateOf({ pitch: 'p', rateAmount: ' ', rateCurrency: 'USD' }).proposedRate,
    null,
  );
  assert.deepEqual(
    applicationCandidateOf({ pitch: 'p', rateAmount: '300', rateCurrency: 'GBP' }).proposedRate,
    { amountMinor: 30_000, currency: 'GBP' },
  );
  assert.equal(applicationFieldOf(['proposedRate', 'amountMinor']), 'rateAmount');
  assert.equal(applicationFieldOf(['pitch']), 'pitch');
});
