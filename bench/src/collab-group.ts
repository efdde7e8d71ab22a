/**
 * The `collab` rows of `npm run bench`: collaborations opened through the
 * real APIs (./collaborations), both parties' tabs connected, messages at a
 * fixed rate (./figures/collab-messages); a warm-up round first (reported
 * apart, not in the table).
 */
import type { BenchSystem } from './bench-system';
import { brandMemberOf, openCollaborations, type BrandMember } from './open-collaborations';
import {
  awaitCollaborationsProjected,
  measureCollabMessages,
  type CollabMessagesResult,
} from './figures/collab-messages';
import { connectFleet } from './socket-fleet';
import { refreshTokens, registerBrand, registerCreators } from './users';

export interface CollabSettings {
  /** Creators × brands collaborations: each creator works with every brand. */
  creators: number;
  brands: number;
  /** Tabs each party's user has open. */
  tabs: number;
  /** Messages per second: the first is the table's; the others (e.g. lower, to find the knee) are reported apart. */
  rates: number[];
  seconds: number;
  warmUpSeconds: number;
}

export interface CollabGroupResult {
  settings: CollabSettings;
  /** How long opening the collaborations took (s). */
  seedSeconds: number;
  sockets: { connected: number; failed: number };
  warmUp?: CollabMessagesResult;
  measured: CollabMessagesResult;
  /** The rounds at the other rates, in order. */
  otherRates: CollabMessagesResult[];
}

/**
 * Registers the users, opens `creators × brands` collaborations, connects
 * every party's tabs and measures the messages.
 * @param log progress lines
 */
export async function runCollabGroup(
  system: BenchSystem,
  settings: CollabSettings,
  log: (line: string) => void,
): Promise<CollabGroupResult> {
  const seedStarted = Date.now();
  const creators = await registerCreators(
    system,
    settings.creators,
    () => ['AI'],
    'collab-creator',
  );
  const brands: BrandMember[] = [];
  for (let index = 0; index < settings.brands; index += 1)
    brands.push(await brandMemberOf(system.identityUrl, await registerBrand(system, index + 1)));
  // Tokens live 5 minutes, and registering takes minutes on a busy machine: fresh ones to open with.
  await refreshTokens(system.stack, [...creators, ...brands]);
  const pairs = creators.flatMap((creator) => brands.map((brand) => ({ creator, brand })));
  log(
    `opening ${pairs.length} collaborations (${creators.length} creators × ${brands.length} brands)`,
  );
  const collaborations = await openCollaborations(
    { offersUrl: system.offersUrl, collaborationsUrl: system.collaborationsUrl },
    pairs,
    { log, refreshTokens: () => refreshTokens(system.stack, [...creators, ...brands]) },
  );
  await awaitCollaborationsProjected(system);
  const seedSeconds = (Date.now() - seedStarted) / 1000;
  log(`opened ${collaborations.length} collaborations in ${seedSeconds.toFixed(1)} s`);
  // Tokens live 5 minutes: fresh ones for the tabs and the sends.
  await refreshTokens(system.stack, [...creators, ...brands]);
  const tabsOf = (users: { accessToken: string }[]) =>
    users.flatMap((user) => Array<string>(settings.tabs).fill(user.accessToken));
  const creatorTabs = await connectFleet(system.bff.url, tabsOf(creators), 1);
  const brandTabs = await connectFleet(system.bff.url, tabsOf(brands), 1);
  const sockets = {
    connected: creatorTabs.connected + brandTabs.connected,
    failed: creatorTabs.failed + brandTabs.failed,
  };
  log(`connected ${sockets.connected} sockets (${sockets.failed} refused)`);
  try {
    const round = (ratePerSecond: number, durationSeconds: number) =>
      measureCollabMessages(system, collaborations, creatorTabs, brandTabs, {
        ratePerSecond,
        durationSeconds,
        tabs: settings.tabs,
      });
    const [rate, ...otherRates] = settings.rates as [number, ...number[]];
    let warmUp: CollabMessagesResult | undefined;
    if (settings.warmUpSeconds > 0) {
      warmUp = await round(rate, settings.warmUpSeconds);
      log(`collab warm-up ${rate}/s ${JSON.stringify(warmUp)}`);
    }
    const rounds: CollabMessagesResult[] = [];
    for (const each of [rate, ...otherRates]) {
      rounds.push(await round(each, settings.seconds));
      log(`collab ${each}/s ${JSON.stringify(rounds.at(-1))}`);
    }
    const [measured, ...others] = rounds as [CollabMessagesResult, ...CollabMessagesResult[]];
    return {
      settings,
      seedSeconds,
      sockets,
      ...(warmUp ? { warmUp } : {}),
      measured,
      otherRates: others,
    };
  } finally {
    await creatorTabs.close();
    await brandTabs.close();
  }
}

/** One row of the suite's table. */
interface Row {
  figure: string;
  measured: string;
  target: string;
  met: boolean;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** Target of the message latency: p99 from the send to the other party's tab (ms). */
export const COLLAB_P99_TARGET_MS = 100;

/** The processes a message passes through, in the order of its path, as the CPU row names them. */
const pathProcesses = ['bff', 'collaborations', 'identity-profile'] as const;
/** The shared stack's processes on the path (their CPU counts every client's work). */
const stackProcesses = ['postgres', 'kafka', 'redis-server'] as const;

/** The group's rows: the latency beside its target, and the CPU per message of each process on the path. */
export function collabRows(result: CollabGroupResult): Row[] {
  const { measured, settings } = result;
  const cpu = (name: string) => ms(measured.cpuMsPerMessage[name] ?? 0);
  return [
    {
      figure: `collaboration message → the other party's tabs, ${measured.collaborations} open collaborations, ${settings.rates[0]}/s`,
      measured: `p50 ${ms(measured.latencyMs.p50)}, p99 ${ms(measured.latencyMs.p99)} (${measured.arrived}/${measured.expected} arrived; ${measured.achievedRate.toFixed(0)}/s sent, ${measured.failed} refused)`,
      target: `p99 ≤ ${COLLAB_P99_TARGET_MS} ms`,
      met:
        measured.latencyMs.p99 <= COLLAB_P99_TARGET_MS &&
        measured.failed === 0 &&
        measured.arrived === measured.expected,
    },
    {
      figure: `CPU per message: ${pathProcesses.join(' / ')} (shared stack: ${stackProcesses.join(' / ')})`,
      measured: `${pathProcesses.map(cpu).join(' / ')} (${stackProcesses.map(cpu).join(' / ')})`,
      target: 'reported (no target)',
      met: true,
    },
  ];
}
