/**
 * The staff console's live namespace (docs/api.md "socket.io", docs/console.md "Reports in the
 * browser"), against the real Keycloak, identity-profile, moderation and Kafka: `/console` admits
 * only console access tokens with the realm role raly-moderator (the console routes' guard),
 * refusing others with the product's refusal shape; a report opened or resolved in
 * services/moderation reaches a connected moderator's socket from `moderation.report.v1`, as the
 * console reads it, and no product socket; a console socket ends when its token expires.
 */
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test, vi } from 'vitest';
import { CONSOLE_LIVE_NAMESPACE } from '@raly/contracts/console-live';
import { liveHandshakeRefusals, type LiveHandshakeRefusalData } from '@raly/contracts/live';
import type { ReportRecord, ReporterReport } from '@raly/contracts/reports';
import type { RunningBff } from '../src/app';
import {
  connectConsoleLive,
  connectLive,
  disconnectedWithin,
  type ConsoleRecordingSocket,
} from './support/sockets';
import {
  consoleSignIn,
  createStaffUser,
  deleteStaffUser,
  ensureStaffRealm,
  eventually,
  identityServiceToken,
  type StaffUser,
} from '@raly/test-support';
import { callBff, startTestBff } from '@raly/test-support/bff';
import { registeredCreator, startSystem, type RalySystem } from '@raly/test-support/system';

/** The `connect_error` of a refused console handshake. */
async function refusalOf(bff: RunningBff, token: string | undefined) {
  const error = await connectConsoleLive(bff, token).then(
    (recording) => {
      recording.socket.close();
      assert.fail(`the ${CONSOLE_LIVE_NAMESPACE} handshake was admitted`);
    },
    (refused: Error & { data?: LiveHandshakeRefusalData }) => refused,
  );
  return { message: error.message, data: error.data };
}

const unauthenticated = {
  message: liveHandshakeRefusals.unauthenticated,
  data: { retryable: false },
};

describe("the console's live namespace", () => {
  let system: RalySystem;
  let bff: RunningBff;
  const staff: StaffUser[] = [];
  const tokens = { moderator: '', admin: '', nonStaff: '' };
  const sockets: ConsoleRecordingSocket[] = [];

  beforeAll(async () => {
    system = await startSystem({ moderation: true });
    await ensureStaffRealm(system.stack);
    bff = await startTestBff(system.stack, {
      IDENTITY_URL: system.identityUrl,
      BRAND_URL: system.brandUrl,
      MODERATION_URL: system.moderationUrl,
    });
    for (const [name, role] of [
      ['moderator', 'raly-moderator'],
      ['admin', 'raly-admin'],
      ['nonStaff', undefined],
    ] as const) {
      const user = await createStaffUser(system.stack, role);
      staff.push(user);
      tokens[name] = (await consoleSignIn(system.stack, user)).access_token;
    }
  });

  afterAll(async () => {
    vi.useRealTimers();
    for (const { socket } of sockets) socket.close();
    await bff?.stop();
    await system?.stop();
    for (const user of staff) await deleteStaffUser(system.stack, user);
  });

  /** A connected console socket, closed after the file. */
  const connected = async (token: string) => {
    const recording = await connectConsoleLive(bff, token);
    sockets.push(recording);
    return recording;
  };

  test('when the handshake has no token or a forged one, then it is refused as unauthenticated, not retryable', async () => {
    assert.deepEqual(await refusalOf(bff, undefined), unauthenticated);
    assert.deepEqual(
      await refusalOf(bff, `${tokens.moderator.slice(0, -8)}AAAAAAAA`),
      unauthenticated,
    );
  });

  test("when a creator's product token, another client's token or a console account without a staff role is sent, then the handshake is refused as unauthenticated", async () => {
    // Arrange
    const creator = await registeredCreator(system);
    const serviceToken = await identityServiceToken(system.stack);

    // Act
    const refusals = [
      await refusalOf(bff, creator.accessToken),
      await refusalOf(bff, serviceToken),
      await refusalOf(bff, tokens.nonStaff),
    ];

    // Assert
    assert.deepEqual(refusals, [unauthenticated, unauthenticated, unauthenticated]);
  });

  test("when a moderator's or an administrator's console token is sent, then the socket connects", async () => {
    const moderator = await connected(tokens.moderator);
    const admin = await connected(tokens.admin);

    assert.ok(moderator.socket.connected);
    assert.ok(admin.socket.connected);
  });

  test("when a creator reports a profile and a moderator resolves it, then the moderator's socket receives the report opened and resolved, as the console reads it, and the creators' product sockets receive no report", async () => {
    // Arrange
    const moderator = await connected(tokens.moderator);
    const [reporter, accused] = await Promise.all([
      registeredCreator(system),
      registeredCreator(system),
    ]);
    const product = await connectLive(bff, reporter.accessToken);

    // Act: open
    // The accused's profile is read from the read model: reported once it is projected.
    const opened = await eventually('the report opened', async () => {
      const answer = await callBff<ReporterReport>(bff, 'POST', '/api/reports', {
        token: reporter.accessToken,
        body: { item: { kind: 'creator', id: accused.userId }, reason: 'spam', note: 'Posts ads' },
      });
      return answer.status === 201 ? answer : undefined;
    });
    const reportId = opened.body.data.id;

    // Assert: the open report arrives as GET /api/console/reports/:id answers it
    const pushedOpen = await eventually('the opened report on the console socket', () =>
      moderator.reports.find((report) => report.id === reportId),
    );
    const read = await callBff<ReportRecord>(bff, 'GET', `/api/console/reports/${reportId}`, {
      token: tokens.moderator,
    });
    assert.deepEqual(pushedOpen, read.body.data);
    assert.equal(pushedOpen.status, 'open');
    assert.deepEqual(pushedOpen.accused, { kind: 'creator', id: accused.userId });

    // Act: resolve
    const resolved = await callBff<ReportRecord>(
      bff,
      'PUT',
      `/api/console/reports/${reportId}/resolution`,
      { token: tokens.moderator, body: { outcome: 'warning', note: 'Warned about ads' } },
    );
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));

    // Assert: the resolved version follows, once
    const pushedResolved = await eventually('the resolved report on the console socket', () =>
      moderator.reports.find((report) => report.id === reportId && report.status === 'resolved'),
    );
    assert.deepEqual(pushedResolved, resolved.body.data);
    assert.equal(
      moderator.reports.filter((report) => report.id === reportId).length,
      2,
      'each version pushed once',
    );
    assert.equal(
      product.received.filter(([event]) => event.startsWith('report')).length,
      0,
      'no report on a product socket',
    );
    product.socket.close();
  });

  test("when a console socket's access token expires, then the BFF ends the socket", async () => {
    // Arrange
    const moderator = await connected(tokens.moderator);

    // Act: ten minutes on (console tokens live 300 s); the sweep runs every second
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 10 * 60_000 });
    try {
      // Assert
      assert.equal(await disconnectedWithin(moderator.socket, 5000), 'io server disconnect');
    } finally {
      vi.useRealTimers();
    }
  });
});
