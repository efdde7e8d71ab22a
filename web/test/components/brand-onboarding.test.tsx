import assert from 'node:assert/strict';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { describe, test } from 'vitest';
import type { Me } from '@raly/contracts/bff-api';
import { messages } from '@raly/contracts/messages';
import { aBrandRecord, aUserRecord } from '@raly/test-support/records';
import { Toaster } from '@/components/ui/toaster';
import { OnboardingPage } from '@/features/onboarding/components/onboarding-page';
import { answerBff, jsonAnswer, renderInApp, type BffCall } from './render';

const goodBio = 'We make bright running shoes for people who run in the city.';

/** A brand user's records with these onboarding flags. */
function aBrandMe(onboarding: { terms: boolean; brand: boolean }): Me {
  const brand = aBrandRecord({ company: 'Acme Shoes', websiteUrl: 'https://acme.example' });
  const user = aUserRecord({ onboarding, brand: { id: brand.id, isAdmin: true } });
  return { user, brand };
}

/**
 * Renders /onboarding (and a stand-in dashboard) for `me`; `answer` answers
 * every call but GET /api/me.
 */
function renderOnboarding(me: Me, answer: (call: BffCall) => Response = () => jsonAnswer(500, {})) {
  const calls = answerBff((call) =>
    call.method === 'GET' && call.path === '/api/me' ? jsonAnswer(200, { data: me }) : answer(call),
  );
  renderInApp(
    <>
      <Routes>
        <Route path="/onboarding" element={<OnboardingPage />} />
        <Route path="/dashboard" element={<p>The dashboard</p>} />
      </Routes>
      <Toaster />
    </>,
    { route: '/onboarding' },
  );
  return calls;
}

const setField = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label, { exact: true }), { target: { value } });

const done = () => userEvent.click(screen.getByRole('button', { name: 'Done' }));

describe('the brand onboarding steps', () => {
  test('when a new brand user opens onboarding, then the terms come first, with Next', async () => {
    renderOnboarding(aBrandMe({ terms: false, brand: false }));

    const heading = await screen.findByRole('heading', { level: 2 });

    assert.equal(heading.textContent, 'Terms of service');
    assert.ok(screen.getByRole('button', { name: 'Next' }));
    assert.equal(screen.queryByText('Brand onboarding is coming soon.'), null);
  });

  test('when the terms are agreed, then the brand step shows with Done and the brand as it is', async () => {
    renderOnboarding(aBrandMe({ terms: true, brand: false }));

    const heading = await screen.findByRole('heading', { level: 2 });

    assert.equal(heading.textContent, 'Your brand');
    assert.ok(screen.getByRole('button', { name: 'Done' }));
    assert.equal((screen.getByLabelText('Company') as HTMLInputElement).value, 'Acme Shoes');
    assert.equal(
      (screen.getByLabelText('Website') as HTMLInputElement).value,
      'https://acme.example',
    );
  });

  test('when the brand step breaks the brand profile rules, then each message shows and nothing is sent', async () => {
    // Arrange
    const calls = renderOnboarding(aBrandMe({ terms: true, brand: false }));
    await screen.findByLabelText('Bio');
    setField('Company', '');
    setField('Website', 'acme.example');

    // Act: an empty bio
    await done();

    // Assert
    await screen.findByText(messages.companyRequired);
    await screen.findByText(messages.urlHttpOrHttps);
    await screen.findByText(messages.bioTooShort);

    setField('Bio', 'b'.repeat(281));
    await done();
    await screen.findByText(messages.bioTooLong);
    assert.deepEqual(
      calls.filter((call) => call.method !== 'GET'),
      [],
    );
  });

  test('when the brand step is saved, then the essentials go to the BFF and the user goes to the dashboard', async () => {
    // Arrange
    const me = aBrandMe({ terms: true, brand: false });
    const answered: Me = {
      user: { ...me.user, version: me.user.version + 1, onboarding: { terms: true, brand: true } },
      brand: { ...me.brand!, version: me.brand!.version + 1, bio: goodBio },
    };
    const calls = renderOnboarding(me, () => jsonAnswer(200, { data: answered }));
    await screen.findByLabelText('Bio');
    setField('Bio', goodBio);

    // Act
    await done();

    // Assert
    await screen.findByText('The dashboard');
    assert.deepEqual(
      calls.filter((call) => call.method !== 'GET'),
      [
        {
          method: 'POST',
          path: '/api/me/onboarding/brand',
          body: { company: 'Acme Shoes', websiteUrl: 'https://acme.example', bio: goodBio },
        },
      ],
    );
  });

  test('when the BFF refuses a field, then its message shows under the field and in the toast', async () => {
    // Arrange
    const refusal = {
      error: {
        code: 'invalid-argument',
        message: messages.bioTooLong,
        fields: { bio: messages.bioTooLong },
      },
    };
    renderOnboarding(aBrandMe({ terms: true, brand: false }), () => jsonAnswer(400, refusal));
    await screen.findByLabelText('Bio');
    setField('Bio', goodBio);

    // Act
    await done();

    // Assert
    const shown = await screen.findAllByText(messages.bioTooLong);
    assert.equal(shown.length, 2);
    assert.ok(screen.getByRole('heading', { name: 'Your brand' }));
  });
});
