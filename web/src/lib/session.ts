/**
 * The browser session (docs/adr/0002-browser-session.md, docs/adr/0009):
 * holds the signed-in user's token set, outside React; renews it through
 * the BFF (POST /api/auth/refresh: only the BFF's confidential sign-in client
 * can refresh it) 30 s before the access token expires; keeps it in
 * localStorage so reloads and new tabs stay signed in; follows sign-in,
 * refresh and sign-out of other tabs through the `storage` event.
 */
import type { TokenSet } from '@raly/contracts/bff-api';
import { env } from '@/config/env';
import {
  SESSION_STORAGE_KEY,
  asTokenSet,
  decodeJwtPayload,
  readUsableTokenSet,
  tokenExpirySeconds,
} from '@/lib/token-set';

export type SessionState = { status: 'signed-out' } | { status: 'signed-in'; userId: string };

/** Seconds of validity an access token must still have before a call; below that we refresh first. */
const MIN_TOKEN_VALIDITY_SECONDS = 30;
/**
 * The timed refresh runs MIN_TOKEN_VALIDITY_SECONDS plus up to this many
 * seconds (random) before expiry, so tabs holding the same token set rarely
 * refresh at the same moment (the first one's rotated set reaches the others
 * through the `storage` event and replaces their timers).
 */
const REFRESH_JITTER_SECONDS = 10;
/**
 * How long a tab whose refresh was refused waits for another tab's rotated
 * token set to appear in storage before it concludes the session is over (ms).
 */
const ROTATION_GRACE_MS = 2000;
const ROTATION_POLL_MS = 100;
/**
 * The Web Lock (same origin, every tab) a refresh runs under: Keycloak, behind
 * the BFF's POST /api/auth/refresh, takes a second use of a refresh token as
 * theft and ends the session (`refreshTokenMaxReuse: 0`), so two tabs must
 * never refresh with the same one.
 */
const REFRESH_LOCK = 'raly.session.refresh';

const signedOut: SessionState = { status: 'signed-out' };

/** The token set of this tab's session and what is derived from it. */
interface HeldSession {
  tokens: TokenSet;
  userId: string;
  /** This browser's clock minus the server's (s): now minus the access token's `iat` when the BFF answered the set. */
  skewSeconds: number;
  /** The timed refresh before the access token expires. */
  timer: ReturnType<typeof setTimeout> | undefined;
}

let held: HeldSession | null = null;
/** The refresh in flight in this tab: concurrent callers share it. */
let refreshing: Promise<string | undefined> | null = null;
let state: SessionState = signedOut;
const stateListeners = new Set<() => void>();
const tokenListeners = new Set<(accessToken: string | null) => void>();

const nowSeconds = () => Math.floor(Date.now() / 1000);

function setState(next: SessionState): void {
  const same =
    next.status === state.status &&
    (next.status === 'signed-out' ||
      (state.status === 'signed-in' && state.userId === next.userId));
  if (same) return;
  state = next;
  for (const listener of stateListeners) listener();
}

function announceToken(accessToken: string | null): void {
  for (const listener of tokenListeners) listener(accessToken);
}

/** The current session; a new object only when it changed (useSyncExternalStore snapshot). */
export function getSessionSnapshot(): SessionState {
  return state;
}

/**
 * @param listener called after every change of {@link getSessionSnapshot}
 * @returns unsubscribe
 */
export function subscribeSession(listener: () => void): () => void {
  stateListeners.add(listener);
  return () => stateListeners.delete(listener);
}

/**
 * @param listener called with the new access token after sign-in and every
 *   refresh (here or in another tab), and with null after sign-out
 * @returns unsubscribe
 */
export function onAccessTokenChanged(listener: (accessToken: string | null) => void): () => void {
  tokenListeners.add(listener);
  return () => tokenListeners.delete(listener);
}

/** Seconds the held access token is still valid, corrected by the clock skew. */
function secondsLeft(session: HeldSession): number {
  const exp = tokenExpirySeconds(session.tokens.accessToken);
  return exp === null ? 0 : exp - nowSeconds() + session.skewSeconds;
}

function isExpired(session: HeldSession): boolean {
  return secondsLeft(session) <= 0;
}

/**
 * Makes `tokens` this tab's session and schedules the next refresh.
 * @param from `bff`: just answered by the BFF (sign-in, refresh): stored for
 *   reloads and other tabs, and the clock skew measured from its `iat`;
 *   `storage`: another tab's or an earlier page's set, taken as is (skew 0)
 */
function install(tokens: TokenSet, from: 'bff' | 'storage'): HeldSession {
  if (held?.timer !== undefined) clearTimeout(held.timer);
  const claims = decodeJwtPayload(tokens.accessToken);
  const issuedAt = typeof claims?.iat === 'number' ? claims.iat : nowSeconds();
  const session: HeldSession = {
    tokens,
    userId: typeof claims?.sub === 'string' ? claims.sub : '',
    skewSeconds: from === 'bff' ? nowSeconds() - issuedAt : 0,
    timer: undefined,
  };
  const dueSeconds =
    secondsLeft(session) - MIN_TOKEN_VALIDITY_SECONDS - Math.random() * REFRESH_JITTER_SECONDS;
  // Keep the token fresh while the tab is open, so the live socket's handshake token stays valid.
  session.timer = setTimeout(
    () => {
      if (held === session) void refreshNow(session);
    },
    Math.max(0, dueSeconds * 1000),
  );
  held = session;
  if (from === 'bff') localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(tokens));
  setState({ status: 'signed-in', userId: session.userId });
  announceToken(tokens.accessToken);
  return session;
}

/**
 * POST /api/auth/refresh with the refresh token (spent by the call).
 * @returns the new token set; `refused` when the BFF says the session is over (400, 401);
 *   `unavailable` when it could not say (network, 429, 5xx)
 */
async function requestRefresh(refreshToken: string): Promise<TokenSet | 'refused' | 'unavailable'> {
  try {
    const answer = await fetch(`${env.apiBaseUrl}/auth/refresh`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ refreshToken }),
    });
    if (answer.status === 400 || answer.status === 401) return 'refused';
    if (!answer.ok) return 'unavailable';
    const body = (await answer.json()) as { data?: unknown };
    return asTokenSet(body.data) ?? 'unavailable';
  } catch {
    return 'unavailable';
  }
}

/**
 * Runs `work` while holding the origin's refresh lock (Web Locks API), so
 * refreshes of all tabs run one after the other; without the API (old
 * browsers, jsdom) it just runs it.
 */
async function underRefreshLock<T>(work: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  return locks ? locks.request(REFRESH_LOCK, work) : work();
}

/**
 * With refresh-token rotation, two tabs refreshing at once spend the same
 * refresh token: one wins, and the loser finds the winner's token set in
 * storage shortly after.
 * @returns a stored token set with a refresh token other than `spent`, or null after ROTATION_GRACE_MS
 */
async function waitForRotatedTokens(spent: string | undefined): Promise<TokenSet | null> {
  const deadline = Date.now() + ROTATION_GRACE_MS;
  for (;;) {
    const stored = readUsableTokenSet(localStorage.getItem(SESSION_STORAGE_KEY), nowSeconds());
    if (stored && stored.refreshToken !== spent) return stored;
    if (!stored || Date.now() >= deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, ROTATION_POLL_MS));
  }
}

/** Ends the session in this tab only (no call to the BFF, storage untouched). */
function closeSession(): void {
  if (held?.timer !== undefined) clearTimeout(held.timer);
  held = null;
  setState(signedOut);
  announceToken(null);
}

/**
 * Refreshes the held session once (concurrent callers share the call), under
 * the origin's refresh lock: when another tab has stored a newer set, takes
 * it without a call. When the BFF refuses because another tab rotated the
 * refresh token first, takes that tab's tokens; when the session is over,
 * signs out in this tab.
 * @returns the access token to use, or undefined when signed out
 */
function refreshNow(session: HeldSession): Promise<string | undefined> {
  refreshing ??= (async () => {
    const tried = session.tokens.refreshToken;
    const result = await underRefreshLock(async () => {
      // Another tab may have refreshed while we waited for the lock: take its set instead.
      const stored = readUsableTokenSet(localStorage.getItem(SESSION_STORAGE_KEY), nowSeconds());
      if (stored && stored.refreshToken !== tried) return { adopted: stored };
      return requestRefresh(tried);
    });
    // Another tab's set was adopted, or the user signed out, while we asked.
    if (held !== session) return held?.tokens.accessToken;
    if (typeof result === 'object' && 'adopted' in result)
      return install(result.adopted, 'storage').tokens.accessToken;
    if (typeof result === 'object') return install(result, 'bff').tokens.accessToken;
    if (result === 'refused') {
      const rotated = await waitForRotatedTokens(tried);
      if (held !== session) return held?.tokens.accessToken;
      if (rotated) return install(rotated, 'storage').tokens.accessToken;
    } else if (!isExpired(session)) {
      // The BFF could not be asked: the access token still works until it expires.
      console.warn('[session] could not refresh the token set; using it until it expires');
      return session.tokens.accessToken;
    }
    localStorage.removeItem(SESSION_STORAGE_KEY);
    closeSession();
    return undefined;
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

function onStorage(event: StorageEvent): void {
  if (event.storageArea !== localStorage) return;
  if (event.key !== SESSION_STORAGE_KEY && event.key !== null) return;
  const tokens = readUsableTokenSet(event.newValue, nowSeconds());
  if (!tokens) {
    closeSession();
    return;
  }
  // Another tab signed in or refreshed: take its set as is (refreshing here would only spend it).
  if (held?.tokens.refreshToken !== tokens.refreshToken) install(tokens, 'storage');
}

/**
 * Starts the session at page load: resumes the token set stored by an
 * earlier page or another tab when its refresh token is still valid,
 * refreshing it once through the BFF (which also proves the session is still
 * alive), and starts following other tabs. Call once, before rendering.
 */
export async function startSession(): Promise<void> {
  window.addEventListener('storage', onStorage);
  const raw = localStorage.getItem(SESSION_STORAGE_KEY);
  const tokens = readUsableTokenSet(raw, nowSeconds());
  if (!tokens) {
    if (raw !== null) localStorage.removeItem(SESSION_STORAGE_KEY);
    return;
  }
  await refreshNow(install(tokens, 'storage'));
}

/**
 * Signs in with the token set the BFF answered on login or registration.
 */
export function signIn(tokens: TokenSet): Promise<void> {
  install(tokens, 'bff');
  return Promise.resolve();
}

/**
 * A valid access token for the next call: refreshed through the BFF first
 * when it has less than 30 s left.
 * @returns the bearer token, or undefined when signed out
 */
export async function getAccessToken(): Promise<string | undefined> {
  const session = held;
  if (!session) return undefined;
  if (secondsLeft(session) >= MIN_TOKEN_VALIDITY_SECONDS) return session.tokens.accessToken;
  return refreshNow(session);
}

/**
 * Checks the session again after the BFF refused `refusedToken` before it expired (the live
 * socket's handshake answered `unauthenticated`): a staff suspension or a password reset ended
 * the session early (docs/api.md "Ending sessions"). Refreshes once through the BFF: when the
 * session is over the refresh is refused and this tab signs out; otherwise the new token set
 * replaces it. Does nothing when the tab holds another token by now.
 */
export async function recheckSession(refusedToken: string): Promise<void> {
  const session = held;
  if (session?.tokens.accessToken !== refusedToken) return;
  await refreshNow(session);
}

/**
 * Signs out: ends the Keycloak session through the BFF
 * (POST /api/auth/logout), then forgets the tokens in every tab of this
 * origin. Never throws: a failed logout call still signs out locally.
 */
export async function signOut(): Promise<void> {
  if (held) {
    try {
      const accessToken = await getAccessToken();
      await fetch(`${env.apiBaseUrl}/auth/logout`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(accessToken ? { Authorization: `Bearer ${accessToken}` } : {}),
        },
        body: JSON.stringify({ refreshToken: held?.tokens.refreshToken }),
      });
    } catch (error) {
      console.warn('[session] logout call failed; signing out locally', error);
    }
  }
  localStorage.removeItem(SESSION_STORAGE_KEY);
  closeSession();
}
