/**
 * Live updates in the browser tests: which socket.io packets a page
 * receives, and a signed-in tab whose live socket has joined its rooms
 * (a push sent before that would be missed by design: the app reads again
 * only after a reconnect).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { openPage, STEP_TIMEOUT_MS } from './pages.ts';
import { openSignedIn, waitForSettledPage, type SignedInCreator } from './shell-users.ts';

/**
 * Records the socket.io packets `page` receives from now on, over polling
 * (the transport socket.io starts on) and WebSocket frames, and tells when
 * the live socket has joined its rooms: the BFF sends the user's record as
 * it joins them (docs/api.md socket.io).
 */
export function watchLive(page: Page): { packets: string[]; joined: Promise<void> } {
  const packets: string[] = [];
  let resolveJoined: () => void = () => {};
  const joined = new Promise<void>((resolve) => {
    resolveJoined = resolve;
  });
  const received = (text: string) => {
    // A polling answer may carry several packets, separated by the record separator.
    for (const packet of text.split('\x1e')) {
      packets.push(packet);
      if (packet.startsWith('42["user.updated"')) resolveJoined();
    }
  };
  page.on('websocket', (socket) => {
    socket.on('framereceived', ({ payload }) =>
      received(typeof payload === 'string' ? payload : payload.toString('utf8')),
    );
  });
  page.on('response', (response) => {
    const address = new URL(response.url());
    if (address.pathname.startsWith('/live/') && response.request().method() === 'GET')
      void response.text().then(received, () => {});
  });
  return { packets, joined };
}

/** Resolves with `promise`, or fails naming `what` after `ms`. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A tab opened by `open`, its page settled and its live socket joined. */
async function settledLiveTab(
  context: BrowserContext,
  open: (page: Page) => Promise<unknown>,
): Promise<{ page: Page; problems: string[]; packets: string[] }> {
  const { page, problems } = await openPage(context);
  const live = watchLive(page);
  await open(page);
  await waitForSettledPage(page);
  await within(live.joined, STEP_TIMEOUT_MS, 'the live socket joining its rooms');
  return { page, problems, packets: live.packets };
}

/**
 * A new tab of `context` signed in as `user` (a creator or a brand user with
 * a token set not used yet) on `path`, its page settled and its live socket joined.
 */
export const liveTab = (
  context: BrowserContext,
  webUrl: string,
  user: Pick<SignedInCreator, 'tokenSet'>,
  path: string,
) => settledLiveTab(context, (page) => openSignedIn(page, webUrl, user, path));

/**
 * Another tab of a context whose session a first tab holds (it resumes the
 * stored session, as a second browser tab does) on `url`, settled and joined.
 */
export const anotherLiveTab = (context: BrowserContext, url: string) =>
  settledLiveTab(context, (page) => page.goto(url));
