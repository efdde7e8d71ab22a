/**
 * One freshness path in a real browser (docs/adr/0007): a page load reads
 * GET /api/me once — the socket's first connect does not read it again —
 * and a socket reconnect, which may have missed pushes, reads it once more.
 * Also: a handshake the BFF refuses as retryable (`unavailable`, it could
 * not check the token during a fault) is tried again after a back-off.
 *
 * Needs the native stack (`npm run stack -- up`).
 */
import { describe, test } from 'vitest';
import assert from 'node:assert/strict';
import type { Page, WebSocketRoute } from 'playwright-core';
import { browserSuite } from './harness/suite.ts';
import { registerCreator } from './harness/bff-client.ts';
import { creatorRegistration } from '@raly/test-support';
import { countMeReads, logIn, openPage, waitUntilSignedIn } from './harness/pages.ts';

/** How long the page is watched for a further GET /api/me once it settled (ms). */
const SETTLE_MS = 2000;

const isLive = (address: URL) => address.pathname.startsWith('/live');

/**
 * Resolves once the live socket has upgraded to a WebSocket: socket.io
 * connects over HTTP long-polling first, so by then it has connected.
 */
const liveSocketUpgraded = (page: Page) =>
  page.waitForEvent('websocket', (socket) => isLive(new URL(socket.url())));

describe('reads of GET /api/me', () => {
  const suite = browserSuite();

  /** A signed-in creator's page, its live WebSockets passed through routes the test can close. */
  async function signedInCreator() {
    const creator = creatorRegistration();
    await registerCreator(suite.product.bffUrl, creator);
    const context = await suite.browser.newContext();
    const { page, problems } = await openPage(context);
    const liveRoutes: WebSocketRoute[] = [];
    await page.routeWebSocket(isLive, (route) => {
      route.connectToServer();
      liveRoutes.push(route);
    });
    await logIn(page, suite.product.webUrl, creator.email, creator.password);
    await waitUntilSignedIn(page);
    return { context, page, problems, liveRoutes };
  }

  /** Loads `/settings/account` afresh and waits until the form shows and the socket has joined. */
  async function loadAccountPage(page: Page): Promise<{ count: number }> {
    const joined = liveSocketUpgraded(page);
    const reads = countMeReads(page);
    await page.goto(suite.url('/settings/account'));
    await page.getByLabel('Email', { exact: true }).waitFor();
    await joined;
    await page.waitForTimeout(SETTLE_MS);
    return reads;
  }

  test('when a signed-in page loads, then GET /api/me is read once, also after the live socket connects', async () => {
    // Arrange
    const { context, page, problems } = await signedInCreator();

    // Act
    const reads = await loadAccountPage(page);

    // Assert
    assert.equal(reads.count, 1);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when the live socket reconnects, then GET /api/me is read once more', async () => {
    // Arrange
    const { context, page, problems, liveRoutes } = await signedInCreator();
    const reads = await loadAccountPage(page);
    assert.equal(reads.count, 1);

    // Act: the connection drops; socket.io reconnects on its own
    const rejoined = liveSocketUpgraded(page);
    await liveRoutes.at(-1)?.close({ code: 1001 });
    await rejoined;
    await page.waitForTimeout(SETTLE_MS);

    // Assert
    assert.equal(reads.count, 2);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when the BFF ends the live socket (as it does when its token expired), then the tab connects again and reads GET /api/me once more', async () => {
    // Arrange
    const { context, page, problems, liveRoutes } = await signedInCreator();
    const reads = await loadAccountPage(page);
    assert.equal(reads.count, 1);

    // Act: the server side of socket.io says DISCONNECT (engine.io message "4", socket.io "1"),
    // after which socket.io-client does not reconnect by itself.
    const rejoined = liveSocketUpgraded(page);
    liveRoutes.at(-1)?.send('41');
    await rejoined;
    // The read follows the reconnect; on a busy machine it may take longer than the settling.
    for (let waited = 0; waited < 15_000 && reads.count < 2; waited += 100)
      await page.waitForTimeout(100);
    await page.waitForTimeout(SETTLE_MS);

    // Assert
    assert.equal(reads.count, 2);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when the BFF refuses the live handshake as unavailable (retryable), then the tab tries again after a back-off and connects', async () => {
    // Arrange: the next handshake answer of socket.io (`40{"sid"…}`, over long-polling or the
    // WebSocket) is replaced by the refusal the BFF sends when it could not check the token.
    const creator = creatorRegistration();
    await registerCreator(suite.product.bffUrl, creator);
    const context = await suite.browser.newContext();
    const { page, problems } = await openPage(context);
    const seen = { refusedAt: [] as number[], connectedAt: [] as number[], toRefuse: 1 };
    const refusal = `44${JSON.stringify({ message: 'unavailable', data: { retryable: true } })}`;
    const rewrite = (packet: string) => {
      if (!packet.startsWith('40{"sid"')) return packet;
      if (seen.toRefuse > 0) {
        seen.toRefuse -= 1;
        seen.refusedAt.push(Date.now());
        return refusal;
      }
      seen.connectedAt.push(Date.now());
      return packet;
    };
    await page.route(
      (address) => isLive(address) && address.searchParams.get('transport') === 'polling',
      async (route) => {
        if (route.request().method() !== 'GET') return route.continue();
        try {
          const response = await route.fetch();
          const body = (await response.text()).split('\x1e').map(rewrite).join('\x1e');
          await route.fulfill({ response, body });
        } catch (error) {
          // Only the end of the test (the page closing under an open long poll) may cut it off.
          if (!page.isClosed() && !/disposed|closed/i.test(String(error))) throw error;
        }
      },
    );
    await page.routeWebSocket(isLive, (route) => {
      const server = route.connectToServer();
      server.onMessage((message) => route.send(rewrite(String(message))));
    });

    // Act
    await logIn(page, suite.product.webUrl, creator.email, creator.password);
    await waitUntilSignedIn(page);
    for (let waited = 0; waited < 15_000 && seen.connectedAt.length === 0; waited += 100)
      await page.waitForTimeout(100);

    // Assert: refused once, then connected after the first back-off (0.5–1 s, docs/api.md).
    assert.equal(seen.refusedAt.length, 1);
    assert.equal(seen.connectedAt.length, 1, 'the tab connected after the refusal');
    const waitedMs = seen.connectedAt[0]! - seen.refusedAt[0]!;
    assert.ok(waitedMs >= 500, `tried again after ${waitedMs} ms`);
    assert.deepEqual(problems, []);
    // A long poll still open in the route handler would reject once the context is gone.
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await context.close();
  });
});
