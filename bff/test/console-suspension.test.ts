/**
 * Suspensions and flags through the console (docs/console.md, docs/api.md § Console), against the
 * real Keycloak, identity-profile, brand, collaborations and moderation services and two BFF
 * replicas sharing Redis: a moderator suspends, an administrator sets flags; a suspended person's
 * tokens are refused at once on every replica, their sockets close, their sign-in is refused and
 * their public page says they are unavailable until the suspension is lifted. Every decision is
 * an audit entry, on Kafka and in the audit log the console reads.
 */
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { TokenSet } from '@raly/contracts/bff-api';
import type { AuditPage } from '@raly/contracts/audit';
import { topics } from '@raly/contracts/events';
import type { PublicCreatorPage } from '@raly/contracts/collaboration-reviews';
import type { ConsoleCreator } from '@raly/contracts/internal';
import { messages } from '@raly/contracts/messages';
import type { BrandRecord, UserRecord } from '@raly/contracts/records';
import type { RunningBff } from '../src/app';
import { connectLive, disconnectedWithin, type RecordingSocket } from './support/sockets';
import {
  consoleSignIn,
  createStaffUser,
  deleteStaffUser,
  ensureStaffRealm,
  listenToTopic,
  settledAuditEntries,
  sleep,
  testKeycloak,
  type StaffUser,
  type TestKeycloak,
  type TopicListener,
} from '@raly/test-support';
import { callBff, registerCreator, startTestBff } from '@raly/test-support/bff';
import { type RalySystem, registeredBrand, startSystem } from '@raly/test-support/system';

/** How soon a suspended person's socket must be closed, in milliseconds. */
const DISCONNECT_BOUND_MS = 2000;

/** How soon a decision's audit entry must be readable in the console (outbox → Kafka → moderation), ms. */
const AUDIT_WINDOW_MS = 30_000;

/** Resolves with the disconnect reason, or rejects after `DISCONNECT_BOUND_MS`. */
const disconnected = (socket: Socket) => disconnectedWithin(socket, DISCONNECT_BOUND_MS);

describe('suspensions and flags in the console', () => {
  let system: RalySystem;
  let bff: RunningBff;
  let replica: RunningBff;
  let keycloak: TestKeycloak;
  const staff: StaffUser[] = [];
  const sockets: RecordingSocket[] = [];
  const tokens = { moderator: '', admin: '' };
  const audit = {} as { identity: TopicListener; brand: TopicListener };

  beforeAll(async () => {
    // collaborations: the creator's public page carries their track record; moderation keeps
    // the audit log the console reads.
    system = await startSystem({ collaborations: true, moderation: true });
    audit.identity = await listenToTopic(system.stack.kafkaBrokers, topics.identityAudit);
    audit.brand = await listenToTopic(system.stack.kafkaBrokers, topics.brandAudit);
    await ensureStaffRealm(system.stack);
    const services = {
      IDENTITY_URL: system.identityUrl,
      BRAND_URL: system.brandUrl,
      COLLABORATIONS_URL: system.collaborationsUrl,
      MODERATION_URL: system.moderationUrl,
    };
    bff = await startTestBff(system.stack, services);
    replica = await startTestBff(system.stack, services);
    keycloak = testKeycloak(system.stack);
    for (const role of ['raly-moderator', 'raly-admin'] as const) {
      const user = await createStaffUser(system.stack, role);
      staff.push(user);
      tokens[role === 'raly-admin' ? 'admin' : 'moderator'] = (
        await consoleSignIn(system.stack, user)
      ).access_token;
    }
  });

  afterAll(async () => {
    for (const { socket } of sockets) socket.close();
    await audit.identity?.stop();
    await audit.brand?.stop();
    await replica?.stop();
    await bff?.stop();
    await system?.stop();
    for (const user of staff) await deleteStaffUser(system.stack, user);
    await keycloak?.cleanUp();
  });

  /** The moderator as an audit entry names them. */
  const moderatorActor = () => {
    const moderator = staff.find((user) => user.role === 'raly-moderator')!;
    return { userId: moderator.id, email: moderator.email };
  };
  const put = <T>(path: string, body: unknown, token = tokens.moderator) =>
    callBff<T>(bff, 'PUT', `/api/console${path}`, { token, body });
  const signIn = (email: string, password: string) =>
    callBff<TokenSet>(bff, 'POST', '/api/auth/login', { body: { email, password } });
  const me = (token: string) => callBff(replica, 'GET', '/api/me', { token });
  const publicCreatorPage = (username: string) =>
    callBff<PublicCreatorPage>(bff, 'GET', `/api/public/users/${username}`);
  async function liveOnReplica(token: string): Promise<Socket> {
    const recording = await connectLive(replica, token);
    sockets.push(recording);
    return recording.socket;
  }

  test("when a moderator suspends a creator, then the creator's token is refused on the other replica, their socket there closes, their sign-in is refused and their public page says they are unavailable; after the lift they sign in again and the page is back", async () => {
    // Arrange
    const creator = await registerCreator(bff, keycloak);
    const userId = ((await me(creator.tokens.accessToken)).body.data as { user: UserRecord }).user
      .id;
    const socket = await liveOnReplica(creator.tokens.accessToken);
    const closed = disconnected(socket);

    // Act
    const suspended = await put<ConsoleCreator>(`/creators/${userId}/suspension`, {
      suspended: true,
      reason: 'Spam in applications',
    });

    // Assert
    assert.equal(suspended.status, 200, JSON.stringify(suspended.body));
    assert.equal(suspended.body.data.permissions.isSuspended, true);
    assert.equal(await closed, 'io server disconnect');
    assert.equal((await me(creator.tokens.accessToken)).status, 401);
    await assert.rejects(connectLive(replica, creator.tokens.accessToken), /unauthenticated/);
    const refused = await signIn(creator.email, creator.password);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.message, messages.accountSuspended);
    const page = await publicCreatorPage(creator.username);
    assert.equal(page.status, 404);
    assert.equal(page.body.error.message, messages.creatorUnavailable);
    assert.equal(page.body.data, undefined);

    const lifted = await put<ConsoleCreator>(`/creators/${userId}/suspension`, {
      suspended: false,
      reason: 'Appeal accepted',
    });
    assert.equal(lifted.body.data.permissions.isSuspended, false);
    await sleep(2100); // past the second the suspension marked (token `iat` is in whole seconds)
    const again = await signIn(creator.email, creator.password);
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal((await me(again.body.data.accessToken)).status, 200);
    const pageAgain = await publicCreatorPage(creator.username);
    assert.equal(pageAgain.status, 200, JSON.stringify(pageAgain.body));
    assert.equal(pageAgain.body.data.id, userId);
    const entries = await settledAuditEntries(audit.identity, userId, 2);
    assert.deepEqual(
      entries.map(({ entry }) => [entry.staff, entry.action, entry.reason]),
      [
        [moderatorActor(), 'creator.suspend', 'Spam in applications'],
        [moderatorActor(), 'creator.lift-suspension', 'Appeal accepted'],
      ],
    );
  });

  test("when a moderator suspends a brand, then its member's token and socket end, their sign-in is refused and the brand's public page says it is unavailable", async () => {
    // Arrange
    const brand = await registeredBrand(system);
    const socket = await liveOnReplica(brand.accessToken);
    const closed = disconnected(socket);

    // Act
    const suspended = await put<BrandRecord>(`/brands/${brand.brandId}/suspension`, {
      suspended: true,
      reason: 'Unpaid creators',
    });

    // Assert
    assert.equal(suspended.status, 200, JSON.stringify(suspended.body));
    assert.equal(suspended.body.data.permissions.isSuspended, true);
    assert.equal(await closed, 'io server disconnect');
    assert.equal((await me(brand.accessToken)).status, 401);
    const refused = await signIn(brand.registration.email, brand.registration.password);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.message, messages.accountSuspended);
    const page = await callBff(bff, 'GET', `/api/public/brands/${brand.registration.username}`);
    assert.equal(page.status, 404);
    assert.equal(page.body.error.message, messages.brandUnavailable);
    const entries = await settledAuditEntries(audit.brand, brand.brandId, 1);
    assert.deepEqual(
      entries.map(({ entry }) => [entry.staff, entry.action, entry.target, entry.reason]),
      [
        [
          moderatorActor(),
          'brand.suspend',
          { kind: 'brand', id: brand.brandId, label: brand.registration.company },
          'Unpaid creators',
        ],
      ],
    );
  });

  test('when a suspension has no reason, a too long one, or names no one, then 400 and 404', async () => {
    const brand = await registeredBrand(system);

    const noReason = await put(`/brands/${brand.brandId}/suspension`, { suspended: true });
    const longReason = await put(`/brands/${brand.brandId}/suspension`, {
      suspended: true,
      reason: 'x'.repeat(501),
    });
    const noBrand = await put('/brands/00000000-0000-4000-8000-000000000000/suspension', {
      suspended: true,
      reason: 'Spam',
    });
    const noCreator = await put('/creators/no-such-creator/suspension', {
      suspended: true,
      reason: 'Spam',
    });

    assert.equal(noReason.status, 400);
    assert.equal(noReason.body.error.code, 'invalid-argument');
    assert.equal(longReason.status, 400);
    assert.equal(longReason.body.error.fields?.reason, messages.suspensionReasonTooLong);
    assert.deepEqual([noBrand.status, noCreator.status], [404, 404]);
  });

  test("when flags are set, then an administrator's call changes them and is audited with the administrator, a moderator's gets 403 and a product token 401 (neither audited)", async () => {
    // Arrange
    const brand = await registeredBrand(system);
    const creator = await registerCreator(bff, keycloak);
    const creatorId = ((await me(creator.tokens.accessToken)).body.data as { user: UserRecord })
      .user.id;

    // Act
    const byModerator = await put(`/brands/${brand.brandId}/flags`, { isAgency: true });
    const byProduct = await put(
      `/creators/${creatorId}/flags`,
      { isBoosted: true },
      creator.tokens.accessToken,
    );
    const suspendByProduct = await put(
      `/creators/${creatorId}/suspension`,
      { suspended: true, reason: 'Myself' },
      creator.tokens.accessToken,
    );
    const brandFlags = await put<BrandRecord>(
      `/brands/${brand.brandId}/flags`,
      { isAgency: true },
      tokens.admin,
    );
    const creatorFlags = await put<ConsoleCreator>(
      `/creators/${creatorId}/flags`,
      { isBoosted: true, isAmbassador: true },
      tokens.admin,
    );
    const noFlag = await put(`/creators/${creatorId}/flags`, {}, tokens.admin);

    // Assert
    assert.equal(byModerator.status, 403);
    assert.equal(byModerator.body.error.code, 'permission-denied');
    assert.deepEqual([byProduct.status, suspendByProduct.status], [401, 401]);
    assert.equal(brandFlags.status, 200, JSON.stringify(brandFlags.body));
    assert.equal(brandFlags.body.data.permissions.isAgency, true);
    assert.equal(creatorFlags.status, 200, JSON.stringify(creatorFlags.body));
    assert.deepEqual(
      [
        creatorFlags.body.data.permissions.isBoosted,
        creatorFlags.body.data.permissions.isAmbassador,
      ],
      [true, true],
    );
    assert.equal(noFlag.status, 400);
    assert.equal(noFlag.body.error.message, messages.flagsRequired);
    const admin = staff.find((user) => user.role === 'raly-admin')!;
    const [brandEntries, creatorEntries] = await Promise.all([
      settledAuditEntries(audit.brand, brand.brandId, 1),
      settledAuditEntries(audit.identity, creatorId, 1),
    ]);
    assert.deepEqual(
      [...brandEntries, ...creatorEntries].map(({ entry }) => [
        entry.staff,
        entry.action,
        entry.reason,
        entry.details,
      ]),
      [
        [{ userId: admin.id, email: admin.email }, 'brand.flags', null, { isAgency: true }],
        [
          { userId: admin.id, email: admin.email },
          'creator.flags',
          null,
          { isBoosted: true, isAmbassador: true },
        ],
      ],
    );
  });

  test('when a moderator suspends a creator and lifts it, then the audit log read through the console shows both, newest first, with who, what, on whom and why, and filters by action', async () => {
    // Arrange
    const creator = await registerCreator(bff, keycloak);
    const userId = ((await me(creator.tokens.accessToken)).body.data as { user: UserRecord }).user
      .id;
    const readAudit = (query: Record<string, string>) =>
      callBff<AuditPage>(bff, 'GET', `/api/console/audit?${new URLSearchParams(query)}`, {
        token: tokens.moderator,
      });

    // Act
    await put(`/creators/${userId}/suspension`, { suspended: true, reason: 'Fake followers' });
    await put(`/creators/${userId}/suspension`, { suspended: false, reason: 'Appeal accepted' });

    // Assert: both reach moderation (through identity-profile's outbox and Kafka) and the console
    const deadline = Date.now() + AUDIT_WINDOW_MS;
    let page = await readAudit({ query: creator.username });
    while (page.status === 200 && page.body.data.entries.length < 2) {
      assert.ok(Date.now() < deadline, `the audit log shows ${JSON.stringify(page.body.data)}`);
      await sleep(250);
      page = await readAudit({ query: creator.username });
    }
    assert.equal(page.status, 200, JSON.stringify(page.body));
    assert.deepEqual(
      page.body.data.entries.map((entry) => [
        entry.staff,
        entry.action,
        entry.target,
        entry.reason,
      ]),
      [
        [
          moderatorActor(),
          'creator.lift-suspension',
          { kind: 'creator', id: userId, label: creator.username },
          'Appeal accepted',
        ],
        [
          moderatorActor(),
          'creator.suspend',
          { kind: 'creator', id: userId, label: creator.username },
          'Fake followers',
        ],
      ],
    );
    assert.equal(page.body.data.nextBefore, null);
    const suspensions = await readAudit({ query: userId, action: 'creator.suspend' });
    assert.deepEqual(
      suspensions.body.data.entries.map((entry) => entry.reason),
      ['Fake followers'],
    );
  });
});
