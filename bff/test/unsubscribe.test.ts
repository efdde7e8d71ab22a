/**
 * The e-mails' unsubscribe link through the BFF, in front of the real
 * notifications service: the one-click POST (RFC 8058 form body, or none)
 * turns digests off without signing in; a malformed or forged token is 400
 * with the product's words; the GET page only offers a button (a link
 * scanner's fetch turns nothing off); the POST is rate-limited per address.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { messages } from '@raly/contracts/messages';
import { testStack, uniqueToken } from '@raly/test-support';
import { callBff, startTestBff } from '@raly/test-support/bff';
import { type RalySystem, startSystem } from '@raly/test-support/system';
import { unsubscribeToken } from '@raly/notifications/unsubscribe';
import type { RunningBff } from '../src/app';

const SECRET = `bff-unsubscribe-test-${randomUUID()}`;
const PER_ADDRESS = 3;

let system: RalySystem;
let bff: RunningBff;

beforeAll(async () => {
  system = await startSystem({
    notifications: true,
    env: { notifications: { NOTIFICATIONS_UNSUBSCRIBE_SECRET: SECRET } },
  });
  bff = await startTestBff(await testStack(), {
    NOTIFICATIONS_URL: system.notificationsUrl,
    TRUST_PROXY: 'loopback',
    RATE_LIMIT_UNSUBSCRIBE_PER_IP: { points: PER_ADDRESS, durationSeconds: 60 },
  });
});

afterAll(async () => {
  await bff?.stop();
  await system?.stop();
});

/** A client address of its own, so each test has its own budget. */
const anAddress = () => `203.0.113.${Math.floor(Math.random() * 250) + 1}`;

/** POSTs as a mail client does: `List-Unsubscribe=One-Click`, form-encoded. */
const oneClick = (token: string, from = anAddress(), accept = 'application/json') =>
  fetch(`${bff.url}/api/unsubscribe/${encodeURIComponent(token)}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': from,
      accept,
    },
    body: 'List-Unsubscribe=One-Click',
  });

const optOutsOf = async (personId: string) => {
  const { rows } = await system.sql.notifications!.query<{ category: string }>(
    "SELECT category FROM notification_preferences WHERE person_id = $1 AND channel = 'email'",
    [personId],
  );
  return rows.map((row) => row.category);
};

describe('POST /api/unsubscribe/:token', () => {
  test('when a mail client posts the one-click body, or nothing, then digests are off for that person', async () => {
    // Arrange
    const personId = randomUUID();
    const token = unsubscribeToken(personId, 'digest', SECRET);

    // Act
    const form = await oneClick(token);
    const empty = await callBff(bff, 'POST', `/api/unsubscribe/${token}`, {
      forwardedFor: anAddress(),
    });

    // Assert
    assert.equal(form.status, 200);
    assert.deepEqual(await form.json(), { data: { category: 'digest', unsubscribed: true } });
    assert.equal(empty.status, 200, JSON.stringify(empty.body));
    assert.deepEqual(empty.body, { data: { category: 'digest', unsubscribed: true } });
    assert.deepEqual(await optOutsOf(personId), ['digest']);
  });

  test('when the token is forged or malformed, then 400 with the link message and nothing is turned off', async () => {
    // Arrange
    const personId = randomUUID();
    const forged = unsubscribeToken(personId, 'digest', `not-${SECRET}`);

    // Act
    const answers = await Promise.all(
      [forged, 'not-a-token', `${forged}.x`, 'a'.repeat(600)].map((token) => oneClick(token)),
    );

    // Assert
    for (const answer of answers) {
      assert.equal(answer.status, 400);
      assert.deepEqual(await answer.json(), {
        error: { code: 'invalid-argument', message: messages.unsubscribeLinkInvalid },
      });
    }
    assert.deepEqual(await optOutsOf(personId), []);
  });

  test('when a browser posts the page form, then it gets a confirmation page, or the refusal as a page', async () => {
    // Arrange
    const personId = randomUUID();
    const html = 'text/html,application/xhtml+xml,*/*;q=0.8';

    // Act
    const done = await oneClick(unsubscribeToken(personId, 'digest', SECRET), anAddress(), html);
    const refused = await oneClick(`x${uniqueToken(8)}.y`, anAddress(), html);

    // Assert
    assert.equal(done.status, 200);
    assert.match(done.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await done.text(), /You are unsubscribed/);
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /This unsubscribe link is not valid/);
    assert.deepEqual(await optOutsOf(personId), ['digest']);
  });

  test(`when one address posts more than ${PER_ADDRESS} times a minute, then it is refused 429`, async () => {
    // Arrange
    const from = anAddress();
    const token = unsubscribeToken(randomUUID(), 'digest', SECRET);

    // Act
    const statuses: number[] = [];
    for (let i = 0; i <= PER_ADDRESS; i++) statuses.push((await oneClick(token, from)).status);

    // Assert
    assert.deepEqual(statuses, [...Array(PER_ADDRESS).fill(200), 429]);
  });
});

describe('GET /api/unsubscribe/:token', () => {
  test('when a link scanner or a person opens the link, then a page with a button that posts answers, and nothing is turned off', async () => {
    // Arrange
    const personId = randomUUID();
    const token = unsubscribeToken(personId, 'digest', SECRET);

    // Act
    const page = await fetch(`${bff.url}/api/unsubscribe/${token}`);
    const body = await page.text();

    // Assert
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /form-action 'self'/);
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.match(body, /<form method="post">/);
    assert.match(body, /<button type="submit">Stop these e-mails<\/button>/);
    assert.doesNotMatch(body, /<script/i);
    assert.deepEqual(await optOutsOf(personId), []);
  });
});
