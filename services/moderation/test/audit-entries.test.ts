/**
 * The consumer of the audit topics: every entry identity-profile or brand records becomes one
 * row, once however often it is delivered; a message that can never be an entry goes to its
 * dead-letter topic and the entries after it are still kept; the rows refuse any change.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { deadLetterTopic } from '@raly/contracts/envelope';
import { topics } from '@raly/contracts/events';
import { anAuditEntry, listenToTopic, uniqueToken, type TopicListener } from '@raly/test-support';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  newestFirst,
  publish,
  readAuditLog,
  recorded,
  rowsOf,
  useModerationService,
} from './support';

const harness = useModerationService();
let identityDeadLetters: TopicListener;
let brandDeadLetters: TopicListener;

beforeAll(async () => {
  identityDeadLetters = await listenToTopic(
    harness.stack.kafkaBrokers,
    deadLetterTopic(topics.identityAudit),
  );
  brandDeadLetters = await listenToTopic(
    harness.stack.kafkaBrokers,
    deadLetterTopic(topics.brandAudit),
  );
});

afterAll(async () => {
  await identityDeadLetters?.stop();
  await brandDeadLetters?.stop();
});

describe('recording audit entries', () => {
  test("when entries are published on identity's and brand's audit topics, contact views of creators and brands among them, then each becomes one row and the log answers them newest first", async () => {
    // Arrange
    const token = uniqueToken();
    const staff = { userId: randomUUID(), email: `moderator.${token}@raly.test` };
    const now = Date.now();
    const creatorContactViewed = anAuditEntry({
      staff,
      at: new Date(now - 5000).toISOString(),
      action: 'contact.view',
      reason: 'Checking a payment dispute',
    });
    const brandContactViewed = anAuditEntry({
      staff,
      at: new Date(now - 4000).toISOString(),
      action: 'contact.view',
      target: { kind: 'brand', id: randomUUID(), label: `Initech ${token}` },
      reason: 'Checking a payment dispute',
    });
    const creatorSuspended = anAuditEntry({ staff, at: new Date(now - 3000).toISOString() });
    const creatorFlags = anAuditEntry({
      staff,
      at: new Date(now - 2000).toISOString(),
      action: 'creator.flags',
      reason: null,
      details: { isBoosted: true, isAmbassador: false },
    });
    const brandVerified = anAuditEntry({
      staff,
      at: new Date(now - 1000).toISOString(),
      action: 'brand.verify',
      target: { kind: 'brand', id: randomUUID(), label: `Acme ${token}` },
    });
    const brandSuspended = anAuditEntry({
      staff,
      at: new Date(now).toISOString(),
      action: 'brand.suspend',
      target: { kind: 'brand', id: randomUUID(), label: `Globex ${token}` },
      reason: 'Unpaid collaborations',
    });

    // Act
    await publish(
      harness,
      recorded('identity', creatorContactViewed),
      recorded('identity', brandContactViewed),
      recorded('identity', creatorSuspended),
      recorded('identity', creatorFlags),
      recorded('brand', brandVerified),
      recorded('brand', brandSuspended),
    );

    // Assert
    const answer = await readAuditLog(harness, { query: staff.email });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body.data, {
      entries: newestFirst([
        creatorContactViewed,
        brandContactViewed,
        creatorSuspended,
        creatorFlags,
        brandVerified,
        brandSuspended,
      ]),
      nextBefore: null,
    });
    assert.equal((await rowsOf(harness, creatorFlags.id))[0]?.topic, topics.identityAudit);
    assert.equal((await rowsOf(harness, brandVerified.id))[0]?.topic, topics.brandAudit);
  });

  test('when an entry is delivered again, in the same envelope or a new one, then it stays one row as first kept', async () => {
    // Arrange
    const entry = anAuditEntry();
    const [firstEnvelope] = await publish(harness, recorded('identity', entry));

    // Act
    await publish(
      harness,
      { ...recorded('identity', entry), envelopeId: firstEnvelope },
      recorded('identity', entry),
      recorded('identity', { ...entry, reason: 'A different reason' }),
    );

    // Assert
    const rows = await rowsOf(harness, entry.id);
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.event_id, firstEnvelope);
    const answer = await readAuditLog(harness, { query: entry.staff.email });
    assert.deepEqual(answer.body.data?.entries, [entry]);
  });
});

describe('poison messages', () => {
  test('when a message is no audit entry, then it goes to the dead-letter topic and the next entry of the same key is still kept', async () => {
    // Arrange
    const key = randomUUID();
    const poison = { id: key, at: 'yesterday', staff: null };
    const entry = anAuditEntry({ id: key });

    // Act
    await publish(harness, { recorder: 'identity', data: poison }, recorded('identity', entry));

    // Assert
    const dead = await identityDeadLetters.waitFor((message) => message.key?.toString() === key);
    assert.equal(JSON.parse(dead.value!.toString()).data.at, 'yesterday');
    assert.equal((await rowsOf(harness, key)).length, 1);
  });

  test('when an entry contradicts itself (a brand action on a creator), then it goes to the dead-letter topic and is not kept', async () => {
    // Arrange
    const contradiction = anAuditEntry({ action: 'brand.verify' });
    const next = anAuditEntry({
      action: 'brand.unverify',
      target: { kind: 'brand', id: randomUUID(), label: 'Initech' },
    });

    // Act
    await publish(harness, recorded('brand', contradiction), recorded('brand', next));

    // Assert
    await brandDeadLetters.waitFor((message) => message.key?.toString() === contradiction.id);
    assert.deepEqual(await rowsOf(harness, contradiction.id), []);
    assert.equal((await rowsOf(harness, next.id)).length, 1);
  });
});

describe('immutable rows', () => {
  test('when a row is updated or deleted, then the database refuses and the entry stays as kept', async () => {
    // Arrange
    const entry = anAuditEntry();
    await publish(harness, recorded('identity', entry));

    // Act + Assert: one statement at a time, each refusal awaited before the next is sent (a
    // refusal no one awaits yet would be an unhandled rejection)
    await assert.rejects(
      harness.service.sql.query("UPDATE audit_entries SET reason = 'rewritten' WHERE id = $1", [
        entry.id,
      ]),
      /audit entries are immutable: UPDATE refused/,
    );
    await assert.rejects(
      harness.service.sql.query('DELETE FROM audit_entries WHERE id = $1', [entry.id]),
      /audit entries are immutable: DELETE refused/,
    );
    await assert.rejects(
      harness.service.sql.query('TRUNCATE audit_entries'),
      /audit entries are immutable: TRUNCATE refused/,
    );
    const answer = await readAuditLog(harness, { query: entry.target.id });
    assert.deepEqual(answer.body.data?.entries, [entry]);
  });
});
