/**
 * The staff console's sign-in (docs/console.md), apart from the product's session
 * (lib/session): keycloak-js on the public client `raly-console` of /config.json's realm,
 * authorization code flow with PKCE (S256) on Keycloak's login page (password, then TOTP).
 * The access token is refreshed 30 s before it expires and before any call with less than
 * 30 s left; sign-out ends the Keycloak session and comes back to `/console/`. Nothing of it
 * is stored by the app (keycloak-js keeps the tokens in memory).
 */
import Keycloak from 'keycloak-js';

/** The realm roles that open the console; raly-admin includes raly-moderator. */
export const staffRoles = ['raly-moderator', 'raly-admin'] as const;
export type StaffRole = (typeof staffRoles)[number];

/** Where the console signs in: /config.json's `consoleKeycloakUrl`, `consoleRealm`, `consoleClientId`. */
export interface ConsoleSignInConfig {
  url: string;
  realm: string;
  clientId: string;
}

/** A signed-in staff member's session in this tab. */
export interface ConsoleSession {
  /** `email` (else `preferred_username`) of the account. */
  email: string;
  /** The staff roles of the access token; empty for an account that is not staff. */
  roles: StaffRole[];
  /**
   * @returns an access token of the console with at least 30 s left (refreshed when needed)
   * @throws Error when Keycloak refuses the refresh (the session ended); the console then
   *   sends the browser to Keycloak's login page
   */
  accessToken(): Promise<string>;
  /** Ends the Keycloak session and returns to `/console/` (a navigation; never resolves usefully). */
  signOut(): Promise<void>;
}

/** Seconds of validity a token must keep; refreshes start this long before expiry. */
const MIN_VALIDITY_S = 30;

/** Where Keycloak sends the browser back after sign-out (a post-logout URI of raly-console). */
const consoleHome = () => `${window.location.origin}/console/`;

let started: Promise<ConsoleSession> | undefined;

/**
 * Signs the staff member in, once per page load (keycloak-js may be initialised only once):
 * without a session Keycloak's login page opens (the returned promise then never settles);
 * back from it, the code is exchanged for tokens (PKCE).
 * @returns the session
 * @throws Error when Keycloak cannot be reached or refuses the answer of its login page
 */
export function startConsoleSession(config: ConsoleSignInConfig): Promise<ConsoleSession> {
  started ??= signIn(config);
  return started;
}

async function signIn(config: ConsoleSignInConfig): Promise<ConsoleSession> {
  const keycloak = new Keycloak(config);
  await keycloak.init({ onLoad: 'login-required', pkceMethod: 'S256', checkLoginIframe: false });

  let timer: ReturnType<typeof setTimeout> | undefined;
  const signInAgain = () => void keycloak.login();
  const refresh = async (): Promise<void> => {
    await keycloak.updateToken(MIN_VALIDITY_S);
    schedule();
  };
  // The next refresh, MIN_VALIDITY_S before the access token expires.
  const schedule = () => {
    clearTimeout(timer);
    const expiresAt = (keycloak.tokenParsed?.exp ?? 0) * 1000;
    const delay = Math.max(expiresAt - Date.now() - MIN_VALIDITY_S * 1000, 1000);
    timer = setTimeout(() => refresh().catch(signInAgain), delay);
  };
  keycloak.onTokenExpired = () => void refresh().catch(signInAgain);
  schedule();

  const parsed = keycloak.tokenParsed as
    { email?: string; preferred_username?: string } | undefined;
  return {
    email: parsed?.email ?? parsed?.preferred_username ?? '',
    roles: staffRoles.filter((role) => keycloak.hasRealmRole(role)),
    accessToken: async () => {
      try {
        if (await keycloak.updateToken(MIN_VALIDITY_S)) schedule();
      } catch (error) {
        signInAgain();
        throw error instanceof Error ? error : new Error('The console session has ended');
      }
      return keycloak.token!;
    },
    signOut: () => {
      clearTimeout(timer);
      return keycloak.logout({ redirectUri: consoleHome() });
    },
  };
}
