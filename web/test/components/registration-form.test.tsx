import assert from 'node:assert/strict';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, test } from 'vitest';
import { messages } from '@raly/contracts/messages';
import { RegistrationForm } from '@/features/auth/components/registration-form';
import { answerBff, jsonAnswer, renderInApp } from './render';

describe('the registration form', () => {
  test('when a creator submits it empty, then the spec messages show and no account is created', async () => {
    // Arrange
    const calls = answerBff(() => jsonAnswer(500, {}));
    renderInApp(<RegistrationForm mode="creator" />, { route: '/join/creator' });

    // Act
    await userEvent.click(screen.getByRole('button', { name: 'Join as a creator' }));

    // Assert
    await screen.findByText(messages.usernameRequired);
    assert.ok(screen.getByText(messages.emailRequired));
    assert.ok(screen.getByText(messages.passwordRequired));
    assert.ok(screen.getByText(messages.agreeTermsRegistration));
    assert.deepEqual(
      calls.filter((call) => call.path === '/api/accounts'),
      [],
    );
  });

  test('when a brand submits it empty, then the brand fields get their spec messages too', async () => {
    // Arrange
    answerBff(() => jsonAnswer(500, {}));
    renderInApp(<RegistrationForm mode="brand" />, { route: '/join/brand' });

    // Act
    await userEvent.click(screen.getByRole('button', { name: 'Join as a brand' }));

    // Assert
    await screen.findByText(messages.firstNameRequired);
    assert.ok(screen.getByText(messages.lastNameRequired));
    assert.ok(screen.getByText(messages.usernameRequired));
  });
});
