/**
 * E-mail digests (docs/architecture.md "E-mail digests") against the real
 * stack and the SMTP catcher: an away person gets one digest of what they
 * missed, an online one none; the e-mail tells counts only (no message
 * text, no other party), carries RFC 8058 headers; the outcome of a report
 * is counted like any item; what was read in the app is never mailed; the
 * relay retries after an SMTP outage and sends once.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, test } from 'vitest';
import { eventTypes, topics } from '@raly/contracts/events';
import {
  connectTestKafka,
  eventually,
  freePort,
  listMails,
  sleep,
  testStack,
  waitForMail,
} from '@raly/test-support';
import {
  aMessageTo,
  anOpenReport,
  aRegisteredCreator,
  asUser,
  publish,
  reportEvent,
  resolved,
  useMailingSystem,
} from './support';

const AWAY_AFTER_MS = 1500;
/** How long a mail that should not come is waited for, in ms. */
const QUIET_MS = 3000;

/** A TCP relay in front of the SMTP catcher that can be closed (port refused) and opened again. */
async function smtpGate(target: { host: string; port: number }) {
  const port = await freePort();
  let server: net.Server | undefined;
  const sockets = new Set<net.Socket>();
  return {
    url: `smtp://127.0.0.1:${port}`,
    async open() {
      server = net.createServer((socket) => {
        const upstream = net.connect(target.port, target.host);
        for (const end of [socket, upstream]) {
          sockets.add(end);
          end.on('error', () => undefined);
          end.on('close', () => sockets.delete(end));
        }
        socket.pipe(upstream).pipe(socket);
      });
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = undefined;
    },
  };
}

/** A `live.presence.seen` envelope of now. */
const presenceOf = (userId: string) => {
  const at = new Date().toISOString();
  return JSON.stringify({
    id: randomUUID(),
    type: eventTypes.presenceSeen,
    source: 'bff',
    subject: userId,
    time: at,
    version: Date.now(),
    data: { userId, seenAt: at },
  });
};

const stack = await testStack();
const gate = await smtpGate(stack.smtp);
await gate.open();

describe('e-mail digests', () => {
  const harness = useMailingSystem({
    NOTIFICATIONS_AWAY_AFTER_MS: String(AWAY_AFTER_MS),
    NOTIFICATIONS_DIGEST_WINDOW_MS: '600000',
    NOTIFICATIONS_MAIL_RETRY_MS: '200',
    SMTP_URL: gate.url,
  });
  let heartbeats: ReturnType<typeof setInterval> | undefined;
  afterAll(async () => {
    clearInterval(heartbeats);
    await gate.close();
  });

  const messageTo = (creator: { id: string; username: string }) =>
    aMessageTo(harness.system, creator);

  /** Publishes one presence heartbeat of `personId`, as a BFF replica does, and waits until handled. */
  const heartbeat = async (personId: string) => {
    const seen = {
      id: personId,
      version: Date.now(),
      userId: personId,
      seenAt: new Date().toISOString(),
    };
    await publish(harness.system, {
      topic: topics.livePresence,
      type: eventTypes.presenceSeen,
      record: seen,
    });
  };

  const digestsOf = async (personId: string) => {
    const { rows } = await harness.system.sql.notifications!.query<{
      status: string;
      attempts: number;
      last_error: string | null;
    }>(
      `SELECT m.status, m.attempts, m.last_error FROM digests d
       JOIN mail_outbox m ON m.digest_id = d.id WHERE d.person_id = $1`,
      [personId],
    );
    return rows;
  };

  test('when a person is away and one online, then only the away one gets a digest, with counts and no details of the other party', async () => {
    // Arrange
    const [away, online] = await Promise.all([
      aRegisteredCreator(harness.system),
      aRegisteredCreator(harness.system),
    ]);
    const kafka = await connectTestKafka(stack.kafkaBrokers);
    const beat = () => void kafka.produce(topics.livePresence, online.id, presenceOf(online.id));
    beat();
    heartbeats = setInterval(beat, 300);

    // Act
    const toAway = await messageTo(away);
    await messageTo(online);
    const mail = await waitForMail(away.registration.email, { timeoutMs: 20_000 });
    await sleep(QUIET_MS);

    // Assert
    clearInterval(heartbeats);
    await kafka.close();
    assert.equal(mail.subject, 'You have 1 unread notification on Raly');
    assert.match(mail.text, new RegExp(`Hi ${away.username},`));
    assert.match(mail.text, /new messages in a collaboration/);
    assert.match(mail.html, /new messages in a collaboration/);
    for (const secret of [
      toAway.message.body,
      toAway.collaboration.brand.company,
      toAway.collaboration.brand.username,
      toAway.collaboration.offer.title,
      online.registration.email,
    ]) {
      assert.ok(!mail.text.includes(secret), `text tells ${secret}`);
      assert.ok(!mail.html.includes(secret), `html tells ${secret}`);
    }
    assert.doesNotMatch(mail.html, /<img|https?:\/\/fonts\./i);
    assert.match(
      mail.headers['list-unsubscribe'] ?? '',
      /^<http:\/\/.+\/api\/unsubscribe\/[\w-]+\.[\w-]+>$/,
    );
    assert.equal(mail.headers['list-unsubscribe-post'], 'List-Unsubscribe=One-Click');
    assert.deepEqual(await listMails(online.registration.email), []);
    assert.deepEqual(await digestsOf(online.id), []);
    assert.equal((await listMails(away.registration.email)).length, 1);
  });

  test("when an away reporter's report is resolved, then their digest counts it without the label, the outcome or the accused", async () => {
    // Arrange
    const reporter = await aRegisteredCreator(harness.system);
    const report = anOpenReport(reporter.id);
    const decided = resolved(report, 'suspension');

    // Act
    await publish(harness.system, reportEvent(report), reportEvent(decided));
    const mail = await waitForMail(reporter.registration.email, { timeoutMs: 20_000 });

    // Assert
    assert.equal(mail.subject, 'You have 1 unread notification on Raly');
    assert.match(mail.text, /a report of yours reviewed/);
    assert.match(mail.html, /a report of yours reviewed/);
    for (const secret of [
      report.item.label,
      report.accused.id,
      decided.resolution!.note,
      'suspended',
    ]) {
      assert.ok(!mail.text.includes(secret), `text tells ${secret}`);
      assert.ok(!mail.html.includes(secret), `html tells ${secret}`);
    }
  });

  test('when the person read the notification in the app, then no digest e-mail comes', async () => {
    // Arrange: seen just now, so the item arrives while the away window runs
    const reader = await aRegisteredCreator(harness.system);
    await heartbeat(reader.id);

    // Act
    await messageTo(reader);
    const read = await asUser(harness.system, reader.accessToken)(
      'POST',
      '/notifications/read-all',
    );
    await sleep(QUIET_MS);

    // Assert
    assert.equal(read.status, 200);
    assert.deepEqual(await listMails(reader.registration.email), []);
    for (const digest of await digestsOf(reader.id)) assert.equal(digest.status, 'cancelled');
  });

  test('when the SMTP server is unreachable, then the relay retries and sends the digest once it is back', async () => {
    // Arrange
    const person = await aRegisteredCreator(harness.system);
    await gate.close();

    // Act
    await messageTo(person);
    const failed = await eventually('a failed attempt', async () => {
      const [digest] = await digestsOf(person.id);
      return digest && digest.attempts >= 2 && digest.last_error ? digest : undefined;
    });
    await gate.open();
    const mail = await waitForMail(person.registration.email, { timeoutMs: 20_000 });
    await sleep(QUIET_MS);

    // Assert
    assert.equal(failed.status, 'pending');
    assert.match(failed.last_error ?? '', /ECONNREFUSED/);
    assert.match(mail.subject, /unread notification/);
    assert.equal((await listMails(person.registration.email)).length, 1);
    const [digest] = await digestsOf(person.id);
    assert.equal(digest?.status, 'sent');
    assert.ok(digest.attempts >= 2, `attempts ${digest.attempts}`);
  });
});
