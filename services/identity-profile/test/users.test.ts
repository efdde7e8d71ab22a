import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { eventTypes } from '@raly/contracts/events';
import { messages } from '@raly/contracts/messages';
import type { UserRecord } from '@raly/contracts/records';
import { call, envelopeOf, registeredCreator, useIdentityService } from './support';
import { identityServiceToken, passwordGrant, uniqueToken } from '@raly/test-support';

const harness = useIdentityService();

const keyOf = (message: { key: Buffer | null }) => message.key?.toString() ?? '';

describe('GET /users/me', () => {
  test('when no token is sent, then it answers 401', async () => {
    // Act
    const answer = await call(harness, 'GET', '/users/me');

    // Assert
    assert.equal(answer.status, 401);
    assert.equal(answer.body.error?.code, 'unauthenticated');
  });

  test('when the token is forged, then it answers 401', async () => {
    // Arrange
    const forged = `${Buffer.from('{"alg":"RS256"}').toString('base64url')}.${Buffer.from('{"sub":"x"}').toString('base64url')}.c2ln`;

    // Act
    const answer = await call(harness, 'GET', '/users/me', undefined, forged);

    // Assert
    assert.equal(answer.status, 401);
  });

  test("when the token is the user's ID token or raly-identity's service-account token, then GET and PATCH answer 401", async () => {
    // Arrange
    const { registration } = await registeredCreator(harness);
    const { id_token: idToken } = await passwordGrant(
      harness.stack,
      registration.email,
      registration.password,
    );
    const serviceToken = await identityServiceToken(harness.stack);
    assert.ok(idToken);

    for (const token of [idToken, serviceToken]) {
      // Act
      const read = await call(harness, 'GET', '/users/me', undefined, token);
      const update = await call(harness, 'PATCH', '/users/me', { phoneNumber: '1' }, token);

      // Assert
      assert.equal(read.status, 401);
      assert.equal(read.body.error?.code, 'unauthenticated');
      assert.equal(update.status, 401);
    }
  });
});

describe('PATCH /users/me', () => {
  test('when the user changes the username, then the record has it and identity.user.updated carries the next version', async () => {
    // Arrange
    const { userId, accessToken } = await registeredCreator(harness);
    const username = `New${uniqueToken(8)}`;

    // Act
    const answer = await call<UserRecord>(harness, 'PATCH', '/users/me', { username }, accessToken);

    // Assert
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data?.username, username.toLowerCase());
    assert.equal(answer.body.data?.version, 2);
    const event = await harness.userEvents.waitFor(
      (m) => keyOf(m) === userId && envelopeOf(m).version === 2,
    );
    assert.equal(envelopeOf(event).type, eventTypes.userUpdated);
    assert.equal(envelopeOf(event).data.username, username.toLowerCase());
  });

  test('when the user changes the e-mail, then Keycloak logs in with the new one and an event is published', async () => {
    // Arrange
    const { userId, accessToken, registration } = await registeredCreator(harness);
    const email = `changed-${uniqueToken()}@raly.test`;

    // Act
    const answer = await call<UserRecord>(harness, 'PATCH', '/users/me', { email }, accessToken);

    // Assert
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data?.email, email);
    await passwordGrant(harness.stack, email, registration.password);
    await assert.rejects(passwordGrant(harness.stack, registration.email, registration.password));
    const event = await harness.userEvents.waitFor(
      (m) => keyOf(m) === userId && envelopeOf(m).version === 2,
    );
    assert.equal(envelopeOf(event).data.email, email);
    await harness.keycloak.delete(userId);
  });

  test("when the user changes the e-mail, then the user's other Keycloak sessions can no longer refresh and the changing session still can", async () => {
    // Arrange
    const { userId, registration } = await registeredCreator(harness);
    const changing = await passwordGrant(harness.stack, registration.email, registration.password);
    const other = await passwordGrant(harness.stack, registration.email, registration.password);
    const email = `moved-${uniqueToken()}@raly.test`;

    // Act
    const answer = await call(harness, 'PATCH', '/users/me', { email }, changing.access_token);

    // Assert
    assert.equal(answer.status, 200);
    assert.equal(await harness.users.refreshWorks(other.refresh_token!), false);
    assert.equal(await harness.users.refreshWorks(changing.refresh_token!), true);
    await harness.keycloak.delete(userId);
  });

  test('when the user changes only other fields, then their other Keycloak sessions keep working', async () => {
    // Arrange
    const { registration } = await registeredCreator(harness);
    const changing = await passwordGrant(harness.stack, registration.email, registration.password);
    const other = await passwordGrant(harness.stack, registration.email, registration.password);

    // Act
    const answer = await call(
      harness,
      'PATCH',
      '/users/me',
      { phoneNumber: '5550100' },
      changing.access_token,
    );

    // Assert
    assert.equal(answer.status, 200);
    assert.equal(await harness.users.refreshWorks(other.refresh_token!), true);
  });

  test("when the new username is taken, then it answers 409 'Username already exists. Try another.'", async () => {
    // Arrange
    const other = await registeredCreator(harness);
    const { accessToken } = await registeredCreator(harness);

    // Act
    const answer = await call(
      harness,
      'PATCH',
      '/users/me',
      { username: other.registration.username },
      accessToken,
    );

    // Assert
    assert.equal(answer.status, 409);
    assert.deepEqual(answer.body.error, {
      code: 'username-taken',
      message: messages.usernameExists,
    });
  });

  test("when the new e-mail is taken, then it answers 409 with the spec's e-mail message", async () => {
    // Arrange
    const other = await registeredCreator(harness);
    const { accessToken } = await registeredCreator(harness);

    // Act
    const answer = await call(
      harness,
      'PATCH',
      '/users/me',
      { email: other.registration.email },
      accessToken,
    );

    // Assert
    assert.equal(answer.status, 409);
    assert.deepEqual(answer.body.error, { code: 'email-taken', message: messages.emailTaken });
  });

  test("when the database refuses an e-mail change, then Keycloak's e-mail is reverted and no event is published", async () => {
    // Arrange
    const { userId, accessToken, registration } = await registeredCreator(harness);
    const prefix = `refuse${uniqueToken(6)}`;
    await harness.sql.query(`
      CREATE OR REPLACE FUNCTION ${prefix}() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'refused by test'; END $$ LANGUAGE plpgsql;
      CREATE TRIGGER ${prefix} BEFORE UPDATE ON users
        FOR EACH ROW WHEN (NEW.email LIKE '${prefix}%') EXECUTE FUNCTION ${prefix}();`);

    // Act
    const answer = await call(
      harness,
      'PATCH',
      '/users/me',
      { email: `${prefix}@raly.test` },
      accessToken,
    );

    // Assert
    assert.equal(answer.status, 500);
    assert.deepEqual(answer.body.error, {
      code: 'internal',
      message: messages.updateAccountFailed,
    });
    assert.equal(await harness.keycloak.findIdByEmail(registration.email), userId);
    assert.equal(await harness.keycloak.findIdByEmail(`${prefix}@raly.test`), null);
    const { rows } = await harness.sql.query(
      'SELECT count(*)::int AS n FROM outbox WHERE key = $1',
      [userId],
    );
    assert.equal(rows[0].n, 1);
  });
});

describe('outbox events of a user', () => {
  test('when a user is created and changed twice, then one event per change is published with increasing versions', async () => {
    // Arrange
    const { userId, accessToken } = await registeredCreator(harness);

    // Act
    await call(harness, 'PATCH', '/users/me', { phoneNumber: '+1 555 0100' }, accessToken);
    await call(harness, 'PATCH', '/users/me', { interests: ['AI', 'Gaming'] }, accessToken);

    // Assert
    await harness.userEvents.waitFor((m) => keyOf(m) === userId && envelopeOf(m).version === 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const events = harness.userEvents.messages.filter((m) => keyOf(m) === userId).map(envelopeOf);
    assert.deepEqual(
      events.map((event) => [event.type, event.version, event.data.version]),
      [
        [eventTypes.userCreated, 1, 1],
        [eventTypes.userUpdated, 2, 2],
        [eventTypes.userUpdated, 3, 3],
      ],
    );
  });

  test('when one user sends many changes at once, then none is lost: each gets its own version, its event carries the row as written, and the last version holds every field', async () => {
    // Arrange
    const { userId, accessToken } = await registeredCreator(harness);
    const username = `many${uniqueToken(8)}`.toLowerCase();
    const changes = [
      { username },
      { phoneNumber: '+1 555 0101' },
      { interests: ['AI', 'Gaming'] },
      { notifications: { offers: false, marketing: false } },
      { phoneNumber: '+1 555 0102' },
      { phoneNumber: '+1 555 0103' },
    ];

    // Act
    const answers = await Promise.all(
      changes.map((body) => call<UserRecord>(harness, 'PATCH', '/users/me', body, accessToken)),
    );

    // Assert
    assert.deepEqual(
      answers.map((answer) => answer.status),
      changes.map(() => 200),
    );
    const versions = answers.map((answer) => answer.body.data!.version).sort((a, b) => a - b);
    assert.deepEqual(versions, [2, 3, 4, 5, 6, 7], 'one version per change, none shared');
    await harness.userEvents.waitFor((m) => keyOf(m) === userId && envelopeOf(m).version === 7);
    const events = harness.userEvents.messages
      .filter((m) => keyOf(m) === userId && envelopeOf(m).type === eventTypes.userUpdated)
      .map((m) => envelopeOf(m).data as UserRecord);
    assert.deepEqual(events.map((event) => event.version).sort(), [2, 3, 4, 5, 6, 7]);
    const last = (await call<UserRecord>(harness, 'GET', '/users/me', undefined, accessToken)).body
      .data!;
    assert.equal(last.version, 7);
    assert.equal(last.username, username);
    assert.deepEqual(last.interests, ['AI', 'Gaming']);
    assert.deepEqual(last.notifications, { offers: false, marketing: false });
    assert.deepEqual(
      events.find((event) => event.version === 7),
      last,
      'the newest event is the stored record',
    );
    // Each answer is exactly what its event carried.
    for (const answer of answers)
      assert.deepEqual(
        events.find((event) => event.version === answer.body.data!.version),
        answer.body.data,
      );
  });

  test('when one user sends 40 changes at once, more than the optimistic retries can settle, then every one is written with its own version', async () => {
    // Arrange
    const { accessToken } = await registeredCreator(harness);
    const phones = Array.from({ length: 40 }, (_, index) => `+1 555 ${String(1000 + index)}`);

    // Act
    const answers = await Promise.all(
      phones.map((phoneNumber) =>
        call<UserRecord>(harness, 'PATCH', '/users/me', { phoneNumber }, accessToken),
      ),
    );

    // Assert
    assert.deepEqual(
      answers.map((answer) => answer.status),
      phones.map(() => 200),
    );
    const versions = answers.map((answer) => answer.body.data!.version).sort((a, b) => a - b);
    assert.deepEqual(
      versions,
      phones.map((_, index) => index + 2),
    );
    const last = (await call<UserRecord>(harness, 'GET', '/users/me', undefined, accessToken)).body
      .data!;
    assert.equal(last.version, 41);
    assert.equal(
      last.phoneNumber,
      answers.find((answer) => answer.body.data!.version === 41)!.body.data!.phoneNumber,
    );
  });

  test('when an update changes nothing, then no event is published', async () => {
    // Arrange
    const { userId, accessToken, registration } = await registeredCreator(harness);

    // Act
    const answer = await call<UserRecord>(
      harness,
      'PATCH',
      '/users/me',
      { username: registration.username },
      accessToken,
    );

    // Assert
    assert.equal(answer.body.data?.version, 1);
    const { rows } = await harness.sql.query(
      'SELECT count(*)::int AS n FROM outbox WHERE key = $1',
      [userId],
    );
    assert.equal(rows[0].n, 1);
  });
});

describe('check queries', () => {
  test('when a username or e-mail is taken in any case, then the checks answer true; else false', async () => {
    // Arrange
    const { registration } = await registeredCreator(harness);

    // Act
    const answers = await Promise.all([
      call(harness, 'POST', '/queries/check-username-exists', {
        username: registration.username.toUpperCase(),
      }),
      call(harness, 'POST', '/queries/check-username-exists', {
        username: `free${uniqueToken(8)}`,
      }),
      call(harness, 'POST', '/queries/check-email-exists', {
        email: registration.email.toUpperCase(),
      }),
      call(harness, 'POST', '/queries/check-email-exists', {
        email: `free-${uniqueToken()}@raly.test`,
      }),
    ]);

    // Assert
    assert.deepEqual(
      answers.map((answer) => answer.body.data),
      [true, false, true, false],
    );
  });

  test('when the body lacks the field, then the check answers 400', async () => {
    // Act
    const answer = await call(harness, 'POST', '/queries/check-email-exists', {});

    // Assert
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error?.code, 'invalid-argument');
  });
});
