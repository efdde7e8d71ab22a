/**
 * The browser session (docs/adr/0002-browser-session.md). Owns the one
 * keycloak-js instance of the signed-in user, created and initialised here,
 * outside React, with the token set the BFF answered; keeps that token set in
 * localStorage so reloads and new tabs stay signed in; follows sign-in,
 * refresh and sign-out of other tabs through the `storage` event.
 */
import type Keycloak from 'keycloak-js';
import type { TokenSet } from '@raly/contracts/bff-api';
import { env } from '@/config/env';
import {
  SESSION_STORAGE_KEY,
  decodeJwtPayload,
  readUsableTokenSet,
  tokenExpirySeconds,
} from '@/lib/token-set';

export type SessionState = { status: 'signed-out' } | { status: 'signed-in'; userId: string };

/** Seconds of validity an access token must still have before a call; below that we refresh first. */
const MIN_TOKEN_VALIDITY_SECONDS = 30;
/**
 * How long a tab whose refresh failed waits for another tab's rotated token
 * set to appear in storage before it concludes the session is over (ms).
 */
const ROTATION_GRACE_MS = 2000;
const ROTATION_POLL_MS = 100;

const signedOut: SessionState = { status: 'signed-out' };

let keycloak: Keycloak | null = null;
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

function currentTokenSet(kc: Keycloak): TokenSet | null {
  if (!kc.token || !kc.refreshToken || !kc.idToken) return null;
  const now = nowSeconds();
  return {
    accessToken: kc.token,
    refreshToken: kc.refreshToken,
    idToken: kc.idToken,
    expiresIn: Math.max(0, (tokenExpirySeconds(kc.token) ?? now) - now),
    refreshExpiresIn: Math.max(0, (tokenExpirySeconds(kc.refreshToken) ?? now) - now),
  };
}

function persist(kc: Keycloak): void {
  const tokens = currentTokenSet(kc);
  if (tokens) localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(tokens));
}

/**
 * Hands tokens another tab obtained to our keycloak-js instance without a
 * refresh: with refresh-token rotation the refresh token we held is spent,
 * and refreshing here would only make the other tab's token stale in turn.
 */
function adoptTokens(kc: Keycloak, tokens: TokenSet): void {
  const claims = decodeJwtPayload(tokens.accessToken);
  kc.token = tokens.accessToken;
  kc.tokenParsed = claims ?? undefined;
  kc.refreshToken = tokens.refreshToken;
  kc.refreshTokenParsed = decodeJwtPayload(tokens.refreshToken) ?? undefined;
  kc.idToken = tokens.idToken;
  kc.idTokenParsed = decodeJwtPayload(tokens.idToken) ?? undefined;
  kc.subject = typeof claims?.sub === 'string' ? claims.sub : kc.subject;
  kc.authenticated = true;
  kc.timeSkew ??= 0;
  announceToken(tokens.accessToken);
}

/**
 * Creates a keycloak-js instance and initialises it with `tokens`
 * (keycloak-js then refreshes once, which also proves the session is alive).
 * @throws when Keycloak rejects the refresh token (session ended or expired)
 */
async function openSession(tokens: TokenSet): Promise<void> {
  // keycloak-js is loaded only when there is a session to open, so a signed-out first page stays small.
  const { default: KeycloakClient } = await import('keycloak-js');
  const kc = new KeycloakClient({
    url: env.keycloak.url,
    realm: env.keycloak.realm,
    clientId: env.keycloak.clientId,
  });
  kc.onAuthRefreshSuccess = () => {
    if (keycloak && keycloak !== kc) return;
    persist(kc);
    announceToken(kc.token ?? null);
  };
  kc.onTokenExpired = () => {
    // Keep the token fresh while the tab is open, so the live socket's handshake token stays valid.
    if (keycloak === kc) void getAccessToken();
  };
  try {
    await kc.init({
      token: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      idToken: tokens.idToken,
      checkLoginIframe: false,
      pkceMethod: 'S256',
    });
  } catch (error) {
    // Keycloak unreachable is not a sign-out: the access token still works until it expires.
    if (!kc.authenticated || isExpired(tokens.accessToken)) throw error;
    console.warn(
      '[session] could not refresh the token set at start; using it until it expires',
      error,
    );
    kc.timeSkew ??= 0;
  }
  if (keycloak && keycloak !== kc) keycloak.clearToken();
  keycloak = kc;
  persist(kc);
  setState({ status: 'signed-in', userId: kc.subject ?? '' });
  announceToken(kc.token ?? null);
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

function isExpired(jwt: string): boolean {
  const exp = tokenExpirySeconds(jwt);
  return exp !== null && exp <= nowSeconds();
}

/** Ends the session in this tab only (no call to the BFF, storage untouched). */
function closeSession(): void {
  const kc = keycloak;
  keycloak = null;
  kc?.clearToken();
  setState(signedOut);
  announceToken(null);
}

function onStorage(event: StorageEvent): void {
  if (event.storageArea !== localStorage) return;
  if (event.key !== SESSION_STORAGE_KEY && event.key !== null) return;
  const tokens = readUsableTokenSet(event.newValue, nowSeconds());
  if (!tokens) {
    closeSession();
    return;
  }
  const kc = keycloak;
  const sameUser = kc && decodeJwtPayload(tokens.accessToken)?.sub === kc.subject;
  if (kc && sameUser) {
    if (kc.refreshToken !== tokens.refreshToken) adoptTokens(kc, tokens);
    return;
  }
  void openSession(tokens).catch(() => closeSession());
}

/**
 * Starts the session at page load: resumes the token set stored by an
 * earlier page or another tab when its refresh token is still valid, and
 * starts following other tabs. Call once, before rendering.
 */
export async function startSession(): Promise<void> {
  window.addEventListener('storage', onStorage);
  const raw = localStorage.getItem(SESSION_STORAGE_KEY);
  const tokens = readUsableTokenSet(raw, nowSeconds());
  if (!tokens) {
    if (raw !== null) localStorage.removeItem(SESSION_STORAGE_KEY);
    return;
  }
  try {
    await openSession(tokens);
  } catch {
    const rotated = await waitForRotatedTokens(tokens.refreshToken);
    if (
      rotated &&
      (await openSession(rotated).then(
        () => true,
        () => false,
      ))
    )
      return;
    if (localStorage.getItem(SESSION_STORAGE_KEY) === raw)
      localStorage.removeItem(SESSION_STORAGE_KEY);
    closeSession();
  }
}

/**
 * Signs in with the token set the BFF answered on login or registration.
 * @throws when Keycloak rejects the token set
 */
export async function signIn(tokens: TokenSet): Promise<void> {
  await openSession(tokens);
}

/**
 * A valid access token for the next call: refreshed with Keycloak when it
 * has less than 30 s left. When the refresh fails because another tab
 * rotated the refresh token first, takes that tab's tokens; when the
 * session is gone, signs out in this tab.
 * @returns the bearer token, or undefined when signed out
 */
export async function getAccessToken(): Promise<string | undefined> {
  const kc = keycloak;
  if (!kc) return undefined;
  const triedRefreshToken = kc.refreshToken;
  try {
    await kc.updateToken(MIN_TOKEN_VALIDITY_SECONDS);
    return kc.token;
  } catch {
    if (keycloak !== kc) return keycloak?.token;
    const rotated = await waitForRotatedTokens(triedRefreshToken);
    if (keycloak !== kc) return keycloak?.token;
    if (rotated) {
      adoptTokens(kc, rotated);
      return kc.token;
    }
    // Keycloak unreachable (not a 400): the access token still works until it expires.
    if (kc.token && !isExpired(kc.token)) return kc.token;
    localStorage.removeItem(SESSION_STORAGE_KEY);
    closeSession();
    return undefined;
  }
}

/**
 * Signs out: ends the Keycloak session through the BFF
 * (POST /api/auth/logout), then forgets the tokens in every tab of this
 * origin. Never throws: a failed logout call still signs out locally.
 */
export async function signOut(): Promise<void> {
  const kc = keycloak;
  if (kc) {
    try {
      const accessToken = await getAccessToken();
      await fetch(`${env.apiBaseUrl}/auth/logout`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(accessToken ? { Authorization: `Bearer ${accessToken}` } : {}),
        },
        body: JSON.stringify({ refreshToken: kc.refreshToken }),
      });
    } catch (error) {
      console.warn('[session] logout call failed; signing out locally', error);
    }
  }
  localStorage.removeItem(SESSION_STORAGE_KEY);
  closeSession();
}
