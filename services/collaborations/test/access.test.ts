/**
 * Who may see and act on a collaboration: its creator and its brand's
 * members; another creator and another brand's member are told it does not
 * exist (404), a visitor is refused (401). No answer or event carries
 * anyone's first name, last name, e-mail or phone number.
 */
import assert from 'node:assert/strict';
import { describe, test, beforeAll } from 'vitest';
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import { messages } from '@raly/contracts/messages';
import { dataOf, eventually, uniqueToken } from '@raly/test-support';
import { type RalySystem, registeredBrand, registeredCreator } from '@raly/test-support/system';
import { aMessage, asUser, openedCollaboration, useCollaborationsSystem } from './support';

const harness = useCollaborationsSystem();
let system: RalySystem;
let brand: Awaited<ReturnType<typeof registeredBrand>>;
let otherBrand: Awaited<ReturnType<typeof registeredBrand>>;
let creator: Awaited<ReturnType<typeof registeredCreator>>;
let otherCreator: Awaited<ReturnType<typeof registeredCreator>>;
let collaboration: CollaborationRecord;
/** Every private value of the file's users: none may appear in an answer or an event. */
const privateValues: string[] = [];
/** Every answer body the tests received. */
const answers: unknown[] = [];

/** A phone number unique to this run. */
const aPhoneNumber = () => `+1 555 ${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

beforeAll(async () => {
  system = harness.system;
  const token = uniqueToken(8);
  [brand, otherBrand, creator, otherCreator] = await Promise.all([
    registeredBrand(system, { firstName: `First${token}`, lastName: `Last${token}` }),
    registeredBrand(system),
    registeredCreator(system),
    registeredCreator(system),
  ]);
  const brandPhone = aPhoneNumber();
  const creatorPhone = aPhoneNumber();
  await dataOf(system.identityUrl, 'PATCH', '/users/me', {
    token: brand.accessToken,
    body: { phoneNumber: brandPhone },
  });
  await dataOf(system.identityUrl, 'PATCH', '/users/me', {
    token: creator.accessToken,
    body: { phoneNumber: creatorPhone },
  });
  privateValues.push(
    brand.registration.firstName,
    brand.registration.lastName,
    brand.registration.email,
    creator.registration.email,
    brandPhone,
    creatorPhone,
  );
  collaboration = await openedCollaboration(system, { creator, brand });
});

/** Calls the service as `token`'s holder and keeps the answer for the privacy check. */
async function call<Data = unknown>(
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
) {
  const answer = await asUser(system, token)<Data>(method, path, body);
  answers.push(answer.body);
  return answer;
}

/** Every route of one collaboration, with a valid body. */
const routesOf = (id: string): [string, string, unknown?][] => [
  ['GET', `/collaborations/${id}`],
  ['GET', `/collaborations/${id}/messages`],
  ['POST', `/collaborations/${id}/messages`, aMessage()],
  ['POST', `/collaborations/${id}/seen`, { sequence: 1 }],
];

describe('the parties', () => {
  test('when the creator and a member of the brand use every route, then each succeeds and names its side', async () => {
    for (const [party, user] of [
      ['creator', creator],
      ['brand', brand],
    ] as const) {
      for (const [method, path, body] of routesOf(collaboration.id)) {
        // Act
        const answer = await call(user.accessToken, method, path, body);

        // Assert
        assert.ok(
          answer.status === 200 || answer.status === 201,
          `${party} ${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`,
        );
      }
    }
    const page = await call<{ items: { sender: { party: string; handle: string } }[] }>(
      creator.accessToken,
      'GET',
      `/collaborations/${collaboration.id}/messages`,
    );
    assert.deepEqual(
      page.body.data!.items.map((message) => message.sender),
      [
        { party: 'brand', handle: collaboration.brand.username },
        { party: 'creator', handle: collaboration.creator.username },
      ],
    );
  });

  test('when each party lists their collaborations, then this one is there; another creator and another brand’s member do not see it', async () => {
    for (const [user, listed] of [
      [creator, true],
      [brand, true],
      [otherCreator, false],
      [otherBrand, false],
    ] as const) {
      // Act
      const answer = await call<CollaborationRecord[]>(user.accessToken, 'GET', '/collaborations');

      // Assert
      assert.equal(answer.status, 200);
      assert.equal(
        answer.body.data!.some((item) => item.id === collaboration.id),
        listed,
      );
    }
  });
});

describe('anyone else', () => {
  test('when another creator or another brand’s member uses any route, then 404 collaborationNotFound and nothing changes', async () => {
    for (const user of [otherCreator, otherBrand]) {
      for (const [method, path, body] of routesOf(collaboration.id)) {
        // Act
        const answer = await call(user.accessToken, method, path, body);

        // Assert
        assert.equal(answer.status, 404, `${method} ${path}`);
        assert.deepEqual(answer.body.error, {
          code: 'not-found',
          message: messages.collaborationNotFound,
        });
      }
    }
    const { rows } = await system.sql.collaborations!.query(
      'SELECT count(*)::int AS count FROM collaboration_messages WHERE collaboration_id = $1 AND sender_id = ANY($2)',
      [collaboration.id, [otherCreator.userId, otherBrand.userId]],
    );
    assert.equal(rows[0].count, 0);
  });

  test('when a visitor uses any route, then 401', async () => {
    for (const [method, path, body] of [
      ['GET', '/collaborations'] as [string, string],
      ...routesOf(collaboration.id),
    ]) {
      // Act
      const answer = await call(undefined, method, path, body);

      // Assert
      assert.equal(answer.status, 401, `${method} ${path}`);
      assert.equal(answer.body.error?.code, 'unauthenticated');
    }
  });

  test('when a party names an unknown collaboration or an id that is not a uuid, then 404 collaborationNotFound', async () => {
    for (const id of [
      '00000000-0000-4000-8000-000000000000',
      'not-a-uuid',
      `${collaboration.id}x`,
    ]) {
      for (const [method, path, body] of routesOf(id)) {
        // Act
        const answer = await call(creator.accessToken, method, path, body);

        // Assert
        assert.equal(answer.status, 404, `${method} ${path}`);
        assert.equal(answer.body.error?.message, messages.collaborationNotFound);
      }
    }
  });
});

describe('privacy', () => {
  test('when the tables are read, then no column can hold a first name, last name, e-mail or phone number', async () => {
    // Act
    const { rows } = await system.sql.collaborations!.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name IN ('collaborations', 'collaboration_messages')`,
    );

    // Assert
    assert.ok(rows.length > 20);
    const forbidden = rows.filter(({ column_name }) =>
      /first|last_?name|e_?mail|phone/i.test(column_name),
    );
    assert.deepEqual(forbidden, []);
  });

  test('when every answer and every event of the collaboration is read, then none carries a first name, last name, e-mail or phone number', async () => {
    // Arrange: the opening, two messages and two seen marks: 5 collaboration and 2 message events.
    const events = await eventually('the collaboration’s events', () => {
      const found = [...harness.collaborationEvents.messages, ...harness.messageEvents.messages]
        .filter((message) => message.key?.toString() === collaboration.id)
        .map((message) => message.value?.toString() ?? '');
      return found.length >= 7 && found;
    });
    assert.ok(answers.length > 20);

    // Act
    const everything = JSON.stringify([answers, events]);

    // Assert
    for (const value of privateValues)
      assert.ok(!everything.includes(value), `${value} was disclosed`);
  });
});
