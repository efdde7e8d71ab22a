/** What a refused socket.io handshake tells the client (docs/api.md "socket.io"). */
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { AppError } from '@raly/service-kit/errors';
import { handshakeRefusal } from '../src/live/handshake';

describe('the connect_error of a refused handshake', () => {
  test('when the token or its session is refused, then it says unauthenticated and not to retry', () => {
    for (const code of ['unauthenticated', 'permission-denied'] as const) {
      const refusal = handshakeRefusal(new AppError(code, 'Unauthenticated'));
      assert.deepEqual([refusal.message, refusal.data], ['unauthenticated', { retryable: false }]);
    }
  });

  test('when the BFF could not check the token (its Redis away, a bug), then it says unavailable and to retry', () => {
    const causes = [
      new AppError('unavailable', 'There was a problem', { isTrusted: false }),
      new AppError('internal', 'boom'),
      new Error('Connection is closed.'),
    ];
    for (const cause of causes) {
      const refusal = handshakeRefusal(cause);
      assert.deepEqual([refusal.message, refusal.data], ['unavailable', { retryable: true }]);
    }
  });
});
