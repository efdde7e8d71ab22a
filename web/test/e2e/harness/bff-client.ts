/**
 * Direct calls to the BFF under test (docs/api.md), for arranging data the
 * browser steps then use, and for changes made "elsewhere" (another device).
 */
import type { BrandRecord, UserRecord } from '@raly/contracts/records';
import { uniqueToken } from '@raly/service-kit/testing';

export interface Creator {
  username: string;
  email: string;
  password: string;
}

/** A creator with unique values (username letters and digits, 3–18 characters). */
export function aCreator(): Creator {
  const token = uniqueToken(12);
  return {
    username: `c${token}`,
    email: `creator.${token}@example.com`,
    password: `pw-${uniqueToken(8)}`,
  };
}

async function call<T>(
  bffUrl: string,
  method: string,
  path: string,
  body: unknown,
  accessToken?: string,
): Promise<T> {
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
export async function changeUsername(
  bffUrl: string,
  accessToken: string,
  username: string,
): Promise<void> {
  await call(bffUrl, 'PATCH', '/me', { username }, accessToken);
}

export interface BrandContact extends Creator {
  firstName: string;
  lastName: string;
  company: string;
  website: string;
}

/** A brand contact with unique values. */
export function aBrandContact(): BrandContact {
  const token = uniqueToken(12);
  return {
    username: `b${token}`,
    email: `brand.${token}@example.com`,
    password: `pw-${uniqueToken(8)}`,
    firstName: 'Grace',
    lastName: 'Hopper',
    company: `Company ${token}`,
    website: `https://${token}.example.com`,
  };
}

/** Registers a brand (and its contact, the brand's admin) through POST /api/accounts. */
export async function registerBrand(bffUrl: string, contact: BrandContact): Promise<void> {
  await call(bffUrl, 'POST', '/accounts', {
    isBrand: true,
    registration: { ...contact, confirmPassword: contact.password, agreeTerms: true },
  });
}

/** @returns the signed-in user's own record (GET /api/me) */
export async function userRecordOf(bffUrl: string, accessToken: string): Promise<UserRecord> {
  const response = await fetch(`${bffUrl}/api/me`, {
    headers: { Authorization: `Bearer ${accessToken}` },
  });
  if (!response.ok)
    throw new Error(`GET /me answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { data: { user: UserRecord } }).data.user;
}

/** Renames the signed-in brand user's brand through PATCH /api/brand (its other fields unchanged). */
export async function renameBrand(
  bffUrl: string,
  accessToken: string,
  company: string,
): Promise<void> {
  const response = await fetch(`${bffUrl}/api/me`, {
    headers: { Authorization: `Bearer ${accessToken}` },
  });
  if (!response.ok)
    throw new Error(`GET /me answered ${response.status}: ${await response.text()}`);
  const { brand } = ((await response.json()) as { data: { brand: BrandRecord | null } }).data;
  if (!brand) throw new Error('GET /me answered no brand');
  const { username, websiteUrl, bio, socials } = brand;
  await call(
    bffUrl,
    'PATCH',
    '/brand',
    { username, company, websiteUrl, bio, socials },
    accessToken,
  );
}
