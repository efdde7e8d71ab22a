/**
 * Signed-in users for the shell's browser tests and the screenshot script:
 * a creator registered through the BFF, optionally taken through every
 * onboarding step (docs/api.md POST /api/me/onboarding, PUT /api/me/interests),
 * and a browser page signed in as them by handing the BFF's token set to
 * the app's session storage (docs/adr/0002: a stored token set is resumed
 * at page load), which skips the login form and its rate limit.
 */
import type { Page } from 'playwright-core';
import { creatorRegistration, dataOf, type CreatorRegistration } from '@raly/test-support';
import { registerCreator } from './bff-client.ts';

/** The BFF's JSON API under test: `data` of a 2xx answer, else an error naming the call. */
const callBff = <T>(bffUrl: string, method: string, path: string, body: unknown, token?: string) =>
  dataOf<T>(bffUrl, method, `/api${path}`, { body, token });

/** localStorage key of the app's session (web/src/lib/token-set.ts SESSION_STORAGE_KEY). */
const SESSION_STORAGE_KEY = 'raly.session';

export interface SignedInCreator extends CreatorRegistration {
  /** The token set of POST /api/auth/login, as the app stores it. */
  tokenSet: {
    accessToken: string;
    refreshToken: string;
    idToken: string;
    expiresIn: number;
    refreshExpiresIn: number;
  };
}

/**
 * Registers a new creator and signs them in through the BFF.
 * @param onboarded when true, every creator onboarding step is completed (terms, interests, connects, wallet)
 */
export async function aSignedInCreator(
  bffUrl: string,
  { onboarded }: { onboarded: boolean },
): Promise<SignedInCreator> {
  const creator = creatorRegistration();
  await registerCreator(bffUrl, creator);
  const tokenSet = await callBff<SignedInCreator['tokenSet']>(bffUrl, 'POST', '/auth/login', {
    email: creator.email,
    password: creator.password,
  });
  if (onboarded) {
    for (const step of ['terms', 'connects', 'wallet']) {
      await callBff(bffUrl, 'POST', '/me/onboarding', { step }, tokenSet.accessToken);
    }
    await callBff(
      bffUrl,
      'PUT',
      '/me/interests',
      { interests: ['AI', 'Gaming'] },
      tokenSet.accessToken,
    );
  }
  return { ...creator, tokenSet };
}

/** @returns the user's own record (GET /api/me), e.g. to compare the avatar with `profileImg` */
export async function ownRecordOf(
  bffUrl: string,
  user: SignedInCreator,
): Promise<{ profileImg: string; username: string | null }> {
  const response = await fetch(`${bffUrl}/api/me`, {
    headers: { Authorization: `Bearer ${user.tokenSet.accessToken}` },
  });
  if (!response.ok) throw new Error(`GET /api/me answered ${response.status}`);
  return (
    (await response.json()) as { data: { user: { profileImg: string; username: string | null } } }
  ).data.user;
}

/**
 * Signs `page` in as `user` and opens `path`: stores the token set for the
 * web app's origin, then loads the page (the app resumes the session) and
 * waits until the app has stored the refreshed token set. Use each
 * `user.tokenSet` once: refresh tokens rotate.
 */
export async function openSignedIn(
  page: Page,
  webUrl: string,
  user: Pick<SignedInCreator, 'tokenSet'>,
  path: string,
): Promise<void> {
  await page.goto(`${webUrl}/`);
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [
    SESSION_STORAGE_KEY,
    JSON.stringify(user.tokenSet),
  ] as const);
  await page.goto(`${webUrl}${path}`);
  // The app refreshes the token set once at start and stores the rotated one; leaving the page
  // before that would strand the next page load with a spent refresh token.
  await page.waitForFunction(
    ([key, stored]) => {
      const current = localStorage.getItem(key);
      return current !== null && current !== stored;
    },
    [SESSION_STORAGE_KEY, JSON.stringify(user.tokenSet)] as const,
  );
}

/** Waits until no page spinner ('Loading' status) shows, i.e. the page's code and data have arrived. */
export async function waitForSettledPage(page: Page): Promise<void> {
  await page.waitForFunction(
    () => !document.querySelector('[role="status"][aria-label="Loading"]'),
  );
}
