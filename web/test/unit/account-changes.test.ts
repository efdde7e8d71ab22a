import { test } from 'vitest';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { UserRecord } from '@raly/contracts/records';
import {
  accountChanges,
  accountValuesOf,
} from '../../src/features/settings/utils/account-changes.ts';
import { aUserRecord } from '@raly/test-support/records';

const aBrandUser = () =>
  aUserRecord({
    username: null,
    firstName: 'Ada',
    lastName: 'Lovelace',
    brand: { id: randomUUID(), isAdmin: true },
  });

test('when nothing changed, then the update is empty', () => {
  const user = aUserRecord();

  assert.deepEqual(accountChanges(user, accountValuesOf(user), false), {});
});

test('when a creator changes username, phone, interests and offers, then exactly those are sent', () => {
  const user = aUserRecord();
  const values = {
    ...accountValuesOf(user),
    username: `new${randomUUID().slice(0, 8)}`,
    phoneNumber: ' +1 555 0100 ',
    interests: ['Gaming', 'Crypto'] as UserRecord['interests'],
    notifications: { offers: false, marketing: true },
  };

  assert.deepEqual(accountChanges(user, values, false), {
    username: values.username,
    phoneNumber: '+1 555 0100',
    interests: ['Gaming', 'Crypto'],
    notifications: { offers: false, marketing: true },
  });
});

test('when the interests are the same in another order, then they are not sent', () => {
  const user = aUserRecord({ interests: ['AI', 'Sports'] });

  const changes = accountChanges(
    user,
    { ...accountValuesOf(user), interests: ['Sports', 'AI'] },
    false,
  );

  assert.deepEqual(changes, {});
});

test('when the e-mail differs only in case and spaces, then it is not an e-mail change', () => {
  const user = aUserRecord();

  const changes = accountChanges(
    user,
    { ...accountValuesOf(user), email: ` ${user.email.toUpperCase()} ` },
    false,
  );

  assert.equal(changes.email, undefined);
});

test('when the e-mail changes, then the new one is sent trimmed', () => {
  const user = aUserRecord();
  const email = `other.${randomUUID().slice(0, 8)}@example.com`;

  assert.deepEqual(accountChanges(user, { ...accountValuesOf(user), email: ` ${email}` }, false), {
    email,
  });
});

test('when a brand user saves, then no username, interests or offers are ever sent', () => {
  const user = aBrandUser();
  const values = {
    ...accountValuesOf(user),
    username: 'sneaky',
    interests: ['AI'] as UserRecord['interests'],
    firstName: ' Grace ',
    notifications: { offers: false, marketing: false },
  };

  assert.deepEqual(accountChanges(user, values, true), {
    firstName: 'Grace',
    notifications: { marketing: false },
  });
});

test('when a brand user changes only the offers box, then nothing is sent', () => {
  const user = aBrandUser();

  const changes = accountChanges(
    user,
    { ...accountValuesOf(user), notifications: { offers: false, marketing: true } },
    true,
  );

  assert.deepEqual(changes, {});
});
