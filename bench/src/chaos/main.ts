/**
 * `npm run chaos` (docs/operations.md "Chaos run"): socket.io clients of many users through the
 * scaled topology's load balancer, thousands of record changes through the
 * BFF and through Kafka-only paths, and meanwhile a printed schedule of
 * faults (./faults.ts), and messages between the parties of open
 * collaborations (./messages.ts), and offers and applications that notify
 * creators and brands (./notifications.ts); then a table of what was lost, duplicated,
 * left stale or dead-lettered, and the live-push delay histogram before,
 * during and after the faults. Saved as bench/results/chaos[-short].json (the
 * directory: BENCH_RESULTS_DIR). Exits 1 when the goal is missed: 0 lost, 0
 * clients disconnected, outbox drained, every dead letter superseded, no
 * acknowledged message lost or stored twice, every inbox item of the run's
 * offers and applications present exactly once.
 *
 * CHAOS_SIZE=short runs the `npm test` variant (fewer users, tabs,
 * changes and messages, the same faults). The topology is the one on the RALY_SCALE_*
 * ports, started (and stopped) by this run when it is not running.
 */
import { nativeEndpoints } from '@raly/infra/stack/endpoints';
import { serviceTokenOf, sleep, testStack, dataOf } from '@raly/test-support';
import type { CollaborationMessageRecord } from '@raly/contracts/collaborations';
import type { BrandRecord } from '@raly/contracts/records';
import {
  openCollaborations,
  type BrandMember,
  type OpenCollaboration,
} from '../open-collaborations';
import { saveResults } from '../results';
import { connectFleet } from '../socket-fleet';
import { percentile } from '../stats';
import { deleteRunUsers, refreshTokens, registerBrand, registerCreators } from '../users';
import {
  compareWithTruth,
  deadLetterOffsets,
  delayPhase,
  highestGauge,
  readDeadLetters,
  readTruth,
  scrapeDelays,
  staleTimes,
  type DelayPhase,
  type DelaySnapshot,
} from './check';
import { faultSchedule, runFaults, type FaultRecord } from './faults';
import { driveChanges, type ChaosUser } from './load';
import {
  checkMessages,
  driveMessages,
  messageRows,
  readHistory,
  type MessageCheck,
  type MessageLoadResult,
} from './messages';
import {
  awaitNotifications,
  checkNotifications,
  driveNotificationFacts,
  notificationRows,
  type NotificationCheck,
  type NotificationFacts,
} from './notifications';
import { ensureChaosTopology } from './topology';

/** The size of a run. */
interface ChaosSize {
  name: string;
  creators: number;
  brands: number;
  tabs: number;
  changes: number;
  /** Collaboration messages at least, over the same duration (each creator works with two brands). */
  messages: number;
  /** Offers opened over the same duration (each announced to every creator), and applications to each. */
  offers: number;
  applicantsPerOffer: number;
  durationSeconds: number;
  maxInFlight: number;
  kafkaDownSeconds: number;
  redisDownSeconds: number;
  /** The load after the last fault recovered, at least (the "after" phase). */
  afterSeconds: number;
}

const sizes: Record<'full' | 'short', ChaosSize> = {
  full: {
    name: 'chaos',
    creators: 40,
    brands: 10,
    tabs: 4,
    changes: 10_000,
    messages: 960,
    offers: 24,
    applicantsPerOffer: 4,
    durationSeconds: 240,
    maxInFlight: 48,
    kafkaDownSeconds: 10,
    redisDownSeconds: 4,
    afterSeconds: 30,
  },
  short: {
    name: 'chaos-short',
    creators: 4,
    brands: 2,
    tabs: 2,
    changes: 500,
    messages: 120,
    offers: 8,
    applicantsPerOffer: 2,
    durationSeconds: 100,
    maxInFlight: 8,
    kafkaDownSeconds: 5,
    redisDownSeconds: 3,
    afterSeconds: 15,
  },
};

/** The brand profile form of a brand record (the website is required by the form). */
function brandFormOf(brand: BrandRecord): Record<string, unknown> {
  return {
    username: brand.username,
    company: brand.company,
    websiteUrl: brand.websiteUrl || 'https://chaos.example',
    bio: brand.bio ?? '',
    socials: brand.socials,
  };
}

const log = (line: string) => process.stdout.write(`[chaos] ${line}\n`);

/** How long the clients and the outbox get to settle after the last change. */
const SETTLE_TIMEOUT_MS = 120_000;
/** Tokens live 5 minutes; the web app renews them well before, so the BFF never ends a socket for expiry. */
const TOKEN_REFRESH_MS = 60_000;
/** How long a failed message is retried with its client id (the faults recover well within). */
const MESSAGE_RETRY_MS = 120_000;

/** The run's creators, and its brand members (with their brand's id). */
function partiesOf(users: ChaosUser[]): { creators: ChaosUser[]; brands: BrandMember[] } {
  return {
    creators: users.filter((user) => !user.brandId),
    brands: users.filter((user): user is BrandMember => user.brandId !== undefined),
  };
}

/**
 * Opens the run's collaborations: each creator with two brands (one when
 * there is one), through the offers and collaborations services' entries.
 */
async function openRunCollaborations(
  users: ChaosUser[],
  topology: Awaited<ReturnType<typeof ensureChaosTopology>>,
): Promise<OpenCollaboration[]> {
  const { creators, brands } = partiesOf(users);
  const pairs = creators.flatMap((creator, index) =>
    [...new Set([index % brands.length, (index + 1) % brands.length])].map((at) => ({
      creator,
      brand: brands[at]!,
    })),
  );
  log(`opening ${pairs.length} collaborations`);
  return openCollaborations(
    { offersUrl: topology.offersUrl, collaborationsUrl: topology.collaborationsUrl },
    pairs,
  );
}

async function main(): Promise<boolean> {
  const size = sizes[process.env.CHAOS_SIZE === 'short' ? 'short' : 'full'];
  const topology = await ensureChaosTopology(log);
  const stack = await testStack();
  let closeFleet = async () => undefined as void;
  try {
    const target = {
      stack,
      serviceToken: serviceTokenOf(stack, 'bff'),
      identityUrl: topology.identityUrl,
    };
    log(`registering ${size.creators} creators and ${size.brands} brands`);
    // Onboarded, so they may apply to the brands' offers.
    const users: ChaosUser[] = await registerCreators(target, size.creators, () => ['AI']);
    for (let index = 0; index < size.brands; index += 1) {
      const member: ChaosUser = await registerBrand(target, index);
      const me = await dataOf<{ brand: BrandRecord | null }>(topology.entryUrl, 'GET', '/api/me', {
        token: member.accessToken,
      });
      member.brandId = me.brand?.id;
      member.brandForm = me.brand ? brandFormOf(me.brand) : undefined;
      users.push(member);
    }
    // The same user objects: the token refreshes below reach the messages' senders.
    const collaborations = await openRunCollaborations(users, topology);
    // Tokens live 5 minutes and registering takes a while: fresh ones for the sockets.
    await refreshTokens(stack, users);
    const owners = users.flatMap((user) => Array.from({ length: size.tabs }, () => user));
    const tokens = () => owners.map((user) => user.accessToken);
    log(
      `connecting ${owners.length} sockets (${size.tabs} tabs per user) through ${topology.entryUrl}`,
    );
    const fleet = await connectFleet(topology.entryUrl, tokens(), 2, [], true);
    closeFleet = () => fleet.close();
    if (fleet.failed > 0) throw new Error(`${fleet.failed} sockets could not connect`);

    let driving = true;
    const refreshLoop = (async () => {
      for (let round = 0; round < 100 && driving; round += 1) {
        for (let waited = 0; waited < TOKEN_REFRESH_MS && driving; waited += 1000)
          await sleep(1000);
        if (!driving) break;
        await refreshTokens(stack, users).catch((error: unknown) =>
          log(`token refresh failed: ${(error as Error).message}`),
        );
        await fleet.setTokens(tokens());
      }
    })();

    const bffUrls = topology.instances
      .filter((instance) => instance.workspace === 'bff')
      .map((instance) => `http://127.0.0.1:${instance.port}`);
    const serviceUrls = topology.instances
      .filter((instance) => instance.workspace !== 'bff')
      .map((instance) => `http://127.0.0.1:${instance.port}`);
    const brokers = topology.components.kafka.brokers;
    const deadLettersBefore = await deadLetterOffsets(brokers);

    const durationMs = size.durationSeconds * 1000;
    const faults = faultSchedule(topology, {
      kafka: size.kafkaDownSeconds * 1000,
      redis: size.redisDownSeconds * 1000,
    });
    log('the fault schedule:');
    for (const fault of faults)
      log(`  at ${((fault.atFraction * durationMs) / 1000).toFixed(0)} s: ${fault.name}`);
    log(`driving ${size.changes} changes over ${size.durationSeconds} s`);
    const snapshots: DelaySnapshot[] = [await scrapeDelays(bffUrls)];
    const startedAt = Date.now();
    const firstFaultAt = startedAt + faults[0]!.atFraction * durationMs;
    const beforeFaults = sleep(firstFaultAt - Date.now() - 300).then(async () =>
      snapshots.push(await scrapeDelays(bffUrls)),
    );
    // The load goes on until the last fault has recovered and `afterMs` more have passed.
    let faultsDoneAt = Infinity;
    const afterMs = size.afterSeconds * 1000;
    const apiUrl = `${topology.entryUrl}/api`;
    const { creators, brands } = partiesOf(users);
    const [load, faultRecords, messageLoad, facts] = await Promise.all([
      driveChanges(users, {
        changes: size.changes,
        durationMs,
        continueAfter: () => Date.now() < faultsDoneAt + afterMs,
        maxInFlight: size.maxInFlight,
        entryUrl: topology.entryUrl,
        identityUrl: topology.identityUrl,
      }),
      runFaults(faults, startedAt, durationMs, log).then(async (records) => {
        await beforeFaults;
        snapshots.push(await scrapeDelays(bffUrls));
        faultsDoneAt = Date.now();
        return records;
      }),
      driveMessages(collaborations, {
        messages: size.messages,
        durationMs,
        continueAfter: () => Date.now() < faultsDoneAt + afterMs,
        maxInFlight: size.maxInFlight,
        apiUrl,
        retryForMs: MESSAGE_RETRY_MS,
      }),
      driveNotificationFacts(creators, brands, {
        offersUrl: topology.offersUrl,
        offers: size.offers,
        durationMs,
        applicantsPerOffer: size.applicantsPerOffer,
      }),
    ]);
    const drivenMs = Date.now() - startedAt;
    log(
      `sent ${load.sent}, acknowledged ${load.acknowledged.length} in ${(drivenMs / 1000).toFixed(0)} s`,
    );
    log(`messages sent ${messageLoad.sent}, acknowledged ${messageLoad.acknowledged.length}`);
    log(`offers opened ${facts.offers.length}, applications made ${facts.applications.length}`);

    // Settle: the clients catch up and the outbox drains (bounded).
    const settleStarted = Date.now();
    let verdict = compareWithTruth([], [], new Map(), []);
    let outboxPending = 0;
    let truth = await readTruth(users, topology);
    for (let round = 0; Date.now() - settleStarted < SETTLE_TIMEOUT_MS && round < 200; round += 1) {
      truth = await readTruth(users, topology);
      verdict = compareWithTruth(await fleet.records(), owners, truth, load.acknowledged);
      outboxPending = await highestGauge(serviceUrls, 'raly_outbox_pending');
      if (verdict.differing === 0 && outboxPending === 0) break;
      await sleep(3000);
    }
    driving = false;
    await refreshLoop;
    snapshots.push(await scrapeDelays(bffUrls));
    const sockets = await fleet.records();
    const stale = staleTimes(sockets, owners, load.acknowledged);
    const deadLetters = await readDeadLetters(brokers, deadLettersBefore, truth);
    const histories = new Map<string, CollaborationMessageRecord[]>();
    for (const collaboration of collaborations)
      histories.set(collaboration.id, await readHistory(apiUrl, collaboration));
    const notifications = await awaitNotifications(
      () =>
        checkNotifications(
          nativeEndpoints().databaseUrl('raly_notifications'),
          facts,
          creators.map((creator) => creator.userId),
          new Map(brands.map((brand) => [brand.brandId, [brand.userId]])),
        ),
      SETTLE_TIMEOUT_MS,
    );
    const messageCheck = checkMessages(
      collaborations,
      messageLoad.acknowledged,
      histories,
      sockets,
      owners,
    );
    const result = summarise({
      messageLoad,
      messageCheck,
      facts,
      notifications,
      size,
      load,
      faultRecords,
      sockets,
      verdict,
      outboxPending,
      stale,
      deadLetters,
      settleMs: Date.now() - settleStarted,
      phases: {
        before: delayPhase(snapshots[0]!, snapshots[1]!),
        during: delayPhase(snapshots[1]!, snapshots[2]!),
        after: delayPhase(snapshots[2]!, snapshots[3]!),
      },
      startedAt,
    });
    await saveResults(size.name, result);
    return result.goalMet;
  } finally {
    await closeFleet();
    await deleteRunUsers(stack).catch(() => 0);
    await topology.stop();
  }
}

type SummaryInput = {
  size: ChaosSize;
  messageLoad: MessageLoadResult;
  messageCheck: MessageCheck;
  facts: NotificationFacts;
  notifications: NotificationCheck;
  load: Awaited<ReturnType<typeof driveChanges>>;
  faultRecords: FaultRecord[];
  sockets: Awaited<ReturnType<Awaited<ReturnType<typeof connectFleet>>['records']>>;
  verdict: ReturnType<typeof compareWithTruth>;
  outboxPending: number;
  stale: ReturnType<typeof staleTimes>;
  deadLetters: Awaited<ReturnType<typeof readDeadLetters>>;
  settleMs: number;
  phases: Record<'before' | 'during' | 'after', ReturnType<typeof delayPhase>>;
  startedAt: number;
};

/** `reason: count, …` summed over every socket, of its disconnections or of its refused handshakes. */
function reasonCounts(sockets: SummaryInput['sockets'], of: 'disconnects' | 'refusals'): string {
  const counts: Record<string, number> = {};
  for (const socket of sockets)
    for (const [reason, count] of Object.entries(socket[of] ?? {}))
      counts[reason] = (counts[reason] ?? 0) + count;
  return (
    Object.entries(counts)
      .map(([reason, count]) => `${reason}: ${count}`)
      .join(', ') || 'none'
  );
}

const seconds = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : 'never');

/** Prints the table and answers the result to save. */
function summarise(input: SummaryInput) {
  const { load, faultRecords, sockets, verdict, stale, deadLetters, phases } = input;
  const worstAfter = (from: number, to: number) =>
    Math.max(
      0,
      ...stale
        .filter((change) => change.at >= from && change.at < to)
        .map((change) => change.lagMs),
    );
  const faults = faultRecords.map((fault, index) => ({
    ...fault,
    atSeconds: Math.round((fault.injectedAt - input.startedAt) / 100) / 10,
    recoverySeconds: Math.round((fault.recoveredAt - fault.injectedAt) / 100) / 10,
    worstStaleMs: worstAfter(fault.injectedAt, faultRecords[index + 1]?.injectedAt ?? Infinity),
  }));
  const lags = stale.map((change) => change.lagMs).filter(Number.isFinite);
  const disconnected = sockets.filter((socket) => !socket.connected).length;
  const unsuperseded = deadLetters.filter((letter) => letter.superseded !== true).length;
  const rows: [string, string][] = [
    [
      'faults injected',
      String(faultRecords.filter((fault) => !fault.detail.startsWith('FAILED')).length),
    ],
    ['clients (sockets) / users', `${sockets.length} / ${input.size.creators + input.size.brands}`],
    [
      'changes sent',
      `${load.sent} (${Object.entries(load.byPath)
        .map(([path, count]) => `${path} ${count}`)
        .join(', ')})`,
    ],
    ['changes acknowledged', String(load.acknowledged.length)],
    [
      'changes refused or failed',
      Object.entries(load.failures)
        .map(([reason, count]) => `${reason}: ${count}`)
        .join(', ') || '0',
    ],
    ['LOST (acknowledged, a client ended below it)', String(verdict.lost)],
    ['client records differing from the database', String(verdict.differing)],
    [
      'duplicate pushes (a version again; ignored)',
      String(sockets.reduce((sum, socket) => sum + socket.duplicates, 0)),
    ],
    [
      'out-of-order pushes (lower version; ignored)',
      String(sockets.reduce((sum, socket) => sum + socket.outOfOrder, 0)),
    ],
    ['socket reconnections', String(sockets.reduce((sum, socket) => sum + socket.reconnects, 0))],
    ['disconnections by reason', reasonCounts(sockets, 'disconnects')],
    ['handshakes refused by reason (retried when unavailable)', reasonCounts(sockets, 'refusals')],
    ['clients disconnected at the end', String(disconnected)],
    [
      'ack → every tab: p50 / p99 / max',
      `${seconds(percentile(lags, 50))} / ${seconds(percentile(lags, 99))} / ${seconds(Math.max(0, ...stale.map((change) => change.lagMs)))}`,
    ],
    [
      'longest stale record after a fault',
      seconds(Math.max(0, ...faults.map((fault) => fault.worstStaleMs))),
    ],
    ['outbox rows left pending', String(input.outboxPending)],
    ['dead-lettered events (not superseded)', `${deadLetters.length} (${unsuperseded})`],
    ...messageRows(input.messageLoad, input.messageCheck),
    ...notificationRows(input.facts, input.notifications),
    ['settled after the last change in', seconds(input.settleMs)],
  ];
  const width = Math.max(...rows.map(([figure]) => figure.length));
  log('');
  log(
    'fault                                                         at       recovered  worst stale after',
  );
  for (const fault of faults)
    log(
      `${fault.name.padEnd(60)} ${`${fault.atSeconds} s`.padStart(7)}  ${`${fault.recoverySeconds} s`.padStart(8)}   ${seconds(fault.worstStaleMs)}`,
    );
  log('');
  for (const [figure, value] of rows) log(`${figure.padEnd(width)}  ${value}`);
  log('');
  log('live-push delay (event time → socket emit, all BFF replicas):');
  const countIn = (phase: DelayPhase, le: string) =>
    String(phase.buckets.find(([bound]) => bound === le)?.[1] ?? 0).padStart(8);
  const longest = [phases.before, phases.during, phases.after].reduce((a, b) =>
    b.buckets.length > a.buckets.length ? b : a,
  );
  log(
    `${'le (s)'.padEnd(8)} ${'before'.padStart(8)} ${'during'.padStart(8)} ${'after'.padStart(8)}`,
  );
  for (const [le] of longest.buckets)
    log(
      `${le.padEnd(8)} ${countIn(phases.before, le)} ${countIn(phases.during, le)} ${countIn(phases.after, le)}`,
    );
  for (const [phase, delays] of Object.entries(phases))
    log(`${phase}: ${delays.pushes} pushes, p50 ${delays.p50}, p99 ${delays.p99}`);
  for (const example of verdict.examples) log(`differs: ${example}`);
  for (const example of input.messageCheck.examples) log(`message: ${example}`);
  for (const example of input.notifications.examples) log(`notification: ${example}`);
  const messagesKept =
    input.messageCheck.acknowledged > 0 &&
    input.messageCheck.lost === 0 &&
    input.messageCheck.duplicates === 0;
  const notificationsKept =
    input.facts.offers.length > 0 &&
    input.notifications.lost === 0 &&
    input.notifications.duplicates === 0 &&
    input.notifications.inboxesDiffering === 0;
  const goalMet =
    notificationsKept &&
    verdict.lost === 0 &&
    verdict.differing === 0 &&
    disconnected === 0 &&
    input.outboxPending === 0 &&
    unsuperseded === 0 &&
    messagesKept;
  log(
    goalMet
      ? 'goal met: nothing lost, every client connected, outbox drained, every message and inbox item once'
      : 'GOAL MISSED',
  );
  return {
    size: input.size,
    rows: rows.map(([figure, value]) => ({ figure, value })),
    faults,
    sent: load.sent,
    acknowledged: load.acknowledged.length,
    failures: load.failures,
    lost: verdict.lost,
    differing: verdict.differing,
    differingExamples: verdict.examples,
    duplicates: sockets.reduce((sum, socket) => sum + socket.duplicates, 0),
    disconnected,
    sockets: sockets.length,
    outboxPending: input.outboxPending,
    deadLetters,
    messages: {
      sent: input.messageLoad.sent,
      acknowledged: input.messageCheck.acknowledged,
      unacknowledged: input.messageLoad.unacknowledged,
      retried: input.messageLoad.retried,
      failedAttempts: input.messageLoad.failedAttempts,
      foundStored: input.messageLoad.foundStored,
      lost: input.messageCheck.lost,
      duplicates: input.messageCheck.duplicates,
      pushedToEveryTab: input.messageCheck.pushedToEveryTab,
      caughtUp: input.messageCheck.caughtUp,
      examples: input.messageCheck.examples,
    },
    notifications: {
      offers: input.facts.offers.length,
      applications: input.facts.applications.length,
      failures: input.facts.failures,
      ...input.notifications,
    },
    delayHistogram: phases,
    goalMet,
  };
}

main().then(
  (goalMet) => process.exit(goalMet ? 0 : 1),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
