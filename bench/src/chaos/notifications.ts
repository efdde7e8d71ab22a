/**
 * The notifications side of a chaos run (docs/product-spec.md "Notifications"):
 * while the notifications service is killed and restarted, brands open offers in
 * the run's creators' interests (each creator wants offers: one `offer_matched`
 * item per creator and offer) and creators apply to them (one
 * `application_received` item per brand member and application); afterwards
 * every such item must be in its inbox exactly once, and every inbox's unread
 * count must be its unread items' (an item counted twice shows there). Read
 * from the notifications database, the service's own truth.
 */
import type { ApplicationRecord, OfferRecord } from '@raly/contracts/offers';
import { callApi, sleep } from '@raly/test-support';
import pg from 'pg';
import { offerForm, type BrandMember } from '../open-collaborations';
import type { BenchUser } from '../users';

/** The run's facts that notify someone: offers acknowledged (201) and applications acknowledged. */
export interface NotificationFacts {
  /** `openedAt`: epoch ms of the acknowledgement. */
  offers: { id: string; brandId: string; openedAt: number }[];
  applications: { id: string; offerId: string; creatorId: string; brandId: string }[];
  /** Calls not acknowledged, by `offer|apply: <status or error>` (their facts are not expected). */
  failures: Record<string, number>;
}

/** How {@link driveNotificationFacts} paces its rounds. */
export interface NotificationFactsOptions {
  /** offers' URL: a service entry (`http://127.0.0.1:4214`), or the BFF's `…/api`. */
  offersUrl: string;
  /** Offers opened, one per round, spread evenly over `durationMs`. */
  offers: number;
  durationMs: number;
  /** Creators who apply to each offer (round robin over the creators). */
  applicantsPerOffer: number;
}

/** The interest every offer of the run names (open-collaborations `offerForm`); the run's creators have it. */
export const FACTS_INTEREST = 'AI';

const failureOf = (status: number) => (status === 0 ? 'no answer' : String(status));

/**
 * Opens `offers` offers (brands in turn) and has `applicantsPerOffer` creators
 * apply to each, one round at a time over `durationMs`. A call that fails is
 * not retried: only acknowledged facts are expected to notify (an offer stored
 * but not answered notifies creators nobody checks).
 * The creators must be onboarded with {@link FACTS_INTEREST}; tokens are read at each call
 * (a refresh loop may renew them).
 */
export async function driveNotificationFacts(
  creators: BenchUser[],
  brands: BrandMember[],
  options: NotificationFactsOptions,
): Promise<NotificationFacts> {
  const facts: NotificationFacts = { offers: [], applications: [], failures: {} };
  const fail = (what: string, status: number) => {
    const key = `${what}: ${failureOf(status)}`;
    facts.failures[key] = (facts.failures[key] ?? 0) + 1;
  };
  const call = <T>(user: BenchUser, path: string, body: object) =>
    callApi<T>(options.offersUrl, 'POST', path, { token: user.accessToken, body }).catch(() => ({
      status: 0,
      body: {} as { data?: T },
    }));
  const startedAt = Date.now();
  let applicant = 0;
  for (let round = 0; round < options.offers; round += 1) {
    const due = startedAt + (round * options.durationMs) / options.offers;
    if (due > Date.now()) await sleep(due - Date.now());
    const brand = brands[round % brands.length]!;
    const opened = await call<OfferRecord>(
      brand,
      '/offers',
      offerForm(`Chaos offer ${round} ${Date.now().toString(36)}`, 10),
    );
    const offer = opened.body.data;
    if (opened.status !== 201 || !offer) {
      fail('offer', opened.status);
      continue;
    }
    facts.offers.push({ id: offer.id, brandId: brand.brandId, openedAt: Date.now() });
    const applicants = Array.from(
      { length: Math.min(options.applicantsPerOffer, creators.length) },
      () => creators[applicant++ % creators.length]!,
    );
    await Promise.all(
      applicants.map(async (creator) => {
        const applied = await call<ApplicationRecord>(creator, `/offers/${offer.id}/applications`, {
          pitch: 'I make short videos about new tools for a large, loyal audience.',
        });
        const application = applied.body.data;
        if (applied.status !== 201 || !application) return fail('apply', applied.status);
        facts.applications.push({
          id: application.id,
          offerId: offer.id,
          creatorId: creator.userId,
          brandId: brand.brandId,
        });
      }),
    );
  }
  return facts;
}

/** What the inboxes hold of the run's facts. */
export interface NotificationCheck {
  /** Items the acknowledged facts call for. */
  expected: number;
  /** Of those, in their inbox (once or more). */
  present: number;
  /** Expected and missing. */
  lost: number;
  /** Items of the run's facts present more than once (extra copies counted). */
  duplicates: number;
  /** The run's people whose inbox's unread count differs from their unread items. */
  inboxesDiffering: number;
  examples: string[];
}

/**
 * Reads the notifications database and compares it with the facts.
 * @param creatorIds the run's creators (each wants offers of {@link FACTS_INTEREST})
 * @param membersOf the user ids of each brand's members (the run's brand admins)
 */
export async function checkNotifications(
  databaseUrl: string,
  facts: NotificationFacts,
  creatorIds: string[],
  membersOf: Map<string, string[]>,
): Promise<NotificationCheck> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'raly-chaos' });
  await client.connect();
  try {
    const offerIds = facts.offers.map((offer) => offer.id);
    const applicationIds = facts.applications.map((application) => application.id);
    const people = [...new Set([...creatorIds, ...[...membersOf.values()].flat()])];
    const { rows } = await client.query<{ key: string; copies: number }>(
      `SELECT kind || ' ' || recipient_id || ' ' || coalesce(application_id, offer_id) AS key,
              count(*)::int AS copies
       FROM notifications
       WHERE recipient_id = ANY($3)
         AND ((kind = 'offer_matched' AND offer_id = ANY($1))
           OR (kind = 'application_received' AND application_id = ANY($2)))
       GROUP BY 1`,
      [offerIds, applicationIds, people],
    );
    const copiesOf = new Map(rows.map((row) => [row.key, row.copies]));
    const expected = [
      ...facts.offers.flatMap((offer) =>
        creatorIds.map((creator) => `offer_matched ${creator} ${offer.id}`),
      ),
      ...facts.applications.flatMap((application) =>
        (membersOf.get(application.brandId) ?? []).map(
          (member) => `application_received ${member} ${application.id}`,
        ),
      ),
    ];
    const missing = expected.filter((key) => !copiesOf.has(key));
    const doubled = rows.filter((row) => row.copies > 1);
    const inboxes = await client.query<{ person_id: string; unread: number; items: number }>(
      `SELECT i.person_id, i.unread,
              (SELECT count(*)::int FROM notifications n
               WHERE n.recipient_id = i.person_id AND n.read_at IS NULL) AS items
       FROM inboxes i WHERE i.person_id = ANY($1)`,
      [people],
    );
    const differing = inboxes.rows.filter((inbox) => inbox.unread !== inbox.items);
    return {
      expected: expected.length,
      present: expected.length - missing.length,
      lost: missing.length,
      duplicates: doubled.reduce((sum, row) => sum + row.copies - 1, 0),
      inboxesDiffering: differing.length,
      examples: [
        ...missing.slice(0, 5).map((key) => `missing ${key}`),
        ...doubled.slice(0, 5).map((row) => `${row.copies}× ${row.key}`),
        ...differing
          .slice(0, 5)
          .map((inbox) => `inbox ${inbox.person_id}: unread ${inbox.unread}, items ${inbox.items}`),
      ],
    };
  } finally {
    await client.end();
  }
}

/**
 * {@link checkNotifications} every second until nothing is missing and every inbox
 * agrees, or `timeoutMs` passed (the restarted service catches up meanwhile).
 * @returns the last check and how long it took (ms)
 */
export async function awaitNotifications(
  check: () => Promise<NotificationCheck>,
  timeoutMs: number,
): Promise<NotificationCheck & { settledMs: number }> {
  const started = Date.now();
  for (;;) {
    const result = await check();
    const settled = result.lost === 0 && result.inboxesDiffering === 0;
    if (settled || Date.now() - started >= timeoutMs)
      return { ...result, settledMs: Date.now() - started };
    await sleep(1000);
  }
}

/** The check's rows for the chaos table. */
export function notificationRows(
  facts: NotificationFacts,
  check: NotificationCheck,
): [string, string][] {
  return [
    [
      'offers opened / applications made (acknowledged)',
      `${facts.offers.length} / ${facts.applications.length}`,
    ],
    [
      'offer and application calls refused or failed',
      Object.entries(facts.failures)
        .map(([reason, count]) => `${reason} × ${count}`)
        .join(', ') || '0',
    ],
    ['inbox items expected / present', `${check.expected} / ${check.present}`],
    ['inbox items LOST', String(check.lost)],
    ['inbox items twice (extra copies)', String(check.duplicates)],
    ['inboxes whose unread count differs from their items', String(check.inboxesDiffering)],
  ];
}
