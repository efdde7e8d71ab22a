import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'vitest';
import { CallableError, callableCodeFor, readCallableResponse } from '../src/callable';
import { eventTypes, parseEnvelope } from '../src/events';

describe('callable protocol (spec §7–8)', () => {
  it('maps every HTTP status of the spec to its code', () => {
    const expected: Record<number, string> = {
      400: 'invalid-argument',
      401: 'unauthenticated',
      403: 'permission-denied',
      404: 'not-found',
      409: 'aborted',
      429: 'resource-exhausted',
      499: 'cancelled',
      500: 'internal',
      501: 'unimplemented',
      503: 'unavailable',
      504: 'deadline-exceeded',
    };
    for (const [status, code] of Object.entries(expected))
      assert.equal(callableCodeFor(Number(status)), code);
    assert.equal(callableCodeFor(418), 'internal');
  });
  it('returns data of a 2xx answer', () => {
    assert.equal(readCallableResponse<boolean>(200, { data: true }), true);
  });
  it('when a 2xx answer has no data field, then the error is internal', () => {
    assert.throws(
      () => readCallableResponse(200, { result: 1 }),
      (e) => e instanceof CallableError && e.code === 'internal',
    );
  });
  it('when the answer is 429, then the error is resource-exhausted with the message', () => {
    assert.throws(
      () => readCallableResponse(429, { error: { message: 'slow down' } }),
      (e) =>
        e instanceof CallableError && e.code === 'resource-exhausted' && e.message === 'slow down',
    );
  });
});

describe('event envelope', () => {
  it('rejects a poison message and accepts a valid image event', () => {
    assert.throws(() => parseEnvelope('not json'));
    assert.throws(() => parseEnvelope(JSON.stringify({ id: 'x' })));
    const envelope = parseEnvelope(
      JSON.stringify({
        id: randomUUID(),
        type: eventTypes.imageStored,
        source: 'media',
        subject: 'u1',
        time: new Date().toISOString(),
        version: 1,
        data: {
          ownerType: 'user',
          ownerId: 'u1',
          kind: 'profile',
          key: 'user/profile-img/u1.png',
          url: 'http://x/y',
          contentType: 'image/png',
          sizeBytes: 10,
        },
      }),
    );
    assert.equal(envelope.subject, 'u1');
  });
});
