import assert from 'node:assert/strict';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, test, vi } from 'vitest';
import { messages } from '@raly/contracts/messages';
import { uniqueToken } from '@raly/test-support/records';
import { VerifyPasswordDialog } from '@/features/settings/components/verify-password-dialog';
import { answerBff, jsonAnswer, renderInApp } from './render';

describe('the Verify Password dialog', () => {
  test("when it is submitted empty, then the spec message 'Please enter a password.' shows and nothing is verified", async () => {
    // Arrange
    const calls = answerBff(() => jsonAnswer(200, { data: true }));
    const onVerified = vi.fn();
    renderInApp(<VerifyPasswordDialog open onCancel={() => {}} onVerified={onVerified} />);

    // Act
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));

    // Assert
    await screen.findByText(messages.verifyPasswordRequired);
    assert.deepEqual(calls, []);
    assert.equal(onVerified.mock.calls.length, 0);
  });

  test('when the BFF refuses the password, then "Incorrect password" shows; when it accepts, then the password is handed on', async () => {
    // Arrange
    const right = `pw-${uniqueToken()}`;
    const calls = answerBff((call) =>
      (call.body as { password: string }).password === right
        ? jsonAnswer(200, { data: true })
        : jsonAnswer(401, {
            error: { code: 'unauthenticated', message: messages.incorrectPassword },
          }),
    );
    const onVerified = vi.fn();
    renderInApp(<VerifyPasswordDialog open onCancel={() => {}} onVerified={onVerified} />);

    // Act
    await userEvent.type(screen.getByLabelText('Password'), 'wrong-one');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByText(messages.incorrectPassword);
    await userEvent.clear(screen.getByLabelText('Password'));
    await userEvent.type(screen.getByLabelText('Password'), right);
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));

    // Assert
    await waitFor(() => assert.deepEqual(onVerified.mock.calls, [[right]]));
    assert.deepEqual(
      calls.map((call) => call.path),
      ['/api/auth/verify-password', '/api/auth/verify-password'],
    );
  });

  test('when Cancel is pressed, then the dialog asks to be closed', async () => {
    // Arrange
    const onCancel = vi.fn();
    renderInApp(<VerifyPasswordDialog open onCancel={onCancel} onVerified={() => {}} />);

    // Act
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));

    // Assert
    assert.equal(onCancel.mock.calls.length, 1);
  });
});
