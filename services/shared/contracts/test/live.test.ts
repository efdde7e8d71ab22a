import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { LIVE_RETRY_DELAY_MS, liveRetryDelayMs } from '../src/live-retry';

describe('handshake retries after an unavailable refusal (docs/api.md "socket.io")', () => {
  it('doubles the wait after each refusal in a row, from the first wait up to the longest', () => {
    const ceilings = [1, 2, 3, 4, 5, 6, 7, 40].map((failures) =>
      liveRetryDelayMs(failures, () => 1),
    );
    assert.deepEqual(ceilings, [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('waits at least half of the ceiling, so a fleet of tabs spreads its retries', () => {
    assert.equal(
      liveRetryDelayMs(1, () => 0),
      LIVE_RETRY_DELAY_MS.first / 2,
    );
    assert.equal(
      liveRetryDelayMs(3, () => 0.5),
      3000,
    );
  });
});
