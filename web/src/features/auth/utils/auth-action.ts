/** The query of an /auth/action link (spec §2): apiKey, mode and oobCode. */

export interface AuthAction {
  apiKey: string;
  mode: string;
  oobCode: string;
}

/** The mode of a password reset link. */
export const RESET_PASSWORD_MODE = 'resetPassword';

/**
 * @param search the page's query string
 * @returns the three parameters, or null when any of them is missing or empty
 *   (spec §2: then the visitor is sent home)
 */
export function readAuthAction(search: URLSearchParams): AuthAction | null {
  const apiKey = search.get('apiKey');
  const mode = search.get('mode');
  const oobCode = search.get('oobCode');
  if (!apiKey || !mode || !oobCode) return null;
  return { apiKey, mode, oobCode };
}
