import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { drawCases, dotSegments, type FuzzCredential, type FuzzRoute } from '../src/fuzz/index';

const credentials: FuzzCredential[] = [
  { label: 'no credentials', headers: {} },
  { label: 'creator access token', headers: { authorization: 'Bearer x' }, user: true },
];
const brandImages: FuzzRoute = {
  method: 'GET',
  path: '/brands/:id/images/:kind',
  auth: 'user',
  body: 'none',
  params: { id: ['b1'], kind: ['cover'] },
};
const health: FuzzRoute = { method: 'GET', path: '/health/live', auth: 'none', body: 'none' };
const options = { seed: 7, runsPerRoute: 5, marker: 'fuzzmark' };

describe('dot and empty path segments', () => {
  test('when a route has path parameters, then every run sends each of them as ".", "..", "%2e", "%2E%2E" and empty, signed in', () => {
    const cases = drawCases([brandImages], credentials, options).filter(
      (fuzzCase) => fuzzCase.payload.kind === 'dot or empty path segment',
    );

    assert.deepEqual(
      cases.map((fuzzCase) => fuzzCase.path),
      [
        ...dotSegments.map((segment) => `/brands/${segment}/images/cover`),
        ...dotSegments.map((segment) => `/brands/b1/images/${segment}`),
      ],
    );
    assert.ok(cases.every((fuzzCase) => fuzzCase.credential.user === true));
  });

  test('when a route has no path parameter, then it gets no such request', () => {
    const cases = drawCases([health], credentials, options);

    assert.equal(cases.length, 5);
    assert.ok(cases.every((fuzzCase) => fuzzCase.payload.kind !== 'dot or empty path segment'));
  });

  test('when the same seed draws twice, then the requests are the same', () => {
    const describeAll = () =>
      drawCases([brandImages, health], credentials, options).map(
        (fuzzCase) => `${fuzzCase.credential.label} ${fuzzCase.path} ${fuzzCase.payload.label}`,
      );

    assert.deepEqual(describeAll(), describeAll());
  });
});
