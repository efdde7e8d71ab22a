/**
 * One-click unsubscribe of the e-mail digests (RFC 8058) against the real
 * stack and the SMTP catcher: the `List-Unsubscribe` link of a caught digest,
 * POSTed as a mail client does, turns digests off for that person only (the
 * next window mails the others), is idempotent, and cancels an e-mail still
 * waiting, and shows as the digest's e-mail turned off in the person's
 * preferences; a malformed or forged token is refused 400.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'vitest';
import { messages } from '@raly/contracts/messages';
import { eventually, listMails, sleep, testStack, waitForMail } from '@raly/test-support';
import { unsubscribeToken } from '../src/domain/unsubscribe';
import { aMessageTo, aRegisteredCreator, asUser, useMailingSystem } from './support';

const SECRET = `unsubscribe-test-secret-${randomUUID()}`;
const WINDOW_MS = 1500;
/** How long a mail that should not come is waited for, in ms. */
const QUIET_MS = 3000;
/**
 * Items older than this (20 s, in hours) get no digest: with a window of 1.5 s, every person
 * with unread items that earlier test files left in the database would be mailed again and
 * again, and this file's mails would queue behind theirs.
 */
const MAX_AGE_HOURS = 20 / 3600;

const stack = await testStack();

describe('unsubscribing from the e-mail digests', () => {
  const harness = useMailingSystem({
    NOTIFICATIONS_AWAY_AFTER_MS: '1000',
    NOTIFICATIONS_DIGEST_WINDOW_MS: String(WINDOW_MS),
    NOTIFICATIONS_MAX_AGE_HOURS: String(MAX_AGE_HOURS),
    NOTIFICATIONS_UNSUBSCRIBE_SECRET: SECRET,
    SMTP_URL: `smtp://${stack.smtp.host}:${stack.smtp.port}`,
  });
  const messageTo = (creator: { id: string; username: string }) =>
    aMessageTo(harness.system, creator);

  /** POSTs to the one-click route as a mail client does (RFC 8058 §3.1). */
  const oneClick = async (url: string, body: string | undefined = 'List-Unsubscribe=One-Click') => {
    const response = await fetch(url, {
      method: 'POST',
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  /** The service's route of a `List-Unsubscribe` header's link (its token, the last segment). */
  const serviceUrlOf = (listUnsubscribe: string) => {
    const token = /\/api\/unsubscribe\/([^/>]+)>$/.exec(listUnsubscribe)?.[1];
    assert.ok(token, `no token in ${listUnsubscribe}`);
    return `${harness.system.notificationsUrl}/unsubscribe/${token}`;
  };

  const mailStatusesOf = async (personId: string) => {
    const { rows } = await harness.system.sql.notifications!.query<{ status: string }>(
      'SELECT status FROM mail_outbox WHERE recipient_id = $1 ORDER BY created',
      [personId],
    );
    return rows.map((row) => row.status);
  };

  test('when a person follows the one-click link of a digest, then the next window mails the others but not them', async () => {
    // Arrange: both get a first digest
    const [leaving, staying] = await Promise.all([
      aRegisteredCreator(harness.system),
      aRegisteredCreator(harness.system),
    ]);
    await Promise.all([messageTo(leaving), messageTo(staying)]);
    // The first digest also waits for this system's new consumer group to read the topics.
    const [mail] = await Promise.all([
      waitForMail(leaving.registration.email, { timeoutMs: 45_000 }),
      waitForMail(staying.registration.email, { timeoutMs: 45_000 }),
    ]);
    const url = serviceUrlOf(mail.headers['list-unsubscribe'] ?? '');

    // Act
    const first = await oneClick(url);
    const again = await oneClick(url, undefined);
    await sleep(WINDOW_MS);
    await Promise.all([messageTo(leaving), messageTo(staying)]);
    await eventually('the second digest of the one who stayed', async () =>
      (await listMails(staying.registration.email)).length === 2 ? true : undefined,
    );
    await sleep(QUIET_MS);

    // Assert
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(first.body, { data: { category: 'digest', unsubscribed: true } });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.deepEqual(again.body, first.body);
    assert.equal((await listMails(leaving.registration.email)).length, 1);
    assert.deepEqual(await mailStatusesOf(leaving.id), ['sent']);
    const { rows } = await harness.system.sql.notifications!.query(
      'SELECT category, channel FROM notification_preferences WHERE person_id = $1',
      [leaving.id],
    );
    assert.deepEqual(rows, [{ category: 'digest', channel: 'email' }]);
    const preferences = await asUser(harness.system, leaving.accessToken)('GET', '/preferences');
    assert.equal(preferences.status, 200);
    assert.deepEqual(preferences.body, {
      data: {
        offers: { in_app: true, email: true },
        applications: { in_app: true, email: true },
        collaborations: { in_app: true, email: true },
        digest: { email: false },
      },
    });
  });

  test('when a person unsubscribes while their digest waits in the mail outbox, then it is cancelled', async () => {
    // Arrange: a digest whose e-mail waits for a later attempt
    const personId = randomUUID();
    const digestId = randomUUID();
    const sql = harness.system.sql.notifications!;
    await sql.query(
      'INSERT INTO digests (id, person_id, after_sequence, through_sequence) VALUES ($1, $2, 0, 0)',
      [digestId, personId],
    );
    await sql.query(
      `INSERT INTO mail_outbox (id, digest_id, recipient_id, next_attempt_at)
       VALUES ($1, $2, $3, now() + interval '1 hour')`,
      [randomUUID(), digestId, personId],
    );

    // Act
    const answer = await oneClick(
      `${harness.system.notificationsUrl}/unsubscribe/${unsubscribeToken(personId, 'digest', SECRET)}`,
    );

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(await mailStatusesOf(personId), ['cancelled']);
  });

  test('when the token is malformed or signed with another key, then 400 and nothing is turned off', async () => {
    // Arrange
    const personId = randomUUID();
    const genuine = unsubscribeToken(personId, 'digest', SECRET);
    const [payload] = genuine.split('.');
    const tokens = [
      'not-a-token',
      `${payload}.`,
      `${payload}.${'A'.repeat(43)}`,
      unsubscribeToken(personId, 'digest', `another-${SECRET}`),
      `${genuine}.extra`,
    ];

    // Act
    const answers = await Promise.all(
      tokens.map((token) =>
        oneClick(`${harness.system.notificationsUrl}/unsubscribe/${encodeURIComponent(token)}`),
      ),
    );

    // Assert
    for (const answer of answers) {
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.deepEqual(answer.body, {
        error: { code: 'invalid-argument', message: messages.unsubscribeLinkInvalid },
      });
    }
    const { rows } = await harness.system.sql.notifications!.query(
      'SELECT 1 FROM notification_preferences WHERE person_id = $1',
      [personId],
    );
    assert.deepEqual(rows, []);
  });
});
