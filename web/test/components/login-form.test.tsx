import assert from 'node:assert/strict';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, test } from 'vitest';
import { messages } from '@raly/contracts/messages';
import { creatorRegistration } from '@raly/test-support/records';
import { LoginForm } from '@/features/auth/components/login-form';
import { answerBff, jsonAnswer, renderInApp } from './render';

describe('the login form', () => {
  test('when it is submitted empty, then the spec messages for e-mail and password show and nothing is sent', async () => {
    // Arrange
    const calls = answerBff(() => jsonAnswer(500, {}));
    renderInApp(<LoginForm />, { route: '/login' });

    // Act
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));

    // Assert
    await screen.findByText(messages.emailRequired);
    assert.ok(screen.getByText(messages.passwordRequired));
    assert.deepEqual(calls, []);
  });

  test('when the sign-in is under way, then the button is busy and disabled; when it fails, then "Incorrect login" shows', async () => {
    // Arrange
    const person = creatorRegistration();
    let answer: (response: Response) => void = () => {};
    const calls = answerBff(() => new Promise((resolve) => (answer = resolve)));
    renderInApp(<LoginForm />, { route: '/login' });
    await userEvent.type(screen.getByLabelText('Email'), person.email);
    await userEvent.type(screen.getByLabelText('Password'), person.password);

    // Act
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));

    // Assert
    await waitFor(() => assert.equal(calls.length, 1));
    assert.deepEqual(calls[0], {
      method: 'POST',
      path: '/api/auth/login',
      body: { email: person.email, password: person.password },
    });
    const button = screen.getByRole('button', { name: /Log in/ });
    assert.equal((button as HTMLButtonElement).disabled, true);
    assert.equal(button.getAttribute('aria-busy'), 'true');
    answer(jsonAnswer(401, { error: { code: 'unauthenticated', message: 'no' } }));
    await screen.findByText(messages.incorrectLogin);
    assert.equal(
      (screen.getByRole('button', { name: 'Log in' }) as HTMLButtonElement).disabled,
      false,
    );
  });

  test('when the BFF refuses the credentials, then "Incorrect login" shows and no suspension message', async () => {
    // Arrange
    const refusal = { code: 'unauthenticated', message: messages.incorrectLogin };

    // Act
    await signInRefused(401, refusal);

    // Assert
    const alert = await screen.findByRole('alert');
    assert.equal(alert.textContent, messages.incorrectLogin);
    assert.equal(screen.queryByText(messages.accountSuspended), null);
  });

  test('when the BFF answers that the account is suspended, then "This account is suspended." shows instead of "Incorrect login"', async () => {
    // Arrange
    const refusal = { code: 'permission-denied', message: messages.accountSuspended };

    // Act
    await signInRefused(403, refusal);

    // Assert
    const alert = await screen.findByRole('alert');
    assert.equal(alert.textContent, messages.accountSuspended);
    assert.equal(screen.queryByText(messages.incorrectLogin), null);
  });
});

/** Renders the form, has the BFF refuse every sign-in with `error`, and submits a person's credentials. */
async function signInRefused(status: number, error: { code: string; message: string }) {
  const person = creatorRegistration();
  answerBff(() => jsonAnswer(status, { error }));
  renderInApp(<LoginForm />, { route: '/login' });
  await userEvent.type(screen.getByLabelText('Email'), person.email);
  await userEvent.type(screen.getByLabelText('Password'), person.password);
  await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
}
