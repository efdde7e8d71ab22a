import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { messages } from '@raly/contracts/messages';
import type { UserRecord } from '@raly/contracts/records';
import { AppError } from '@raly/service-kit/errors';
import { call, creatorRegistration, registeredCreator, useIdentityService } from './support';
import { passwordGrant, uniqueToken } from '@raly/test-support';

const harness = useIdentityService();

/** Makes our database refuse inserts of users whose username starts with `prefix`. */
async function refuseInsertsOfUsernames(prefix: string): Promise<void> {
  await harness.sql.query(`
    CREATE OR REPLACE FUNCTION refuse_${prefix}() RETURNS trigger AS $$
    BEGIN RAISE EXCEPTION 'refused by test'; END $$ LANGUAGE plpgsql;
    CREATE TRIGGER refuse_${prefix} BEFORE INSERT ON users
      FOR EACH ROW WHEN (NEW.username LIKE '${prefix}%') EXECUTE FUNCTION refuse_${prefix}();`);
}

describe('POST /accounts', () => {
  test('when a creator registers, then Keycloak holds the login and the record has the spec defaults', async () => {
    // Arrange
    const registration = creatorRegistration({ username: `Mixed${uniqueToken(8)}` });

    // Act
    const answer = await call<{ userId: string }>(harness, 'POST', '/accounts', {
      isBrand: false,
      registration,
    });

    // Assert
    assert.equal(answer.status, 201);
    const userId = answer.body.data?.userId ?? '';
    assert.equal(await harness.keycloak.findIdByEmail(registration.email), userId);
    const tokens = await passwordGrant(harness.stack, registration.email, registration.password);
    const me = await call<UserRecord>(harness, 'GET', '/users/me', undefined, tokens.access_token);
    assert.equal(me.status, 200);
    assert.deepEqual(
      { ...me.body.data, created: undefined },
      {
        id: userId,
        version: 1,
        username: registration.username.toLowerCase(),
        firstName: '',
        lastName: '',
        email: registration.email,
        phoneNumber: '',
        profileImg: '',
        coverImg: '',
        interests: [],
        socials: { x: '', instagram: '', threads: '' },
        onboarding: { terms: false, interests: false, connects: false, wallet: false },
        permissions: {
          isInfluencer: false,
          isBoosted: false,
          isVerified: false,
          isSuspended: false,
          isAmbassador: false,
        },
        notifications: { offers: true, marketing: true },
        brand: null,
        lastLogin: null,
        created: undefined,
      },
    );
  });

  test("when the username is taken in another case, then registration answers 409 'Username already exists. Try another.' and makes no Keycloak user", async () => {
    // Arrange
    const first = creatorRegistration();
    await call(harness, 'POST', '/accounts', { isBrand: false, registration: first });
    const second = creatorRegistration({ username: first.username.toUpperCase() });

    // Act
    const answer = await call(harness, 'POST', '/accounts', {
      isBrand: false,
      registration: second,
    });

    // Assert
    assert.equal(answer.status, 409);
    assert.deepEqual(answer.body.error, {
      code: 'username-taken',
      message: messages.usernameExists,
    });
    assert.equal(await harness.keycloak.findIdByEmail(second.email), null);
  });

  test("when the e-mail is taken, then registration answers 409 with the spec's e-mail message", async () => {
    // Arrange
    const first = creatorRegistration();
    await call(harness, 'POST', '/accounts', { isBrand: false, registration: first });
    const second = creatorRegistration({ email: first.email.toUpperCase() });

    // Act
    const answer = await call(harness, 'POST', '/accounts', {
      isBrand: false,
      registration: second,
    });

    // Assert
    assert.equal(answer.status, 409);
    assert.deepEqual(answer.body.error, { code: 'email-taken', message: messages.emailTaken });
  });

  test('when Keycloak rejects the new user, then nothing is saved', async () => {
    // Arrange: Keycloak already holds the e-mail, our database does not
    const registration = creatorRegistration();
    await harness.keycloak.create({ email: registration.email, password: registration.password });

    // Act
    const answer = await call(harness, 'POST', '/accounts', { isBrand: false, registration });

    // Assert
    assert.equal(answer.status, 409);
    assert.equal(answer.body.error?.code, 'email-taken');
    const { rows } = await harness.sql.query(
      'SELECT 1 FROM users WHERE email = $1 OR username = $2',
      [registration.email, registration.username],
    );
    assert.equal(rows.length, 0);
  });

  test('when saving the record fails, then the Keycloak user is deleted and no event is recorded', async () => {
    // Arrange
    const prefix = `refuse${uniqueToken(6)}`;
    await refuseInsertsOfUsernames(prefix);
    const registration = creatorRegistration({ username: `${prefix}x` });

    // Act
    const answer = await call(harness, 'POST', '/accounts', { isBrand: false, registration });

    // Assert
    assert.equal(answer.status, 500);
    assert.deepEqual(answer.body.error, {
      code: 'internal',
      message: messages.createAccountFailed,
    });
    assert.equal(await harness.keycloak.findIdByEmail(registration.email), null);
    const { rows } = await harness.sql.query(
      `SELECT 1 FROM outbox WHERE envelope->'data'->>'email' = $1`,
      [registration.email],
    );
    assert.equal(rows.length, 0);
  });

  test('when 20 registrations race for one username, then exactly one succeeds and the others answer 409 without a Keycloak user', async () => {
    // Arrange
    const username = `race${uniqueToken(10)}`;
    const registrations = Array.from({ length: 20 }, () => creatorRegistration({ username }));

    // Act
    const answers = await Promise.all(
      registrations.map((registration) =>
        call(harness, 'POST', '/accounts', { isBrand: false, registration }),
      ),
    );

    // Assert
    const statuses = answers.map((answer) => answer.status).sort();
    assert.deepEqual(statuses, [201, ...Array<number>(19).fill(409)]);
    assert.ok(
      answers
        .filter((a) => a.status === 409)
        .every((a) => a.body.error?.message === messages.usernameExists),
    );
    const keycloakIds = await Promise.all(
      registrations.map((r) => harness.keycloak.findIdByEmail(r.email)),
    );
    assert.equal(keycloakIds.filter(Boolean).length, 1);
  });

  test('when the registration is invalid, then it answers 400 with the spec message per field', async () => {
    // Arrange
    const registration = { ...creatorRegistration(), username: 'a!', confirmPassword: 'different' };

    // Act
    const answer = await call(harness, 'POST', '/accounts', { isBrand: false, registration });

    // Assert
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error?.code, 'invalid-argument');
    assert.equal(answer.body.error?.fields?.['registration.username'], messages.usernameTooShort);
    assert.equal(
      answer.body.error?.fields?.['registration.confirmPassword'],
      messages.passwordMismatch,
    );
  });
});

describe('bad input never reaches Postgres or Keycloak as a 500', () => {
  const longEmail = `${'a'.repeat(64)}@${'b'.repeat(230)}.raly.test`;

  test("when the e-mail is 300 characters, then registration and the account form answer 400 'Email must not exceed 254 characters'", async () => {
    // Arrange
    const creator = await registeredCreator(harness);
    const registration = creatorRegistration({ email: longEmail });

    // Act
    const registered = await call(harness, 'POST', '/accounts', { isBrand: false, registration });
    const changed = await call(
      harness,
      'PATCH',
      '/users/me',
      { email: longEmail },
      creator.accessToken,
    );

    // Assert
    assert.equal(registered.status, 400);
    assert.equal(registered.body.error?.fields?.['registration.email'], messages.emailTooLong);
    assert.equal(changed.status, 400);
    assert.equal(changed.body.error?.fields?.email, messages.emailTooLong);
    assert.equal(await harness.keycloak.findIdByEmail(longEmail.slice(0, 250)), null);
  });

  test("when a text field or a callable's argument holds a NUL byte, then the answer is 400 'Remove the invisible control characters from this field'", async () => {
    // Arrange
    const creator = await registeredCreator(harness);

    // Act
    const answers = {
      phoneNumber: await call(
        harness,
        'PATCH',
        '/users/me',
        { phoneNumber: '555\u00000100' },
        creator.accessToken,
      ),
      email: await call(harness, 'POST', '/queries/check-email-exists', {
        email: 'a\u0000@b.test',
      }),
      username: await call(harness, 'POST', '/queries/check-username-exists', {
        username: 'a\u0000b',
      }),
    };

    // Assert
    for (const [field, answer] of Object.entries(answers)) {
      assert.equal(answer.status, 400, `${field}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.error?.fields?.[field], messages.controlCharacters);
    }
  });

  test('when Keycloak refuses a value it validates (an over-long e-mail), then the Admin API client throws invalid-argument, not a server error', async () => {
    // Act
    const refused = await harness.keycloak
      .create({ email: `${'k'.repeat(280)}@raly.test`, password: 'secret-password-1' })
      .then(
        () => undefined,
        (error: unknown) => error,
      );

    // Assert
    assert.ok(refused instanceof AppError, String(refused));
    assert.equal(refused.code, 'invalid-argument');
    assert.equal(refused.httpStatus, 400);
  });
});
