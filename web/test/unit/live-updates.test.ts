import { test } from 'vitest';
import assert from 'node:assert/strict';
import {
  applyBrandUpdated,
  applyUserUpdated,
  isNewer,
  isProfileLoaded,
  mergeMe,
} from '../../src/lib/live-updates.ts';
import { aBrandRecord, aUserRecord } from '@raly/test-support/records';
import type { Me } from '@raly/contracts/bff-api';

test('when a push carries a higher version, then it is newer', () => {
  assert.equal(isNewer({ version: 3 }, { version: 4 }), true);
});

test('when a push carries the same or a lower version, then it is not newer', () => {
  assert.equal(isNewer({ version: 3 }, { version: 3 }), false);
  assert.equal(isNewer({ version: 3 }, { version: 2 }), false);
});

test('when nothing is held yet, then any push is newer', () => {
  assert.equal(isNewer(null, { version: 0 }), true);
});

test('when user.updated carries a higher version, then the cached user is replaced', () => {
  const user = aUserRecord({ version: 2 });
  const me: Me = { user, brand: null };
  const pushed = { ...user, version: 3, username: 'renamed' };

  const next = applyUserUpdated(me, pushed);

  assert.equal(next.user.username, 'renamed');
  assert.equal(next.user.version, 3);
});

test('when user.updated arrives late with an older version, then the cache keeps the newer user', () => {
  const user = aUserRecord({ version: 5, username: 'newest' });
  const me: Me = { user, brand: null };

  const next = applyUserUpdated(me, { ...user, version: 4, username: 'older' });

  assert.equal(next, me);
});

test('when user.updated is for another user, then the cache is untouched', () => {
  const me: Me = { user: aUserRecord(), brand: null };

  const next = applyUserUpdated(me, aUserRecord({ version: 99 }));

  assert.equal(next, me);
});

test("when brand.updated is for the user's brand and newer, then the cached brand is replaced", () => {
  const brand = aBrandRecord({ version: 1 });
  const me: Me = { user: aUserRecord({ brand: { id: brand.id, isAdmin: true } }), brand };

  const next = applyBrandUpdated(me, { ...brand, version: 2, company: 'Acme 2' });

  assert.equal(next.brand?.company, 'Acme 2');
});

test('when brand.updated is for a brand the user does not belong to, then the cache is untouched', () => {
  const brand = aBrandRecord();
  const me: Me = { user: aUserRecord({ brand: { id: brand.id, isAdmin: true } }), brand };

  const next = applyBrandUpdated(me, aBrandRecord({ version: 50 }));

  assert.equal(next, me);
});

test('when the brand record is not loaded yet but the user holds its id, then brand.updated fills it in', () => {
  const brand = aBrandRecord();
  const me: Me = { user: aUserRecord({ brand: { id: brand.id, isAdmin: false } }), brand: null };

  const next = applyBrandUpdated(me, brand);

  assert.equal(next.brand, brand);
});

test('when an answer of the BFF is merged, then each record keeps its higher version', () => {
  const brand = aBrandRecord({ version: 7 });
  const user = aUserRecord({ version: 2, brand: { id: brand.id, isAdmin: true } });
  const cached: Me = { user, brand };

  const next = mergeMe(cached, {
    user: { ...user, version: 3, firstName: 'Ada' },
    brand: { ...brand, version: 6 },
  });

  assert.equal(next.user.firstName, 'Ada');
  assert.equal(next.brand, brand);
});

test('when no GET /api/me answer arrived yet, then the profile is not loaded', () => {
  assert.equal(isProfileLoaded(undefined), false);
});

test("when a creator's user record is there, then the profile is loaded (no brand to wait for)", () => {
  assert.equal(isProfileLoaded({ user: aUserRecord(), brand: null }), true);
});

test("when a brand user's record is there but their brand record is not, then the profile is still loading (spec §4)", () => {
  // Arrange
  const brand = aBrandRecord();
  const user = aUserRecord({ brand: { id: brand.id, isAdmin: true } });

  // Act / Assert
  assert.equal(isProfileLoaded({ user, brand: null }), false);
  assert.equal(isProfileLoaded({ user, brand }), true);
});
