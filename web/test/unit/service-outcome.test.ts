/**
 * Spec §8: "At the service level, login, password reset and image upload
 * failures return false with no message (only logged)." Login alone also
 * tells a suspended account's refusal apart (spec §8.2). The services get
 * their calls handed in; here the calls answer or throw as the BFF would.
 */
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  createAuthService,
  type AuthCalls,
} from '../../src/features/auth/services/auth-service.ts';
import { createImageService } from '../../src/features/images/services/image-service.ts';
import type { UploadImageArgs } from '../../src/features/images/api/images-api.ts';
import type { TokenSet } from '@raly/contracts/bff-api';
import { messages } from '@raly/contracts/messages';

/** A failure log that records what it was given. */
function recordingLog() {
  const entries: Array<{ operation: string; error: unknown }> = [];
  return {
    entries,
    log: (operation: string, error: unknown) => entries.push({ operation, error }),
  };
}

/** An RTK Query–style rejection of the BFF, with a message the service must not pass on. */
const bffRejection = (status: number, message: string) => ({
  status,
  data: { error: { code: 'unauthenticated', message } },
});

const aTokenSet = (): TokenSet => ({
  accessToken: `access-${randomUUID()}`,
  refreshToken: `refresh-${randomUUID()}`,
  idToken: `id-${randomUUID()}`,
  expiresIn: 300,
  refreshExpiresIn: 1800,
});

const credentials = () => ({ email: `${randomUUID()}@example.test`, password: randomUUID() });

/** Auth calls where each part answers as given. */
function authCalls(overrides: Partial<AuthCalls>): AuthCalls & { sessions: TokenSet[] } {
  const sessions: TokenSet[] = [];
  return {
    sessions,
    requestTokens: async () => aTokenSet(),
    startSession: async (tokens) => {
      sessions.push(tokens);
    },
    resetPassword: async () => true,
    ...overrides,
  };
}

const anUpload = (): UploadImageArgs => ({
  ownerType: 'user',
  kind: 'profile',
  upload: {
    name: `${randomUUID()}.png`,
    extension: 'png',
    mimeType: 'image/png',
    file: new Blob([new Uint8Array(8)], { type: 'image/png' }),
  },
});

test("when login succeeds, then the service answers 'signed-in' and the session starts with the tokens", async () => {
  const tokens = aTokenSet();
  const calls = authCalls({ requestTokens: async () => tokens });
  const { entries, log } = recordingLog();

  const answer = await createAuthService(calls, log).login(credentials());

  assert.equal(answer, 'signed-in');
  assert.deepEqual(calls.sessions, [tokens]);
  assert.deepEqual(entries, []);
});

test("when login is refused, then the service answers 'refused' with no message and only logs the failure", async () => {
  // Arrange
  const rejection = bffRejection(401, `Incorrect login ${randomUUID()}`);
  const calls = authCalls({
    requestTokens: async () => {
      throw rejection;
    },
  });
  const { entries, log } = recordingLog();

  // Act
  const answer = await createAuthService(calls, log).login(credentials());

  // Assert
  assert.strictEqual(answer, 'refused');
  assert.deepEqual(calls.sessions, [], 'no session started');
  assert.deepEqual(entries, [{ operation: 'login', error: rejection }]);
});

test("when the BFF refuses the login because the account is suspended, then the service answers 'suspended' and logs it", async () => {
  // Arrange
  const rejection = {
    status: 403,
    data: { error: { code: 'permission-denied', message: messages.accountSuspended } },
  };
  const calls = authCalls({
    requestTokens: async () => {
      throw rejection;
    },
  });
  const { entries, log } = recordingLog();

  // Act
  const answer = await createAuthService(calls, log).login(credentials());

  // Assert
  assert.strictEqual(answer, 'suspended');
  assert.deepEqual(calls.sessions, [], 'no session started');
  assert.deepEqual(entries, [{ operation: 'login', error: rejection }]);
});

test("when another 403 refuses the login, then the service answers 'refused', not 'suspended'", async () => {
  // Arrange
  const calls = authCalls({
    requestTokens: async () => {
      throw { status: 403, data: { error: { code: 'permission-denied', message: randomUUID() } } };
    },
  });

  // Act
  const answer = await createAuthService(calls, recordingLog().log).login(credentials());

  // Assert
  assert.strictEqual(answer, 'refused');
});

test("when the session cannot start after login, then the service answers 'refused' and logs it", async () => {
  const failure = new Error(`keycloak ${randomUUID()}`);
  const calls = authCalls({
    startSession: async () => {
      throw failure;
    },
  });
  const { entries, log } = recordingLog();

  const answer = await createAuthService(calls, log).login(credentials());

  assert.strictEqual(answer, 'refused');
  assert.deepEqual(entries, [{ operation: 'login', error: failure }]);
});

test('when the password reset succeeds, then the service answers true', async () => {
  const { entries, log } = recordingLog();

  const answer = await createAuthService(authCalls({}), log).resetPassword({
    actionCode: randomUUID(),
    password: randomUUID(),
  });

  assert.equal(answer, true);
  assert.deepEqual(entries, []);
});

test('when the password reset fails, then the service answers false with no message and only logs the failure', async () => {
  const rejection = bffRejection(400, `There was a problem ${randomUUID()}`);
  const calls = authCalls({
    resetPassword: async () => {
      throw rejection;
    },
  });
  const { entries, log } = recordingLog();

  const answer = await createAuthService(calls, log).resetPassword({
    actionCode: randomUUID(),
    password: randomUUID(),
  });

  assert.strictEqual(answer, false);
  assert.deepEqual(entries, [{ operation: 'password reset', error: rejection }]);
});

test('when the image upload succeeds, then the service answers true', async () => {
  const { entries, log } = recordingLog();
  const service = createImageService(
    {
      uploadImage: async ({ ownerType, kind }) => ({
        ownerType,
        ownerId: randomUUID(),
        kind,
        key: `user/profile-img/${randomUUID()}.png`,
        url: 'http://files.example/x.png?v=1',
        contentType: 'image/png',
        sizeBytes: 8,
      }),
    },
    log,
  );

  assert.equal(await service.uploadImage(anUpload()), true);
  assert.deepEqual(entries, []);
});

test('when the image upload fails, then the service answers false with no message and only logs the failure', async () => {
  const rejection = bffRejection(500, `Hmm ${randomUUID()}`);
  const { entries, log } = recordingLog();
  const service = createImageService(
    {
      uploadImage: async () => {
        throw rejection;
      },
    },
    log,
  );

  const answer = await service.uploadImage(anUpload());

  assert.strictEqual(answer, false);
  assert.deepEqual(entries, [{ operation: 'user profile image upload', error: rejection }]);
});
