/**
 * The two parties of a collaboration for the browser tests, arranged
 * through the BFF: a signed-in brand, an open offer, and the collaboration
 * an accepted application opens.
 */
import { randomUUID } from 'node:crypto';
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import type { CreateOffer, OfferRecord } from '@raly/contracts/offers';
import { brandRegistration, dataOf, sleep } from '@raly/test-support';
import { registerBrand } from './bff-client.ts';
import type { SignedInCreator } from './shell-users.ts';

/** How soon a change made in one tab must show in another (ms): service → Kafka → BFF → socket. */
export const LIVE_UPDATE_WINDOW_MS = 10_000;

/** The BFF's JSON API under test with a bearer token: `data` of a 2xx answer. */
export const callBff = <T>(
  bffUrl: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
) => dataOf<T>(bffUrl, method, `/api${path}`, { body, token });

type TokenSet = SignedInCreator['tokenSet'];

/** A registered brand user with a fresh token set, and an access token of another session for the API. */
export async function aSignedInBrand(bffUrl: string) {
  const contact = brandRegistration();
  await registerBrand(bffUrl, contact);
  const login = () =>
    callBff<TokenSet>(bffUrl, 'POST', '/auth/login', undefined, {
      email: contact.email,
      password: contact.password,
    });
  // One after the other: two sign-ins of a new user at the same moment were seen refused.
  const tokenSet = await login();
  const api = await login();
  return { ...contact, tokenSet, accessToken: api.accessToken };
}

/** An open offer for creators interested in Gaming, with a unique title. */
export const anOffer = (): CreateOffer => ({
  title: `Collab ${randomUUID().slice(0, 8)}`,
  brief: 'Show our product to your audience in a short video, in your own words.',
  interests: ['Gaming'],
  platforms: ['x'],
  deliverables: 'One video of 30 to 60 seconds.',
  compensation: { kind: 'fixed', amountMinor: 50_000, currency: 'USD' },
  creatorsWanted: 2,
  applyBy: new Date(Date.now() + 14 * 86_400_000).toISOString(),
  open: true,
});

/** A registered brand user (as {@link aSignedInBrand}) and an open offer of theirs ({@link anOffer}). */
export async function aBrandWithAnOpenOffer(bffUrl: string) {
  const brand = await aSignedInBrand(bffUrl);
  const offer = await callBff<OfferRecord>(bffUrl, 'POST', '/offers', brand.accessToken, anOffer());
  return { brand, offer };
}

/** Polls the creator's collaborations until the one of `applicationId` is there. */
export async function collaborationOf(
  bffUrl: string,
  token: string,
  applicationId: string,
): Promise<CollaborationRecord> {
  const deadline = Date.now() + LIVE_UPDATE_WINDOW_MS;
  for (;;) {
    const list = await callBff<CollaborationRecord[]>(bffUrl, 'GET', '/collaborations', token);
    const found = list.find((each) => each.applicationId === applicationId);
    if (found) return found;
    if (Date.now() > deadline) throw new Error('the collaboration did not open');
    await sleep(250);
  }
}
