import { test } from 'vitest';
import assert from 'node:assert/strict';
import {
  currentBrandStep,
  currentStep,
  outstandingSteps,
} from '../../src/features/onboarding/utils/steps.ts';

const none = { terms: false, interests: false, connects: false, wallet: false };

test('when no step is done, then terms shows first with Next', () => {
  assert.deepEqual(currentStep(none), { step: 'terms', submitLabel: 'Next' });
});

test('when terms is done, then interests shows with Next', () => {
  assert.deepEqual(currentStep({ ...none, terms: true }), {
    step: 'interests',
    submitLabel: 'Next',
  });
});

test('when only wallet is outstanding, then wallet shows with Done', () => {
  assert.deepEqual(currentStep({ terms: true, interests: true, connects: true, wallet: false }), {
    step: 'wallet',
    submitLabel: 'Done',
  });
});

test('when steps are done out of order, then the first outstanding one in the spec order shows', () => {
  const flags = { terms: true, interests: false, connects: true, wallet: false };

  assert.deepEqual(outstandingSteps(flags), ['interests', 'wallet']);
  assert.deepEqual(currentStep(flags), { step: 'interests', submitLabel: 'Next' });
});

test('when the only outstanding step is the first, then its button reads Done', () => {
  assert.deepEqual(currentStep({ terms: false, interests: true, connects: true, wallet: true }), {
    step: 'terms',
    submitLabel: 'Done',
  });
});

test('when every step is done, then there is no step (the user goes to the dashboard)', () => {
  assert.equal(currentStep({ terms: true, interests: true, connects: true, wallet: true }), null);
});

test('when a flag is missing from the record, then that step counts as outstanding', () => {
  assert.deepEqual(outstandingSteps({ terms: true, interests: true, connects: true }), ['wallet']);
});

test('when a brand user has done nothing, then terms shows first with Next', () => {
  assert.deepEqual(currentBrandStep({ terms: false, brand: false }), {
    step: 'terms',
    submitLabel: 'Next',
  });
});

test('when a brand user agreed to the terms, then the brand step shows with Done', () => {
  assert.deepEqual(currentBrandStep({ terms: true, brand: false }), {
    step: 'brand',
    submitLabel: 'Done',
  });
});

test('when a brand user has both flags, then there is no step (they go to the dashboard)', () => {
  assert.equal(currentBrandStep({ terms: true, brand: true }), null);
});
