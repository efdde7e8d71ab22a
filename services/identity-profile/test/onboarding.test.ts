import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { messages } from '@raly/contracts/messages';
import type { UserRecord } from '@raly/contracts/records';
import {
  call,
  envelopeOf,
  registeredBrandUser,
  registeredCreator,
  useIdentityService,
} from './support';

const harness = useIdentityService();

const keyOf = (message: { key: Buffer | null }) => message.key?.toString() ?? '';
const outboxCount = async (userId: string) =>
  (await harness.sql.query('SELECT count(*)::int AS n FROM outbox WHERE key = $1', [userId]))
    .rows[0].n as number;

describe('PATCH /users/me/onboarding (updateOnboardingStatus)', () => {
  test('when a creator completes the terms step, then the flag is true and the snapshot event carries it', async () => {
    // Arrange
    const { userId, accessToken } = await registeredCreator(harness);

    // Act
    const answer = await call<UserRecord>(
      harness,
      'PATCH',
      '/users/me/onboarding',
      { step: 'terms', value: true },
      accessToken,
    );

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.data?.onboarding, {
      terms: true,
      interests: false,
      connects: false,
      wallet: false,
    });
    assert.equal(answer.body.data?.version, 2);
    const event = await harness.userEvents.waitFor(
      (m) => keyOf(m) === userId && envelopeOf(m).version === 2,
    );
    assert.equal((envelopeOf(event).data as unknown as UserRecord).onboarding.terms, true);
  });

  test('when a creator completes every step, then no flag is false', async () => {
    // Arrange
    const { accessToken } = await registeredCreator(harness);

    // Act
    for (const step of ['terms', 'interests', 'connects', 'wallet']) {
      await call(harness, 'PATCH', '/users/me/onboarding', { step, value: true }, accessToken);
    }
    const answer = await call<UserRecord>(harness, 'GET', '/users/me', undefined, accessToken);

    // Assert
    assert.deepEqual(answer.body.data?.onboarding, {
      terms: true,
      interests: true,
      connects: true,
      wallet: true,
    });
  });

  test('when the step is already done, then nothing changes and no event is recorded', async () => {
    // Arrange
    const { userId, accessToken } = await registeredCreator(harness);
    await call(
      harness,
      'PATCH',
      '/users/me/onboarding',
      { step: 'wallet', value: true },
      accessToken,
    );

    // Act
    const answer = await call<UserRecord>(
      harness,
      'PATCH',
      '/users/me/onboarding',
      { step: 'wallet', value: true },
      accessToken,
    );

    // Assert
    assert.equal(answer.body.data?.version, 2);
    assert.equal(await outboxCount(userId), 2);
  });

  test('when a creator sends the brand step, an unknown step or value false, then it answers 400', async () => {
    // Arrange
    const { accessToken } = await registeredCreator(harness);

    // Act
    const answers = await Promise.all([
      call(harness, 'PATCH', '/users/me/onboarding', { step: 'brand', value: true }, accessToken),
      call(
        harness,
        'PATCH',
        '/users/me/onboarding',
        { step: 'payments', value: true },
        accessToken,
      ),
      call(harness, 'PATCH', '/users/me/onboarding', { step: 'terms', value: false }, accessToken),
    ]);

    // Assert
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [400, 400, 400],
    );
    assert.equal(answers[0]!.body.error?.code, 'invalid-argument');
  });

  test('when a brand user completes the brand step, then their brand flag is true; a creator step is refused', async () => {
    // Arrange
    const { accessToken } = await registeredBrandUser(harness);

    // Act
    const brand = await call<UserRecord>(
      harness,
      'PATCH',
      '/users/me/onboarding',
      { step: 'brand', value: true },
      accessToken,
    );
    const interests = await call(
      harness,
      'PATCH',
      '/users/me/onboarding',
      { step: 'interests', value: true },
      accessToken,
    );

    // Assert
    assert.deepEqual(brand.body.data?.onboarding, { terms: false, brand: true });
    assert.equal(interests.status, 400);
  });

  test('when no token is sent, then it answers 401', async () => {
    const answer = await call(harness, 'PATCH', '/users/me/onboarding', {
      step: 'terms',
      value: true,
    });

    assert.equal(answer.status, 401);
  });
});

describe('PUT /users/me/interests (updateInterests)', () => {
  test('when a creator saves interests, then they are stored and the interests flag is set, in one event', async () => {
    // Arrange
    const { userId, accessToken } = await registeredCreator(harness);

    // Act
    const answer = await call<UserRecord>(
      harness,
      'PUT',
      '/users/me/interests',
      { interests: ['Gaming', 'AI'] },
      accessToken,
    );

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.data?.interests, ['Gaming', 'AI']);
    assert.equal((answer.body.data?.onboarding as { interests: boolean }).interests, true);
    assert.equal(answer.body.data?.version, 2);
    await harness.userEvents.waitFor((m) => keyOf(m) === userId && envelopeOf(m).version === 2);
  });

  test("when the list is empty, then it answers 400 'You must select at least one interest'", async () => {
    // Arrange
    const { accessToken } = await registeredCreator(harness);

    // Act
    const answer = await call(
      harness,
      'PUT',
      '/users/me/interests',
      { interests: [] },
      accessToken,
    );

    // Assert
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error?.message, messages.interestsRequired);
  });

  test('when an interest is not in the list, then it answers 400', async () => {
    // Arrange
    const { accessToken } = await registeredCreator(harness);

    // Act
    const answer = await call(
      harness,
      'PUT',
      '/users/me/interests',
      { interests: ['Knitting'] },
      accessToken,
    );

    // Assert
    assert.equal(answer.status, 400);
  });

  test('when a brand user saves interests, then it answers 400', async () => {
    // Arrange
    const { accessToken } = await registeredBrandUser(harness);

    // Act
    const answer = await call(
      harness,
      'PUT',
      '/users/me/interests',
      { interests: ['AI'] },
      accessToken,
    );

    // Assert
    assert.equal(answer.status, 400);
  });
});

describe('POST /users/me/login-recorded', () => {
  test('when a sign-in is recorded, then lastLogin is now and the snapshot event carries it', async () => {
    // Arrange
    const { userId, accessToken } = await registeredCreator(harness);
    const before = Date.now();

    // Act
    const answer = await call<UserRecord>(
      harness,
      'POST',
      '/users/me/login-recorded',
      undefined,
      accessToken,
    );

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const lastLogin = Date.parse(answer.body.data?.lastLogin ?? '');
    assert.ok(lastLogin >= before - 1000 && lastLogin <= Date.now() + 1000);
    const event = await harness.userEvents.waitFor(
      (m) => keyOf(m) === userId && envelopeOf(m).version === 2,
    );
    assert.equal(
      (envelopeOf(event).data as unknown as UserRecord).lastLogin,
      answer.body.data?.lastLogin,
    );
  });
});

describe('PATCH /users/me by kind (account form, spec §5 and §6)', () => {
  test('when a creator saves interests through the account form, then the interests flag is set too', async () => {
    // Arrange
    const { accessToken } = await registeredCreator(harness);

    // Act
    const answer = await call<UserRecord>(
      harness,
      'PATCH',
      '/users/me',
      { interests: ['Sports'], phoneNumber: '+1 555 0101' },
      accessToken,
    );

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.data?.interests, ['Sports']);
    assert.equal(answer.body.data?.phoneNumber, '+1 555 0101');
    assert.equal((answer.body.data?.onboarding as { interests: boolean }).interests, true);
  });

  test("when a creator sends no interests, then it answers 400 'You must select at least one interest'", async () => {
    // Arrange
    const { accessToken } = await registeredCreator(harness);

    // Act
    const answer = await call(harness, 'PATCH', '/users/me', { interests: [] }, accessToken);

    // Assert
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error?.message, messages.interestsRequired);
  });

  test('when a creator sends a field of the brand form, then it answers 400', async () => {
    // Arrange
    const { accessToken } = await registeredCreator(harness);

    // Act
    const answer = await call(harness, 'PATCH', '/users/me', { firstName: 'Ada' }, accessToken);

    // Assert
    assert.equal(answer.status, 400);
  });

  test('when a brand user changes first and last name and marketing, then the record has them', async () => {
    // Arrange
    const { accessToken } = await registeredBrandUser(harness);

    // Act
    const answer = await call<UserRecord>(
      harness,
      'PATCH',
      '/users/me',
      { firstName: 'Grace', lastName: 'Hopper', notifications: { marketing: false } },
      accessToken,
    );

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.data?.firstName, 'Grace');
    assert.equal(answer.body.data?.lastName, 'Hopper');
    assert.deepEqual(answer.body.data?.notifications, { offers: false, marketing: false });
  });

  test("when a brand user empties the first name, then it answers 400 'First name is required'", async () => {
    // Arrange
    const { accessToken } = await registeredBrandUser(harness);

    // Act
    const answer = await call(harness, 'PATCH', '/users/me', { firstName: '  ' }, accessToken);

    // Assert
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error?.message, messages.firstNameRequired);
    assert.equal(answer.body.error?.fields?.firstName, messages.firstNameRequired);
  });

  test('when a brand user sends a username, interests or offers, then each is refused with 400', async () => {
    // Arrange
    const { accessToken } = await registeredBrandUser(harness);

    // Act
    const answers = await Promise.all([
      call(harness, 'PATCH', '/users/me', { username: 'brandname' }, accessToken),
      call(harness, 'PATCH', '/users/me', { interests: ['AI'] }, accessToken),
      call(
        harness,
        'PATCH',
        '/users/me',
        { notifications: { offers: true, marketing: true } },
        accessToken,
      ),
    ]);

    // Assert
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [400, 400, 400],
    );
  });
});
