/**
 * The shared rules of collaborations (`@raly/contracts/collaborations`): the
 * message form answers each rule with its message, the contact-details check
 * asks for what looks like an address or a number and lets dates and prices
 * through, the snapshots carry no name or e-mail, and a pushed message is
 * counted on the record a tab holds as the service counts it.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'vitest';
import {
  collaborationRecordSchema,
  countedBy,
  looksLikeContactDetails,
  markSeenSchema,
  messagesQuerySchema,
  MESSAGE_MAX_LENGTH,
  MESSAGES_PAGE_SIZE_DEFAULT,
  partyOf,
  sendMessageSchema,
  type CollaborationMessageRecord,
  type CollaborationRecord,
} from '../src/collaborations';
import { eventTypes, parseEnvelope } from '../src/events';
import { messages } from '../src/messages';
import { firstErrorByField } from '../src/validation';

function errorsOf(value: unknown): Record<string, string> {
  const result = sendMessageSchema.safeParse(value);
  return result.success ? {} : firstErrorByField(result.error);
}

describe('the message form', () => {
  test('when the body is blank, then it answers "Message is required"', () => {
    assert.deepEqual(errorsOf({ clientId: randomUUID(), body: '  \n ' }), {
      body: messages.messageRequired,
    });
  });

  test('when the body is longer than 2,000 characters, then it answers the length rule', () => {
    const body = 'a'.repeat(MESSAGE_MAX_LENGTH + 1);
    assert.deepEqual(errorsOf({ clientId: randomUUID(), body }), { body: messages.messageTooLong });
    assert.deepEqual(errorsOf({ clientId: randomUUID(), body: body.slice(1) }), {});
  });

  test('when the body holds a control character, then it is refused; line breaks pass', () => {
    assert.deepEqual(errorsOf({ clientId: randomUUID(), body: 'hi\u0007' }), {
      body: messages.controlCharacters,
    });
    assert.deepEqual(errorsOf({ clientId: randomUUID(), body: 'line one\nline two' }), {});
  });

  test('when the client id is not a uuid or an unknown field is sent, then it is refused', () => {
    assert.ok(errorsOf({ clientId: 'retry-1', body: 'hello' }).clientId);
    assert.equal(
      sendMessageSchema.safeParse({ clientId: randomUUID(), body: 'hi', to: 'x' }).success,
      false,
    );
  });

  test('when a page is asked without a size, then it is the default size, and sizes are bounded', () => {
    assert.equal(messagesQuerySchema.parse({}).limit, MESSAGES_PAGE_SIZE_DEFAULT);
    assert.equal(messagesQuerySchema.safeParse({ limit: '1000' }).success, false);
    assert.equal(messagesQuerySchema.safeParse({ before: '0' }).success, false);
    assert.equal(markSeenSchema.safeParse({ sequence: -1 }).success, false);
  });
});

describe('contact details in a message', () => {
  test.each([
    'write me at jane.doe@example.com',
    'jane (at) example (dot) com',
    'call +44 20 7946 0958',
    'my number is (555) 123-4567',
    '0151 234 5678 any time',
  ])('when a message says %j, then it looks like contact details', (body) => {
    assert.equal(looksLikeContactDetails(body), true);
  });

  test.each([
    'Posting on 2026-12-01 at 10:30, the brief is clear',
    'The fee is $1,500 for 3 posts',
    'See you at noon. Ok?',
    'Tag @brandname in the caption',
  ])('when a message says %j, then it goes without a notice', (body) => {
    assert.equal(looksLikeContactDetails(body), false);
  });
});

describe('parties', () => {
  const collaboration = { creatorId: 'creator-1', brandId: 'brand-1' };

  test('when the user is the creator or a member of the brand, then that is their side; else none', () => {
    assert.equal(partyOf(collaboration, { id: 'creator-1', brandId: null }), 'creator');
    assert.equal(partyOf(collaboration, { id: 'member-1', brandId: 'brand-1' }), 'brand');
    assert.equal(partyOf(collaboration, { id: 'member-2', brandId: 'brand-2' }), null);
    assert.equal(partyOf(collaboration, { id: 'creator-2', brandId: null }), null);
  });
});

describe('the collaboration snapshot', () => {
  test('when a snapshot travels, then it parses as its event type and carries no contact field', () => {
    const record = {
      id: randomUUID(),
      version: 1,
      applicationId: randomUUID(),
      offerId: randomUUID(),
      brandId: randomUUID(),
      creatorId: randomUUID(),
      offer: { id: randomUUID(), title: 'Autumn launch' },
      brand: {
        id: randomUUID(),
        username: 'acme',
        company: 'Acme',
        profileImg: '',
        isVerified: false,
      },
      creator: { id: randomUUID(), username: 'jane', profileImg: '', email: 'jane@example.com' },
      terms: {
        deliverables: 'One reel',
        compensation: { kind: 'fixed', amountMinor: 50_000, currency: 'EUR' },
        agreedRate: null,
      },
      status: 'active',
      messageCount: 0,
      lastMessageAt: null,
      unread: { brand: 0, creator: 0 },
      seenSequence: { brand: 0, creator: 0 },
      created: new Date().toISOString(),
      updated: new Date().toISOString(),
    };
    const envelope = parseEnvelope(
      JSON.stringify({
        id: randomUUID(),
        type: eventTypes.collaborationOpened,
        source: 'collaborations',
        subject: record.id,
        time: new Date().toISOString(),
        version: 1,
        data: record,
      }),
    );
    const parsed = collaborationRecordSchema.parse(envelope.data);
    assert.equal(JSON.stringify(parsed).includes('jane@example.com'), false);
    assert.deepEqual(Object.keys(parsed.creator).sort(), ['id', 'profileImg', 'username']);
  });
});

describe('a message counted on the record a tab holds', () => {
  const collaboration = {
    id: 'collaboration-1',
    version: 7,
    messageCount: 3,
    lastMessageAt: '2026-11-01T10:00:00.000Z',
    unread: { brand: 1, creator: 2 },
    seenSequence: { brand: 2, creator: 1 },
    status: 'active',
    updated: '2026-11-01T10:00:00.000Z',
  } as CollaborationRecord;
  const message = (
    changes: Partial<CollaborationMessageRecord> = {},
  ): CollaborationMessageRecord => ({
    id: randomUUID(),
    version: 1,
    collaborationId: collaboration.id,
    clientId: randomUUID(),
    sequence: 4,
    sender: { party: 'creator', handle: 'jane' },
    body: 'Draft attached.',
    created: '2026-11-02T09:30:00.000Z',
    collaborationVersion: 8,
    ...changes,
  });

  test('when the message is the next one, then it is counted as the service counts it: the other side has one more unread', () => {
    assert.deepEqual(countedBy(collaboration, message()), {
      ...collaboration,
      version: 8,
      messageCount: 4,
      lastMessageAt: '2026-11-02T09:30:00.000Z',
      unread: { brand: 2, creator: 2 },
      updated: '2026-11-02T09:30:00.000Z',
    });
    const fromBrand = countedBy(
      collaboration,
      message({ sender: { party: 'brand', handle: 'acme', memberHandle: 'sam' } }),
    );
    assert.deepEqual(fromBrand?.unread, { brand: 1, creator: 3 });
    assert.deepEqual(fromBrand?.seenSequence, collaboration.seenSequence);
  });

  test('when the record already counts the message, the message has no version, or it is of another collaboration, then the record is kept as it is', () => {
    for (const known of [
      message({ collaborationVersion: 7, sequence: 3 }),
      message({ collaborationVersion: 5, sequence: 2 }),
      message({ collaborationVersion: undefined }),
      message({ collaborationId: 'collaboration-2', collaborationVersion: 9, sequence: 9 }),
    ])
      assert.equal(countedBy(collaboration, known), collaboration, JSON.stringify(known));
  });

  test('when a change between the record and the message is missing, then it answers null (read the record again)', () => {
    assert.equal(countedBy(collaboration, message({ collaborationVersion: 9, sequence: 5 })), null);
    assert.equal(countedBy(collaboration, message({ collaborationVersion: 9 })), null);
    assert.equal(countedBy(collaboration, message({ sequence: 5 })), null);
  });
});
