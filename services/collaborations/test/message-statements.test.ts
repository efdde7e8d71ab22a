/**
 * What one message costs Postgres: the round trips a send makes on the
 * service's pg pool, counted on a second pool over the service's database
 * with the service's own repositories (a new message, a retried one, a brand
 * member's first and later messages), pinned so that a change adding a
 * round trip shows here; and that a brand member's brand (and handle) is
 * asked of identity-profile once per token, a creator's never.
 */
import assert from 'node:assert/strict';
import { describe, test, beforeAll, afterAll } from 'vitest';
import type { Caller } from '@raly/service-kit/auth';
import { createLogger } from '@raly/service-kit/logger';
import { createEventWriter, createPgEventWriter } from '@raly/service-kit/outbox';
import type { Database } from '@raly/service-kit/database';
import { recordStatements } from '@raly/test-support';
import { type RalySystem, registeredBrand, registeredCreator } from '@raly/test-support/system';
import { collaborationRepository } from '../src/data-access/collaboration-repository';
import { openCollaborationsDatabase } from '../src/data-access/database';
import { createIdentityClient } from '../src/data-access/identity-client';
import { messageRepository } from '../src/data-access/message-repository';
import { trackRecordRepository } from '../src/data-access/track-record-repository';
import type { CollaborationsDependencies } from '../src/domain/dependencies';
import { sendMessage } from '../src/domain/messages';
import type { PrismaClient } from '../src/generated/prisma/client';
import { aMessage, openedCollaboration, useCollaborationsSystem } from './support';

const harness = useCollaborationsSystem();
let system: RalySystem;
let brand: Awaited<ReturnType<typeof registeredBrand>>;
let creator: Awaited<ReturnType<typeof registeredCreator>>;
let database: Database<PrismaClient>;
/** Every statement sent on `database`'s pool, in order (its SQL text). */
let statements: string[] = [];
/** The tokens identity-profile was asked about. */
const askedIdentity: string[] = [];
let dependencies: CollaborationsDependencies;

beforeAll(async () => {
  system = harness.system;
  [brand, creator] = await Promise.all([registeredBrand(system), registeredCreator(system)]);
  database = openCollaborationsDatabase(system.services.collaborations!.env.DATABASE_URL!, {
    poolMax: 2,
  });
  statements = recordStatements(database.pool);
  // The relay of the running service publishes what these sends record.
  const events = createEventWriter({ prisma: database.prisma, relay: { wake() {} } });
  const identity = createIdentityClient(system.identityUrl, { brandCacheMs: 60_000 });
  dependencies = {
    collaborations: collaborationRepository(database.prisma, events),
    messages: messageRepository(
      database.prisma,
      createPgEventWriter({ pool: database.pool, relay: { wake() {} } }),
    ),
    trackRecords: trackRecordRepository(database.prisma),
    identity: {
      ...identity,
      brandOf(accessToken) {
        askedIdentity.push(accessToken);
        return identity.brandOf(accessToken);
      },
    },
    workWindows: { reviewWindowMs: 3_600_000, paymentOverdueMs: 3_600_000 },
    logger: createLogger('collaborations-test', 'warn'),
  };
});

afterAll(async () => {
  await database?.close();
});

const callerOf = (user: { userId: string; accessToken: string }): Caller => ({
  userId: user.userId,
  email: undefined,
  sessionId: undefined,
  issuedAtSec: Math.floor(Date.now() / 1000),
  expiresAtMs: Date.now() + 300_000,
  accessToken: user.accessToken,
  clientId: 'raly-web',
});

/**
 * A round trip named by its statements, `; `-separated (a simple query may hold several): each
 * by its verb and table: `INSERT collaboration_messages`, `SELECT … FOR UPDATE collaborations`;
 * a `WITH` statement by the row locks and writes it holds:
 * `SELECT … FOR UPDATE collaborations, INSERT collaboration_messages, UPDATE collaborations`.
 */
function labelOf(text: string): string {
  return text
    .split(/;\s*(?=(?:BEGIN|COMMIT|ROLLBACK|SELECT|INSERT|UPDATE|WITH)\b)/)
    .map(statementLabelOf)
    .join('; ');
}

/** One statement's label (see {@link labelOf}). */
function statementLabelOf(text: string): string {
  const sql = text.replace(/\s+/g, ' ').trim();
  if (/^(BEGIN|COMMIT|ROLLBACK)$/.test(sql)) return sql;
  if (sql.startsWith('WITH '))
    return [
      ...[...sql.matchAll(/FROM "?(\w+)"? [^()]*FOR UPDATE/g)].map(
        ([, table]) => `SELECT … FOR UPDATE ${table}`,
      ),
      ...[...sql.matchAll(/(INSERT INTO|UPDATE|DELETE FROM) "?(\w+)"?/g)].map(
        ([, verb, table]) => `${verb!.split(' ')[0]} ${table}`,
      ),
    ].join(', ');
  const verb = sql.split(' ')[0]!;
  const table = /(?:INTO|FROM|UPDATE) (?:"public"\.)?"?(\w+)"?/.exec(sql)?.[1] ?? '?';
  return `${verb}${sql.endsWith('FOR UPDATE') ? ' … FOR UPDATE' : ''} ${table}`;
}

/** Runs `work` and answers what it returned and the statements it sent, by {@link labelOf}. */
async function counted<T>(work: () => Promise<T>) {
  statements.length = 0;
  const result = await work();
  return { result, sent: statements.map(labelOf) };
}

/** The round trips of a send that stores a new message. */
const newMessageStatements = [
  'BEGIN; SELECT … FOR UPDATE collaborations, INSERT collaboration_messages, UPDATE collaborations',
  'INSERT outbox; COMMIT',
];

describe('statements per send', () => {
  test('when the creator sends a message, then the send is two round trips of one transaction and asks identity-profile nothing', async () => {
    // Arrange
    const collaboration = await openedCollaboration(system, { creator, brand });
    askedIdentity.length = 0;

    // Act
    const { result, sent } = await counted(() =>
      sendMessage(dependencies, callerOf(creator), collaboration.id, aMessage()),
    );

    // Assert
    assert.equal(result.created, true);
    assert.equal(result.message.sequence, 1);
    assert.deepEqual(sent, newMessageStatements, JSON.stringify(statements));
    assert.deepEqual(askedIdentity, []);
  });

  test('when a message is sent again with its client id, then the retry is three round trips and stores nothing', async () => {
    // Arrange
    const collaboration = await openedCollaboration(system, { creator, brand });
    const form = aMessage();
    const first = await sendMessage(dependencies, callerOf(creator), collaboration.id, form);

    // Act
    const { result, sent } = await counted(() =>
      sendMessage(dependencies, callerOf(creator), collaboration.id, form),
    );

    // Assert
    assert.equal(result.created, false);
    assert.equal(result.message.id, first.message.id);
    assert.deepEqual(
      sent,
      [
        'BEGIN; SELECT … FOR UPDATE collaborations, INSERT collaboration_messages, UPDATE collaborations',
        'SELECT collaboration_messages',
        'COMMIT',
      ],
      JSON.stringify(statements),
    );
  });

  test('when a brand member sends twice with one token, then identity-profile is asked once, and the second send is two round trips', async () => {
    // Arrange
    const collaboration = await openedCollaboration(system, { creator, brand });
    askedIdentity.length = 0;
    const member = callerOf(brand);

    // Act
    const first = await counted(() =>
      sendMessage(dependencies, member, collaboration.id, aMessage()),
    );
    const second = await counted(() =>
      sendMessage(dependencies, member, collaboration.id, aMessage()),
    );

    // Assert
    assert.deepEqual([first.result.message.sequence, second.result.message.sequence], [1, 2]);
    assert.equal(second.result.message.sender.party, 'brand');
    assert.deepEqual(askedIdentity, [brand.accessToken]);
    // The first send learns the brand, then the member's handle, outside the lock: each try
    // that found one missing rolls back (its insert with it).
    const triedAndRolledBack = [newMessageStatements[0]!, 'ROLLBACK'];
    assert.deepEqual(
      first.sent,
      [...triedAndRolledBack, ...triedAndRolledBack, ...newMessageStatements],
      JSON.stringify(statements),
    );
    assert.deepEqual(second.sent, newMessageStatements, JSON.stringify(statements));
  });
});
