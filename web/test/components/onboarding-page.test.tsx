import assert from 'node:assert/strict';
import { screen } from '@testing-library/react';
import { describe, test } from 'vitest';
import type { UserRecord } from '@raly/contracts/records';
import { aUserRecord } from '@raly/test-support/records';
import { OnboardingPage } from '@/features/onboarding/components/onboarding-page';
import { answerBff, jsonAnswer, renderInApp } from './render';

/** Renders /onboarding for a creator whose record has these onboarding flags. */
async function stepShownFor(onboarding: UserRecord['onboarding']) {
  const user = aUserRecord({ onboarding });
  answerBff((call) =>
    call.path === '/api/me'
      ? jsonAnswer(200, { data: { user, brand: null } })
      : jsonAnswer(404, {}),
  );
  renderInApp(<OnboardingPage />, { route: '/onboarding' });
  const heading = await screen.findByRole('heading', { level: 2 });
  const button = screen.getByRole('button', { name: /^(Next|Done)$/ });
  return [heading.textContent, button.textContent];
}

describe('the onboarding steps', () => {
  test('when nothing is done, then the terms come first, with Next', async () => {
    const shown = await stepShownFor({
      terms: false,
      interests: false,
      connects: false,
      wallet: false,
    });

    assert.deepEqual(shown, ['Terms of service', 'Next']);
  });

  test('when the terms are agreed, then the interests come next', async () => {
    const shown = await stepShownFor({
      terms: true,
      interests: false,
      connects: false,
      wallet: false,
    });

    assert.deepEqual(shown, ['Pick your interests', 'Next']);
  });

  test('when only the wallet is left, then it shows with Done', async () => {
    const shown = await stepShownFor({
      terms: true,
      interests: true,
      connects: true,
      wallet: false,
    });

    assert.equal(shown[1], 'Done');
    assert.notEqual(shown[0], 'Terms of service');
    assert.notEqual(shown[0], 'Pick your interests');
  });
});
