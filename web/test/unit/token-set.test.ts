import { test } from 'vitest';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TokenSet } from '@raly/contracts/bff-api';
import { readUsableTokenSet, tokenExpirySeconds } from '../../src/lib/token-set.ts';

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (claims: object) => `${base64url({ alg: 'none' })}.${base64url(claims)}.signature`;
const now = Math.floor(Date.now() / 1000);

function aTokenSet(refreshExp: number | undefined): TokenSet {
  const sub = randomUUID();
  return {
    accessToken: jwt({ sub, exp: now + 300 }),
    refreshToken: jwt(refreshExp === undefined ? { sub } : { sub, exp: refreshExp }),
    idToken: jwt({ sub, exp: now + 300 }),
    expiresIn: 300,
    refreshExpiresIn: 1800,
  };
}

test('when a JWT carries exp, then its expiry is read in seconds', () => {
  assert.equal(tokenExpirySeconds(jwt({ exp: 1234 })), 1234);
});

test('when a string is not a JWT, then no expiry is read', () => {
  assert.equal(tokenExpirySeconds('not-a-jwt'), null);
});

test('when the stored token set has a live refresh token, then it is usable', () => {
  const tokens = aTokenSet(now + 600);

  assert.deepEqual(readUsableTokenSet(JSON.stringify(tokens), now), tokens);
});

test('when the stored refresh token has expired, then nothing is usable', () => {
  assert.equal(readUsableTokenSet(JSON.stringify(aTokenSet(now - 1)), now), null);
});

test('when the refresh token has no expiry (offline token), then the set is usable', () => {
  const tokens = aTokenSet(undefined);

  assert.deepEqual(readUsableTokenSet(JSON.stringify(tokens), now), tokens);
});

test('when storage holds nothing, garbage or a wrong shape, then nothing is usable', () => {
  assert.equal(readUsableTokenSet(null, now), null);
  assert.equal(readUsableTokenSet('{not json', now), null);
  assert.equal(readUsableTokenSet(JSON.stringify({ accessToken: 'x' }), now), null);
});
