/**
 * The notifications service killed (SIGKILL) and started again while brands
 * open offers in creators' interests and creators apply to them, on a bench
 * system of its own (services as processes from their bundles, fresh
 * databases and consumer groups, against the running stack; BENCH_PORTS keeps
 * them in a range). The same load and check as the chaos run's notifications
 * fault (../src/chaos/notifications.ts): every inbox item of an acknowledged
 * offer or application is present after the restart, none twice, and every
 * inbox's unread count matches its items. Announcements run in batches of 2
 * creators, so a kill can fall between the batches of one offer.
 */
import assert from 'node:assert/strict';
import { sleep } from '@raly/test-support';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { startBenchSystem, type BenchSystem } from '../src/bench-system';
import {
  awaitNotifications,
  checkNotifications,
  driveNotificationFacts,
  FACTS_INTEREST,
} from '../src/chaos/notifications';
import { brandMemberOf, type BrandMember } from '../src/open-collaborations';
import { deleteRunUsers, refreshTokens, registerBrand, registerCreators } from '../src/users';

const CREATORS = 6;
const OFFERS = 8;
const DURATION_MS = 16_000;

let system: BenchSystem | undefined;

beforeAll(async () => {
  system = await startBenchSystem(
    // The BFF is not used here: a fresh group at the topics' ends spares it a replay.
    { KAFKA_FROM_BEGINNING: 'false' },
    {},
    { notifications: { NOTIFICATIONS_ANNOUNCE_BATCH: '2' } },
  );
}, 300_000);

afterAll(async () => {
  if (!system) return;
  await system.stop();
  await deleteRunUsers(system.stack);
}, 120_000);

describe('notifications killed and restarted under load', () => {
  test(
    'when the notifications service is SIGKILLed and restarted while offers open and creators apply, then every inbox item is there once and every unread count matches',
    { timeout: 300_000 },
    async () => {
      const bench = system!;
      const creators = await registerCreators(bench, CREATORS, () => [FACTS_INTEREST]);
      const brands: BrandMember[] = [];
      for (const index of [1, 2])
        brands.push(await brandMemberOf(bench.identityUrl, await registerBrand(bench, index)));
      await refreshTokens(bench.stack, [...creators, ...brands]);
      const before = bench.processes.notifications!.pid;

      const driving = driveNotificationFacts(creators, brands, {
        offersUrl: bench.offersUrl,
        offers: OFFERS,
        durationMs: DURATION_MS,
        applicantsPerOffer: 2,
      });
      await sleep(DURATION_MS * 0.3);
      const killedAt = Date.now();
      const restarted = await bench.restart('notifications');
      const restartedAt = Date.now();
      const facts = await driving;

      assert.notEqual(restarted.pid, before, 'a new process');
      assert.equal(facts.offers.length, OFFERS, JSON.stringify(facts.failures));
      assert.equal(facts.applications.length, OFFERS * 2, JSON.stringify(facts.failures));
      assert.ok(
        facts.offers.some((offer) => offer.openedAt < killedAt) &&
          facts.offers.some((offer) => offer.openedAt > restartedAt),
        'offers opened before the kill and after the restart',
      );
      const check = await awaitNotifications(
        () =>
          checkNotifications(
            bench.notifications!.databaseUrl,
            facts,
            creators.map((creator) => creator.userId),
            new Map(brands.map((brand) => [brand.brandId, [brand.userId]])),
          ),
        90_000,
      );
      assert.equal(check.expected, OFFERS * CREATORS + OFFERS * 2);
      assert.equal(check.lost, 0, `inbox items lost: ${check.examples.join('; ')}`);
      assert.equal(check.present, check.expected);
      assert.equal(check.duplicates, 0, `inbox items twice: ${check.examples.join('; ')}`);
      assert.equal(check.inboxesDiffering, 0, `inboxes differ: ${check.examples.join('; ')}`);
    },
  );
});
