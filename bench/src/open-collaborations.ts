/**
 * Open collaborations for benchmarks and the chaos run, made the way users
 * make them (docs/product-spec.md "Collaborations"): each brand opens offers
 * (at most {@link CREATORS_WANTED_MAX} places each), its creators apply, the
 * brand accepts every application, and the collaborations service opens one
 * collaboration per accepted application from `offers.application.v1`. Also
 * sends a message with a client-made id, retried with the same id as the web
 * app's outbox does, so a retry is stored once.
 */
import { randomUUID } from 'node:crypto';
import {
  CREATORS_WANTED_MAX,
  type ApplicationRecord,
  type OfferRecord,
} from '@raly/contracts/offers';
import type {
  CollaborationMessageRecord,
  CollaborationRecord,
} from '@raly/contracts/collaborations';
import { messages } from '@raly/contracts/messages';
import type { UserRecord } from '@raly/contracts/records';
import { callApi, dataOf, eventually, sleep } from '@raly/test-support';
import { inParallel } from './stats';
import type { BenchUser } from './users';

/** A brand's member (its admin) and the brand's id. */
export interface BrandMember extends BenchUser {
  brandId: string;
}

/** One open collaboration and its two parties. */
export interface OpenCollaboration {
  id: string;
  applicationId: string;
  creator: BenchUser;
  brand: BrandMember;
}

/**
 * Where the offers and collaborations routes are: a service's own URL
 * (`http://127.0.0.1:4004`), or the BFF's `/api` (`http://127.0.0.1:3000/api`).
 */
export interface CollaborationUrls {
  offersUrl: string;
  collaborationsUrl: string;
}

/**
 * The brand a brand user is a member of, from `GET /users/me` of identity-profile.
 * @throws Error when the user belongs to no brand
 */
export async function brandMemberOf(identityUrl: string, user: BenchUser): Promise<BrandMember> {
  const record = await dataOf<UserRecord>(identityUrl, 'GET', '/users/me', {
    token: user.accessToken,
  });
  if (!record.brand) throw new Error(`user ${user.userId} belongs to no brand`);
  return { ...user, brandId: record.brand.id };
}

/** Calls `attempt` until it does not throw, up to `tries` times, 500 ms apart. */
async function retried<T>(tries: number, attempt: () => Promise<T>): Promise<T> {
  for (let round = 1; ; round += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (round >= tries) throw error;
      await sleep(500);
    }
  }
}

/** The form of an open offer in the AI interest with `places` places (POST /offers). */
export const offerForm = (title: string, places: number) => ({
  title,
  brief: 'A benchmark offer: every creator who applies is accepted and a collaboration opens.',
  interests: ['AI'],
  platforms: ['x'],
  deliverables: 'One post',
  compensation: { kind: 'fixed', amountMinor: 10_000, currency: 'USD' },
  creatorsWanted: places,
  applyBy: new Date(Date.now() + 7 * 86_400_000).toISOString(),
  open: true,
});

/**
 * Opens one collaboration per pair: offers of each brand (one per 100 of its
 * pairs), an application per pair and its acceptance, `concurrency` pairs at
 * a time, each call retried a few times (a refused one throws); then waits
 * until the collaborations service opened them all (listed to each creator).
 * The creators must be onboarded (offers refuses others) and their tokens fresh.
 * @param pairs creator and brand of each collaboration (a pair at most once)
 * @param log progress lines
 * @returns the collaborations, in the order of `pairs`
 * @throws Error when a call keeps failing or a collaboration does not open within `timeoutMs`
 */
export async function openCollaborations(
  urls: CollaborationUrls,
  pairs: { creator: BenchUser; brand: BrandMember }[],
  options: {
    concurrency?: number;
    timeoutMs?: number;
    log?: (line: string) => void;
    /** Renews the users' access tokens (they live 5 minutes): called before the wait. */
    refreshTokens?: () => Promise<void>;
  } = {},
): Promise<OpenCollaboration[]> {
  const { concurrency = 8, timeoutMs = 120_000, log = () => undefined } = options;
  const byBrand = new Map<string, number[]>();
  pairs.forEach((pair, index) => {
    const list = byBrand.get(pair.brand.brandId) ?? [];
    list.push(index);
    byBrand.set(pair.brand.brandId, list);
  });
  const offerOfPair: string[] = [];
  for (const indexes of byBrand.values()) {
    for (let start = 0; start < indexes.length; start += CREATORS_WANTED_MAX) {
      const chunk = indexes.slice(start, start + CREATORS_WANTED_MAX);
      const brand = pairs[chunk[0]!]!.brand;
      const offer = await retried(3, () =>
        dataOf<OfferRecord>(urls.offersUrl, 'POST', '/offers', {
          token: brand.accessToken,
          body: offerForm(`Collaboration ${randomUUID().slice(0, 8)}`, chunk.length),
        }),
      );
      for (const index of chunk) offerOfPair[index] = offer.id;
    }
  }
  let done = 0;
  const applicationIds = await inParallel(pairs, concurrency, async (pair, index) => {
    const application = await retried(3, async () => {
      const answer = await callApi<ApplicationRecord>(
        urls.offersUrl,
        'POST',
        `/offers/${offerOfPair[index]}/applications`,
        {
          token: pair.creator.accessToken,
          body: { pitch: 'I make short videos about new tools for a large, loyal audience.' },
        },
      );
      // A retry after an application that was stored but not answered: find it.
      if (answer.status === 409 && answer.body.error?.message === messages.alreadyApplied)
        return (
          await dataOf<ApplicationRecord[]>(urls.offersUrl, 'GET', '/applications/mine', {
            token: pair.creator.accessToken,
          })
        ).find((mine) => mine.offerId === offerOfPair[index])!;
      if (answer.status !== 201) throw new Error(`applying: ${JSON.stringify(answer.body)}`);
      return answer.body.data!;
    });
    if (application.status === 'pending')
      await retried(3, async () => {
        const answer = await callApi(
          urls.offersUrl,
          'POST',
          `/applications/${application.id}/accept`,
          { token: pair.brand.accessToken },
        );
        if (answer.status !== 200 && answer.body.error?.message !== messages.applicationDecided)
          throw new Error(`accepting: ${JSON.stringify(answer.body)}`);
      });
    done += 1;
    if (done % 200 === 0) log(`accepted ${done} of ${pairs.length} applications`);
    return application.id;
  });
  // Accepting takes minutes on a busy machine: the creators' tokens may have ended since.
  await options.refreshTokens?.();
  const creators = [...new Map(pairs.map((pair) => [pair.creator.userId, pair.creator])).values()];
  const collaborationOf = new Map<string, string>();
  await inParallel(creators, concurrency, (creator) =>
    eventually(
      `the collaborations of creator ${creator.userId}`,
      async () => {
        const answer = await callApi<CollaborationRecord[]>(
          urls.collaborationsUrl,
          'GET',
          '/collaborations',
          { token: creator.accessToken },
        );
        for (const collaboration of answer.body.data ?? [])
          collaborationOf.set(collaboration.applicationId, collaboration.id);
        return pairs.every(
          (pair, index) =>
            pair.creator.userId !== creator.userId || collaborationOf.has(applicationIds[index]!),
        );
      },
      { timeoutMs, intervalMs: 250 },
    ),
  );
  return pairs.map((pair, index) => ({
    id: collaborationOf.get(applicationIds[index]!)!,
    applicationId: applicationIds[index]!,
    ...pair,
  }));
}

/** The party a message is sent as. */
export type SenderParty = 'creator' | 'brand';

/** How a send ended. */
export interface SendOutcome {
  /** The stored message, when a 2xx answer came. */
  message?: CollaborationMessageRecord;
  /** Attempts made (1 unless retried). */
  attempts: number;
  /** True when an attempt was answered with the message an earlier attempt had stored (200). */
  foundStored: boolean;
  /** Why each failed attempt failed: the status, or `error` when no answer came. */
  failures: string[];
}

/** Statuses a send is retried on: the server or a proxy could not take it now. */
const retryable = (status: number) => status === 429 || status >= 500;

/**
 * Sends one message as `party` of `collaboration` (`POST
 * <collaborationsUrl>/collaborations/:id/messages`), retrying a failed
 * attempt (no answer, 429 or 5xx) with the same client id after 0.5, 1, 2,
 * 4… s (at most 5 s) until `deadline` (epoch ms); a 4xx other than 429 is not retried.
 * @param clientId the client-made id (a UUID); default a fresh one
 */
export async function sendMessageRetried(
  collaborationsUrl: string,
  collaboration: OpenCollaboration,
  party: SenderParty,
  body: string,
  deadline: number,
  clientId: string = randomUUID(),
): Promise<SendOutcome & { clientId: string }> {
  const outcome: SendOutcome & { clientId: string } = {
    clientId,
    attempts: 0,
    foundStored: false,
    failures: [],
  };
  const sender = party === 'creator' ? collaboration.creator : collaboration.brand;
  for (let wait = 500; ; wait = Math.min(wait * 2, 5000)) {
    outcome.attempts += 1;
    let status = 0;
    try {
      const answer = await fetch(
        `${collaborationsUrl}/collaborations/${collaboration.id}/messages`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${sender.accessToken}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ clientId, body }),
          signal: AbortSignal.timeout(15_000),
        },
      );
      status = answer.status;
      const text = await answer.text();
      if (answer.ok) {
        outcome.message = (JSON.parse(text) as { data: CollaborationMessageRecord }).data;
        outcome.foundStored = status === 200;
        return outcome;
      }
    } catch {
      status = 0;
    }
    outcome.failures.push(status === 0 ? 'error' : String(status));
    if ((status !== 0 && !retryable(status)) || Date.now() + wait > deadline) return outcome;
    await sleep(wait);
  }
}
