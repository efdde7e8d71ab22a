import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { messages } from '@raly/contracts/messages';
import { hashResetCode } from '../src/domain/password-reset';
import {
  call,
  registeredCreator,
  testApiKey,
  testResetCodeTtlSeconds,
  testWebUrl,
  useIdentityService,
} from './support';
import { passwordGrant, uniqueToken, waitForMail } from '@raly/test-support';

const harness = useIdentityService();

/** Asks for a reset link and follows it: the oobCode of the e-mailed link. */
async function resetCodeMailedTo(
  email: string,
): Promise<{ code: string; link: URL; text: string; html: string }> {
  const asked = await call(harness, 'POST', '/password-resets', { email });
  assert.equal(asked.status, 200, JSON.stringify(asked.body));
  const mail = await waitForMail(email);
  const href = /https?:\/\/\S+\/auth\/action\?\S+/.exec(mail.text)?.[0];
  assert.ok(href, `no reset link in: ${mail.text}`);
  const link = new URL(href);
  return { code: link.searchParams.get('oobCode') ?? '', link, text: mail.text, html: mail.html };
}

describe('POST /password-resets (sendResetPasswordLink)', () => {
  test('when the e-mail has an account, then a mail with the /auth/action reset link arrives and only the code hash is stored', async () => {
    // Arrange
    const { registration, userId } = await registeredCreator(harness);

    // Act
    const { code, link, html } = await resetCodeMailedTo(registration.email.toUpperCase());

    // Assert
    assert.equal(`${link.origin}${link.pathname}`, `${testWebUrl}/auth/action`);
    assert.equal(link.searchParams.get('mode'), 'resetPassword');
    assert.equal(link.searchParams.get('apiKey'), testApiKey);
    assert.ok(code.length >= 40);
    assert.ok(html.includes(`oobCode=${code}`));
    const { rows } = await harness.sql.query(
      'SELECT code_hash, used_at, extract(epoch FROM expires_at - created_at)::int AS ttl FROM password_reset_codes WHERE user_id = $1',
      [userId],
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0].code_hash, hashResetCode(code));
    assert.notEqual(rows[0].code_hash, code);
    assert.equal(rows[0].used_at, null);
    assert.ok(Math.abs(rows[0].ttl - testResetCodeTtlSeconds) <= 2);
  });

  test("when the e-mail has no account, then it answers 404 'There is no account associated with this email'", async () => {
    // Act
    const answer = await call(harness, 'POST', '/password-resets', {
      email: `nobody-${uniqueToken()}@raly.test`,
    });

    // Assert
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error?.message, messages.emailUnknown);
    assert.equal(answer.body.error?.code, 'not-found');
  });

  test('when the e-mail is malformed, then it answers 400 with the e-mail message', async () => {
    // Act
    const answer = await call(harness, 'POST', '/password-resets', { email: 'not-an-email' });

    // Assert
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error?.message, messages.emailInvalid);
  });
});

describe('POST /password-resets/confirm (resetPassword)', () => {
  test('when the mailed code is used, then it answers whose password changed, the new password signs in, the old one does not, and earlier sessions have ended', async () => {
    // Arrange
    const { registration, userId } = await registeredCreator(harness);
    const earlierSession = await passwordGrant(
      harness.stack,
      registration.email,
      registration.password,
    );
    const { code } = await resetCodeMailedTo(registration.email);
    const newPassword = `new-${uniqueToken(8)}`;

    // Act
    const answer = await call(harness, 'POST', '/password-resets/confirm', {
      actionCode: code,
      password: newPassword,
    });

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.data, { userId });
    assert.equal(await harness.users.signsIn(registration.email, newPassword), true);
    assert.equal(await harness.users.signsIn(registration.email, registration.password), false);
    assert.equal(await harness.users.refreshWorks(earlierSession.refresh_token!), false);
  });

  test("when a code is used a second time, then it answers 400 'There was a problem with your request.'", async () => {
    // Arrange
    const { registration } = await registeredCreator(harness);
    const { code } = await resetCodeMailedTo(registration.email);
    const first = `first-${uniqueToken(8)}`;
    await call(harness, 'POST', '/password-resets/confirm', { actionCode: code, password: first });

    // Act
    const again = await call(harness, 'POST', '/password-resets/confirm', {
      actionCode: code,
      password: `second-${uniqueToken(8)}`,
    });

    // Assert
    assert.equal(again.status, 400);
    assert.deepEqual(again.body.error, {
      code: 'invalid-argument',
      message: messages.requestProblem,
    });
    assert.equal(await harness.users.signsIn(registration.email, first), true);
  });

  test('when the code has expired, then it answers 400 and the password stays as it was', async () => {
    // Arrange
    const { registration, userId } = await registeredCreator(harness);
    const { code } = await resetCodeMailedTo(registration.email);
    await harness.sql.query(
      "UPDATE password_reset_codes SET expires_at = now() - interval '1 second' WHERE user_id = $1",
      [userId],
    );

    // Act
    const answer = await call(harness, 'POST', '/password-resets/confirm', {
      actionCode: code,
      password: `late-${uniqueToken(8)}`,
    });

    // Assert
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error?.message, messages.requestProblem);
    assert.equal(await harness.users.signsIn(registration.email, registration.password), true);
  });

  test('when the code is unknown, then it answers 400', async () => {
    // Act
    const answer = await call(harness, 'POST', '/password-resets/confirm', {
      actionCode: uniqueToken(32),
      password: 'whatever-123',
    });

    // Assert
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error?.message, messages.requestProblem);
  });

  test('when the new password is too short, then it answers 400 and the code stays usable', async () => {
    // Arrange
    const { registration } = await registeredCreator(harness);
    const { code } = await resetCodeMailedTo(registration.email);

    // Act
    const tooShort = await call(harness, 'POST', '/password-resets/confirm', {
      actionCode: code,
      password: '123',
    });
    const retry = await call(harness, 'POST', '/password-resets/confirm', {
      actionCode: code,
      password: 'long-enough',
    });

    // Assert
    assert.equal(tooShort.status, 400);
    assert.equal(tooShort.body.error?.message, messages.requestProblem);
    assert.equal(tooShort.body.error?.fields?.password, messages.passwordTooShort);
    assert.equal(retry.status, 200);
  });

  test('when a newer reset succeeds, then an older unused link no longer works', async () => {
    // Arrange
    const { registration } = await registeredCreator(harness);
    const older = await resetCodeMailedTo(registration.email);
    await call(harness, 'POST', '/password-resets', { email: registration.email });
    const newer = await waitForMail(registration.email, {
      matching: (mail) => !mail.text.includes(older.code),
    });
    const newerCode = new URL(
      /https?:\/\/\S+\/auth\/action\?\S+/.exec(newer.text)![0],
    ).searchParams.get('oobCode')!;
    await call(harness, 'POST', '/password-resets/confirm', {
      actionCode: newerCode,
      password: `newer-${uniqueToken(8)}`,
    });

    // Act
    const answer = await call(harness, 'POST', '/password-resets/confirm', {
      actionCode: older.code,
      password: `older-${uniqueToken(8)}`,
    });

    // Assert
    assert.equal(answer.status, 400);
  });

  test('when five resets race with one code, then exactly one succeeds', async () => {
    // Arrange
    const { registration } = await registeredCreator(harness);
    const { code } = await resetCodeMailedTo(registration.email);

    // Act
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        call(harness, 'POST', '/password-resets/confirm', {
          actionCode: code,
          password: `race-${index}-${uniqueToken(6)}`,
        }),
      ),
    );

    // Assert
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 400, 400, 400, 400]);
  });
});
