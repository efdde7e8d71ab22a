/**
 * Direct calls to the BFF under test (docs/api.md), for arranging data the
 * browser steps then use, and for changes made "elsewhere" (another device).
 */
import { uniqueToken } from '@raly/service-kit/testing';

export interface Creator {
  username: string;
  email: string;
  password: string;
}

/** A creator with unique values (username letters and digits, 3–18 characters). */
export function aCreator(): Creator {
  const token = uniqueToken(12);
  return { username: `c${token}`, email: `creator.${token}@example.com`, password: `pw-${uniqueToken(8)}` };
}

async function call<T>(bffUrl: string, method: string, path: string, body: unknown, accessToken?: string): Promise<T> {
  const response = await fetch(`${bffUrl}/api${path}`, {
    method,
    headers: {
      'Content-Type': 'application/json',
      ...(accessToken ? { Authorization: `Bearer ${accessToken}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

/** Registers a creator through POST /api/accounts. */
export async function registerCreator(bffUrl: string, creator: Creator): Promise<void> {
  await call(bffUrl, 'POST', '/accounts', {
    isBrand: false,
    registration: { ...creator, confirmPassword: creator.password, agreeTerms: true },
  });
}

/** @returns an access token of a new session of the creator (POST /api/auth/login) */
export async function accessTokenOf(bffUrl: string, creator: Creator): Promise<string> {
  const tokens = await call<{ accessToken: string }>(bffUrl, 'POST', '/auth/login', {
    email: creator.email,
    password: creator.password,
  });
  return tokens.accessToken;
}

/** Changes the signed-in user's username through PATCH /api/me. */
export async function changeUsername(bffUrl: string, accessToken: string, username: string): Promise<void> {
  await call(bffUrl, 'PATCH', '/me', { username }, accessToken);
}
