/**
 * Direct calls to the BFF under test (docs/api.md), for arranging data the
 * browser steps then use, and for changes made "elsewhere" (another device).
 */
import type { BrandRecord, UserRecord } from '@raly/contracts/records';
import { dataOf, type BrandRegistration, type CreatorRegistration } from '@raly/test-support';

/** The BFF's JSON API under test: `data` of a 2xx answer, else an error naming the call. */
const call = <T>(bffUrl: string, method: string, path: string, body: unknown, token?: string) =>
  dataOf<T>(bffUrl, method, `/api${path}`, { body, token });

/** Registers a creator through POST /api/accounts. */
export async function registerCreator(bffUrl: string, creator: CreatorRegistration): Promise<void> {
  await call(bffUrl, 'POST', '/accounts', {
    isBrand: false,
    registration: creator,
  });
}

/** @returns an access token of a new session of the creator (POST /api/auth/login) */
export async function accessTokenOf(bffUrl: string, creator: CreatorRegistration): Promise<string> {
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

/** Registers a brand (and its contact, the brand's admin) through POST /api/accounts. */
export async function registerBrand(bffUrl: string, contact: BrandRegistration): Promise<void> {
  await call(bffUrl, 'POST', '/accounts', {
    isBrand: true,
    registration: contact,
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
