import { test } from 'vitest';
import assert from 'node:assert/strict';
import { messages } from '@raly/contracts/messages';
import { apiErrorMessage } from '../../src/lib/api-error.ts';

test('when the BFF answers an error body, then its message is shown', () => {
  const error = {
    status: 409,
    data: { error: { code: 'username-taken', message: messages.usernameExists } },
  };

  assert.equal(apiErrorMessage(error, messages.createAccountFailed), messages.usernameExists);
});

test('when the failure carries no message (network, parse error), then the fallback is shown', () => {
  assert.equal(
    apiErrorMessage({ status: 'FETCH_ERROR', error: 'TypeError' }, messages.createAccountFailed),
    messages.createAccountFailed,
  );
  assert.equal(
    apiErrorMessage(undefined, messages.updateAccountFailed),
    messages.updateAccountFailed,
  );
  assert.equal(
    apiErrorMessage({ status: 500, data: '<html>' }, messages.updateAccountFailed),
    messages.updateAccountFailed,
  );
});
