/**
 * The notifications service under an offer that matches many creators
 * (docs/product-spec.md "Notifications"): a brand opens an offer (`POST
 * /api/offers`, open) whose interests match `creators` people of the
 * service's copy who want offers (and not `controls` others); how long until
 * every inbox holds its item, read by polling the service's database, how
 * long until every inbox's snapshot is published on `notifications.inbox.v1`,
 * and how many items per second the service writes and publishes.
 *
 * The people are written straight into the service's copy (`people`, what it
 * keeps of `identity.user.v1`): registering 10,000 Keycloak users would take
 * longer than the figure, and their events would be the same rows.
 */
import type { OfferRecord } from '@raly/contracts/offers';
import { topics } from '@raly/contracts/events';
import { callApi, sleep } from '@raly/test-support';
import pg from 'pg';
import type { BenchSystem } from '../bench-system';
import { waitForGroupsCaughtUp } from '../kafka-lag';
import { cpuTimeMs } from '../process-usage';
import { openOfferForm } from './offer-fanout';
import { nowMs } from '../stats';
import { registerBrand, runMarker } from '../users';

export interface NotificationFanoutSettings {
  /** People who want offers of the offer's interest. */
  creators: number;
  /** People who want offers of another interest (must get nothing). */
  controls: number;
  /** Longest wait for every inbox, ms. */
  timeoutMs: number;
}

export interface NotificationFanoutResult {
  creators: number;
  controls: number;
  /** POST /api/offers answered after (ms). */
  commandAnswerMs: number;
  /** From the POST: the first item's transaction, every inbox holding its item, every snapshot published (ms). */
  firstItemMs: number;
  everyInboxMs: number;
  everySnapshotPublishedMs: number;
  /** Items in inboxes when the wait ended, and items the controls got. */
  delivered: number;
  controlItems: number;
  /** Items written per second, from the first item's transaction until every inbox held one. */
  itemsPerSecond: number;
  /** Inbox snapshots published per second, from the first published to the last. */
  publishedPerSecond: number;
  /** CPU time of the notifications process from the POST until every snapshot was published (ms). */
  cpuMs: number;
}

/** How often the database is polled while waiting (ms). */
const POLL_MS = 25;

/**
 * Seeds the people, opens the offer through the BFF and measures.
 * @throws Error when the system runs no notifications service or the offer is refused
 */
/**
 * The offer's interest, which no creator the other groups register has (the offer fan-out's are
 * Gaming, AI and Sports): only the people written here match it.
 */
const MATCHING_INTEREST = 'Fashion';

/** Longest wait for the notifications service to handle the backlog of earlier groups, ms. */
const BACKLOG_TIMEOUT_MS = 180_000;

export async function measureNotificationFanout(
  system: BenchSystem,
  settings: NotificationFanoutSettings,
): Promise<NotificationFanoutResult> {
  const notifications = system.processes.notifications;
  if (!notifications || !system.notifications)
    throw new Error('the bench system runs no notifications service');
  const sql = new pg.Client({ connectionString: system.notifications.databaseUrl });
  await sql.connect();
  try {
    await sql.query(
      `INSERT INTO people (id, version, brand_id, interests, wants_offers)
       SELECT gen_random_uuid()::text, 1, NULL,
              CASE WHEN n <= $1::int THEN ARRAY['${MATCHING_INTEREST}'] ELSE ARRAY['Business'] END, true
       FROM generate_series(1, $1::int + $2::int) AS n`,
      [settings.creators, settings.controls],
    );
    await sql.query('ANALYZE people');
    const brand = await registerBrand(system, 100);
    const countOf = async (query: string, values: unknown[]) =>
      (await sql.query<{ count: number }>(query, values)).rows[0]!.count;
    // The events of the groups measured before (collaborations opened, messages) are handled
    // first: the figure is the offer's own fan-out, not the service's backlog.
    await waitForGroupsCaughtUp(
      system.stack.kafkaBrokers,
      [system.notifications.groupId],
      BACKLOG_TIMEOUT_MS,
    ).catch((error: unknown) => {
      process.stdout.write(
        `[bench] notifications: ${(error as Error).message}; measuring anyway\n`,
      );
    });
    const title = `Inbox fan-out ${runMarker}`;
    const cpuBefore = cpuTimeMs(notifications.pid);
    const postedAt = nowMs();
    const opened = await callApi<OfferRecord>(system.bff.url, 'POST', '/api/offers', {
      token: brand.accessToken,
      body: openOfferForm(
        MATCHING_INTEREST,
        title,
        'A benchmark offer that every matching creator should find in their inbox.',
      ),
    });
    const commandAnswerMs = nowMs() - postedAt;
    const offerId = opened.body.data?.id;
    if (opened.status !== 201 || !offerId)
      throw new Error(`opening the offer: ${JSON.stringify(opened.body)}`);
    const items = () =>
      countOf(`SELECT count(*)::int AS count FROM notifications WHERE offer_id = $1`, [offerId]);
    const deadline = Date.now() + settings.timeoutMs;
    let delivered = 0;
    while ((delivered = await items()) < settings.creators && Date.now() < deadline)
      await sleep(POLL_MS);
    const everyInboxMs = nowMs() - postedAt;
    // Each item changed one inbox, whose snapshot the outbox publishes (keyed by the person).
    const since = new Date(postedAt).toISOString();
    const published = () =>
      countOf(
        `SELECT count(*)::int AS count FROM outbox
         WHERE topic = $1 AND created_at >= $2::timestamptz AND status = 'published'`,
        [topics.notificationsInbox, since],
      );
    while ((await published()) < delivered && Date.now() < deadline) await sleep(POLL_MS);
    const everySnapshotPublishedMs = nowMs() - postedAt;
    const cpuMs = cpuTimeMs(notifications.pid) - cpuBefore;
    const times = await sql.query<{ first_item: Date; first_out: Date; last_out: Date }>(
      `SELECT (SELECT min(created) FROM notifications WHERE offer_id = $1) AS first_item,
              min(published_at) AS first_out, max(published_at) AS last_out
       FROM outbox WHERE topic = $2 AND created_at >= $3::timestamptz AND status = 'published'`,
      [offerId, topics.notificationsInbox, since],
    );
    const { first_item: firstItem, first_out: firstOut, last_out: lastOut } = times.rows[0]!;
    const controlItems = await countOf(
      `SELECT count(*)::int AS count FROM notifications n JOIN people p ON p.id = n.recipient_id
       WHERE n.offer_id = $1 AND NOT ('${MATCHING_INTEREST}' = ANY(p.interests))`,
      [offerId],
    );
    const firstItemMs = firstItem ? firstItem.getTime() - postedAt : NaN;
    const publishSeconds =
      firstOut && lastOut ? (lastOut.getTime() - firstOut.getTime()) / 1000 : 0;
    return {
      creators: settings.creators,
      controls: settings.controls,
      commandAnswerMs,
      firstItemMs,
      everyInboxMs,
      everySnapshotPublishedMs,
      delivered,
      controlItems,
      itemsPerSecond: delivered / Math.max((everyInboxMs - firstItemMs) / 1000, 0.001),
      publishedPerSecond: delivered / Math.max(publishSeconds, 0.001),
      cpuMs,
    };
  } finally {
    await sql.end();
  }
}
