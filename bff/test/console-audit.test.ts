/**
 * The staff audit log through the console (docs/console.md "Audit log", docs/api.md § Console),
 * against the real Keycloak: `GET /api/console/audit` takes a moderator's console token only,
 * checks the search with the contract before moderation is called, and asks moderation's
 * `GET /audit-entries` with the BFF's service token. Moderation's place is taken by a listener
 * that records what reaches it and drops the connection unanswered, so the BFF's call is seen
 * and its "no answer" is the 503 a moderation that is away gives.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { AUDIT_QUERY_MAX_LENGTH, staffActions } from '@raly/contracts/audit';
import type { RunningBff } from '../src/app';
import {
  consoleSignIn,
  createStaffUser,
  deleteStaffUser,
  ensureStaffRealm,
  passwordGrant,
  testKeycloak,
  testStack,
  type StaffUser,
  type TestKeycloak,
  type TestStack,
} from '@raly/test-support';
import { callBff, startTestBff } from '@raly/test-support/bff';

/** A request that reached moderation's address: its path with the query string, and headers. */
interface Reached {
  url: string;
  headers: IncomingHttpHeaders;
}

describe('the audit log in the console', () => {
  let stack: TestStack;
  let bff: RunningBff;
  let keycloak: TestKeycloak;
  let moderationAddress: Server;
  const reached: Reached[] = [];
  const staff: StaffUser[] = [];
  let moderatorToken: string;
  let nonStaffToken: string;

  const signedIn = async (role: StaffUser['role'] | undefined) => {
    const user = await createStaffUser(stack, role);
    staff.push(user);
    return (await consoleSignIn(stack, user)).access_token;
  };

  beforeAll(async () => {
    stack = await testStack();
    await ensureStaffRealm(stack);
    keycloak = testKeycloak(stack);
    moderationAddress = createServer((request) => {
      reached.push({ url: request.url ?? '', headers: request.headers });
      request.socket.destroy();
    });
    await new Promise<void>((listening) =>
      moderationAddress.listen(0, '127.0.0.1', () => listening()),
    );
    const { port } = moderationAddress.address() as AddressInfo;
    bff = await startTestBff(stack, { MODERATION_URL: `http://127.0.0.1:${port}` });
    moderatorToken = await signedIn('raly-moderator');
    nonStaffToken = await signedIn(undefined);
  });

  afterAll(async () => {
    await bff?.stop();
    await new Promise((closed) => moderationAddress?.close(closed));
    await keycloak?.cleanUp();
    await Promise.all(staff.map((user) => deleteStaffUser(stack, user)));
  });

  const readAudit = (search: string, token?: string) =>
    callBff(bff, 'GET', `/api/console/audit${search}`, token ? { token } : {});

  test("when the audit log is read without a token or with a creator's product token, then it answers 401 and moderation is not asked", async () => {
    // Arrange
    const creator = await keycloak.createUser();
    const product = await passwordGrant(stack, creator.email, creator.password);
    const before = reached.length;

    // Act
    const none = await readAudit('');
    const asCreator = await readAudit('', product.access_token);

    // Assert
    assert.equal(none.status, 401);
    assert.equal(none.body.error.code, 'unauthenticated');
    assert.equal(asCreator.status, 401);
    assert.equal(asCreator.body.error.code, 'unauthenticated');
    assert.equal(reached.length, before);
  });

  test('when a console user without a staff role reads the audit log, then it is refused with 403', async () => {
    const before = reached.length;

    const answer = await readAudit('', nonStaffToken);

    assert.equal(answer.status, 403);
    assert.equal(answer.body.error.code, 'permission-denied');
    assert.equal(reached.length, before);
  });

  test("when a moderator searches the audit log, then the BFF asks moderation's GET /audit-entries with its service token and the search, and answers 503 while moderation does not answer", async () => {
    // Act
    const answer = await readAudit(
      `?${new URLSearchParams({ query: '  Staff@Raly.test ', action: 'brand.suspend', before: 'cursor-1' })}`,
      moderatorToken,
    );

    // Assert
    assert.equal(answer.status, 503, JSON.stringify(answer.body));
    assert.equal(answer.body.error.code, 'unavailable');
    const call = reached.at(-1);
    assert.ok(call, 'moderation was not asked');
    const url = new URL(call.url, 'http://moderation');
    assert.equal(url.pathname, '/audit-entries');
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      query: 'Staff@Raly.test',
      action: 'brand.suspend',
      before: 'cursor-1',
    });
    assert.ok(call.headers['x-raly-service-token'], 'no service token');
    assert.equal(call.headers.authorization, undefined);
  });

  test('when a moderator reads the audit log without a search, then moderation is asked for the first page without parameters', async () => {
    const answer = await readAudit('?query=%20%20', moderatorToken);

    assert.equal(answer.status, 503);
    assert.equal(reached.at(-1)?.url, '/audit-entries');
  });

  test.each([
    {
      what: 'a search over the longest',
      search: `?query=${'a'.repeat(AUDIT_QUERY_MAX_LENGTH + 1)}`,
      field: 'query',
      message: `The search must not exceed ${AUDIT_QUERY_MAX_LENGTH} characters.`,
    },
    {
      what: 'a repeated search',
      search: '?query=a&query=b',
      field: 'query',
      message: 'Give the search once, as text.',
    },
    {
      what: 'an unknown action',
      search: '?action=brand.delete',
      field: 'action',
      message: `The action must be one of ${staffActions.join(', ')}, given once.`,
    },
    {
      what: 'an empty page cursor',
      search: '?before=',
      field: 'before',
      message: 'The page cursor is not valid: take the next page from the previous answer.',
    },
    {
      what: 'an unknown parameter',
      search: '?staff=someone',
      field: '',
      message: 'Unknown search parameter: staff. The audit log takes query, action and before.',
    },
  ])(
    'when a moderator sends $what, then the BFF answers 400 in its words and moderation is not asked',
    async ({ search, field, message }) => {
      // Arrange
      const before = reached.length;

      // Act
      const answer = await readAudit(search, moderatorToken);

      // Assert
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.equal(answer.body.error.code, 'invalid-argument');
      assert.equal(answer.body.error.message, message);
      assert.equal(answer.body.error.fields?.[field], message);
      assert.equal(reached.length, before);
    },
  );
});
