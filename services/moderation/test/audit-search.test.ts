/**
 * `GET /audit-entries`: only the BFF may read the audit log; a page holds AUDIT_PAGE_SIZE entries
 * newest first, and following `nextBefore` covers every entry once; `query` matches the staff
 * e-mail, target label or target id ignoring case and taking wildcards literally, `action` one
 * kind of action; bad parameters and cursors answer 400; no route changes an entry.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { AUDIT_PAGE_SIZE, type AuditEntry } from '@raly/contracts/audit';
import { anAuditEntry, callApi, serviceTokenOf, uniqueToken } from '@raly/test-support';
import { describe, test } from 'vitest';
import {
  allPages,
  newestFirst,
  publish,
  readAuditLog,
  recorded,
  useModerationService,
} from './support';

const harness = useModerationService();

describe('paging', () => {
  test('when more entries match than a page holds, then following nextBefore answers each exactly once, newest first, ties by id', async () => {
    // Arrange: three entries share each instant, so the id decides among them.
    const label = `paged${uniqueToken()}`;
    const start = Date.now() - 3_600_000;
    const entries = Array.from({ length: 2 * AUDIT_PAGE_SIZE + 20 }, (_, index) =>
      anAuditEntry({
        at: new Date(start + Math.floor(index / 3) * 1000).toISOString(),
        target: { kind: 'creator', id: randomUUID(), label: `${label}-${index}` },
      }),
    );
    await publish(harness, ...entries.map((entry) => recorded('identity', entry)));

    // Act
    const pages = await allPages(harness, { query: label });

    // Assert
    assert.deepEqual(
      pages.map((page) => page.entries.length),
      [AUDIT_PAGE_SIZE, AUDIT_PAGE_SIZE, 20],
    );
    assert.equal(pages.at(-1)!.nextBefore, null);
    assert.deepEqual(
      pages.flatMap((page) => page.entries),
      newestFirst(entries),
    );
  });

  test('when exactly a page of entries matches, then that page has no nextBefore', async () => {
    const label = `full${uniqueToken()}`;
    const entries = Array.from({ length: AUDIT_PAGE_SIZE }, (_, index) =>
      anAuditEntry({ target: { kind: 'creator', id: randomUUID(), label: `${label}${index}` } }),
    );
    await publish(harness, ...entries.map((entry) => recorded('identity', entry)));

    const answer = await readAuditLog(harness, { query: label });

    assert.equal(answer.body.data?.entries.length, AUDIT_PAGE_SIZE);
    assert.equal(answer.body.data?.nextBefore, null);
  });
});

describe('search', () => {
  const token = uniqueToken();
  const moderator = anAuditEntry({
    staff: { userId: randomUUID(), email: `Mod.${token}@Raly.test` },
    target: { kind: 'creator', id: `creator-${token}`, label: `plain${token}` },
  });
  const wildcard = anAuditEntry({
    action: 'brand.flags',
    reason: null,
    details: { isAgency: true },
    target: { kind: 'brand', id: randomUUID(), label: `100%_off ${token}` },
  });
  const lookalike = anAuditEntry({
    action: 'brand.suspend',
    target: { kind: 'brand', id: randomUUID(), label: `100xyoff ${token}` },
  });
  const search = async (query: Record<string, string>) => {
    const answer = await readAuditLog(harness, query);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.data!.entries.map((entry: AuditEntry) => entry.id);
  };

  test('when the query is part of a staff e-mail, a target label or a target id in another case, then those entries match', async () => {
    await publish(
      harness,
      recorded('identity', moderator),
      recorded('brand', wildcard),
      recorded('brand', lookalike),
    );

    assert.deepEqual(await search({ query: `mod.${token.toUpperCase()}@raly` }), [moderator.id]);
    assert.deepEqual(await search({ query: `PLAIN${token}` }), [moderator.id]);
    assert.deepEqual(await search({ query: `creator-${token}` }), [moderator.id]);
    assert.deepEqual(
      new Set(await search({ query: `  ${token}  ` })),
      new Set([moderator.id, wildcard.id, lookalike.id]),
    );
  });

  test('when the query holds % or _, then they match only themselves', async () => {
    assert.deepEqual(await search({ query: `100%_off ${token}` }), [wildcard.id]);
    assert.deepEqual(
      await search({ query: '%_off' }).then((ids) => ids.includes(lookalike.id)),
      false,
    );
  });

  test('when an action is given, then only entries of that action match', async () => {
    assert.deepEqual(await search({ query: token, action: 'brand.flags' }), [wildcard.id]);
    assert.deepEqual(await search({ query: token, action: 'brand.suspend' }), [lookalike.id]);
    assert.deepEqual(await search({ query: token, action: 'creator.flags' }), []);
  });
});

describe('bad input', () => {
  const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

  test.each([
    ['a query over 100 characters', `query=${'x'.repeat(101)}`],
    ['an unknown action', 'action=creator.delete'],
    ['a repeated parameter', 'action=brand.verify&action=brand.suspend'],
    ['an unknown parameter', 'limit=500'],
    ['a cursor of characters base64url lacks', 'before=not%20a%20cursor'],
    ['a cursor that is no JSON', `before=${Buffer.from('{oops').toString('base64url')}`],
    ['a cursor of another shape', `before=${cursorOf({ at: 1, id: 2 })}`],
    ['a cursor with no date', `before=${cursorOf(['yesterday', randomUUID()])}`],
    ['a cursor with no uuid', `before=${cursorOf([new Date().toISOString(), 'x'])}`],
    ['an empty cursor', 'before='],
  ])('when the request has %s, then it answers 400 invalid-argument', async (_, query) => {
    const answer = await readAuditLog(harness, query);

    assert.equal(answer.status, 400);
    assert.equal(answer.body.error?.code, 'invalid-argument');
  });
});

describe('access', () => {
  test('when no service token comes, then it answers 401', async () => {
    const answer = await readAuditLog(harness, '', null);

    assert.equal(answer.status, 401);
    assert.equal(answer.body.error?.code, 'unauthenticated');
  });

  test("when another service than the BFF calls, then its token is refused (401): no other client's tokens name moderation", async () => {
    for (const caller of ['identity', 'brand', 'notifications'] as const) {
      const answer = await readAuditLog(harness, '', caller);

      assert.equal(answer.status, 401, caller);
      assert.equal(answer.body.error?.code, 'unauthenticated', caller);
    }
  });

  test('when the BFF calls with its token, then it may read the log', async () => {
    const answer = await readAuditLog(harness, '');

    assert.equal(answer.status, 200);
    assert.ok(Array.isArray(answer.body.data?.entries));
  });

  test.each(['PUT', 'PATCH', 'DELETE', 'POST'])(
    'when the BFF sends %s to the audit log, then no route answers it (404)',
    async (method) => {
      const entry = anAuditEntry();
      await publish(harness, recorded('identity', entry));

      for (const path of ['/audit-entries', `/audit-entries/${entry.id}`]) {
        const answer = await callApi(harness.service.url, method, path, {
          serviceToken: serviceTokenOf(harness.stack, 'bff'),
          body: { reason: 'rewritten' },
        });
        assert.equal(answer.status, 404, `${method} ${path}`);
      }
      const kept = await readAuditLog(harness, { query: entry.target.id });
      assert.deepEqual(kept.body.data?.entries, [entry]);
    },
  );
});
