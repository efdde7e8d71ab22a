/**
 * The per-unit costs the capacity plan is built from (docs/capacity.md): CPU
 * per live update, per GET /api/me, per collaboration message and per offer
 * delivery; memory per idle socket; the projector's event rate. Each is read
 * from the newest bench result that holds it (bench/results/suite.json,
 * suite-partial.json, offer-fanout.json, written by ../results.ts) or, when
 * no result holds it, from the figures committed in docs/benchmarks.md
 * ({@link BASELINE}). Every figure keeps where it came from.
 */

/** Where a figure came from: the file, its commit and time, and which part of it. */
export interface FigureSource {
  /** e.g. `bench/results/suite.json` or `docs/benchmarks.md`. */
  file: string;
  /** Commit the figure was measured on ('' for a committed baseline figure). */
  commit: string;
  /** ISO time of the measurement ('' for a committed baseline figure). */
  measuredAt: string;
  /** Which figure of the file, in words. */
  figure: string;
}

/** CPU in ms per operation of each process on its path (the local stack's processes included). */
export interface CpuPerOperation {
  bff: number;
  identity: number;
  postgres: number;
  kafka: number;
  redis: number;
}

export interface UnitCosts {
  /** A profile change through the BFF to the user's tabs (PATCH /api/me), at the first live rate. */
  liveUpdate: {
    cpuMs: CpuPerOperation & { offers: number };
    /** Redis commands per update, all kinds summed. */
    redisCommands: number;
    /** The rate it was measured at (updates/s). */
    ratePerSecond: number;
    source: FigureSource;
  };
  /** GET /api/me: the BFF's CPU per request. */
  httpRequest: { bffCpuMs: number; source: FigureSource };
  /** A collaboration message, send → the other party's tabs. */
  message: { cpuMs: CpuPerOperation & { collaborations: number }; source: FigureSource };
  /** Idle authenticated sockets on one BFF. */
  socket: {
    /** RSS added per socket (KiB): (highest RSS while idle − RSS before) ÷ sockets. */
    kibPerSocket: number;
    /** RSS of a BFF that served the busy figures, without sockets (MiB). */
    bffBaseRssMiB: number;
    sockets: number;
    highestRssMiB: number;
    source: FigureSource;
  };
  /** One open offer pushed to every matching creator socket. */
  offerFanout: {
    /** BFF CPU per socket delivered (ms). */
    bffCpuMsPerDelivery: number;
    deliveredSockets: number;
    /** Open → last socket had it (ms). */
    lastDeliveryMs: number;
    source: FigureSource;
  };
  /** The BFF's projector replaying the topics: steady events per second of one consumer. */
  projector: { eventsPerSecond: number; source: FigureSource };
}

/** The bench result files the costs are read from, parsed (undefined when absent). */
export interface ResultFiles {
  /** bench/results/suite.json: the last full run. */
  suite?: BenchResult;
  /** bench/results/suite-partial.json: the last `--only` run. */
  partial?: BenchResult;
  /** bench/results/offer-fanout.json. */
  offerFanout?: BenchResult;
}

/** A result file as ../results.ts writes it: provenance plus the groups' results. */
export type BenchResult = { measuredAt: string; commit: string; smoke?: boolean } & Record<
  string,
  unknown
>;

const docs = (figure: string): FigureSource => ({
  file: 'docs/benchmarks.md',
  commit: '',
  measuredAt: '',
  figure,
});

/**
 * The committed figures of docs/benchmarks.md, used for a cost no result file on this machine
 * holds. Where the table has no figure for a process, the nearest one the hand-written part gives
 * is taken, as each source says.
 */
export const BASELINE: UnitCosts = {
  liveUpdate: {
    cpuMs: { bff: 3.6, identity: 2.9, postgres: 1.5, kafka: 0.9, redis: 0.16, offers: 0.7 },
    redisCommands: 5,
    ratePerSecond: 100,
    source: docs(
      'table "CPU per PATCH: BFF / identity-profile" (100/s); postgres, kafka, offers from "Where the live path\'s time goes" (200/s); redis-server from the collaboration messages; Redis commands: HGET, EVALSHA, PUBLISH, MGET, HSET',
    ),
  },
  httpRequest: {
    bffCpuMs: 0.146,
    source: docs('table "GET /api/me throughput ÷ bare express": CPU per request'),
  },
  message: {
    cpuMs: {
      bff: 2.66,
      collaborations: 9.1,
      identity: 0.7,
      postgres: 2.4,
      kafka: 0.4,
      redis: 0.16,
    },
    source: docs(
      '"Collaboration messages": collaborations, identity-profile, postgres after "A send in six statements"; bff, kafka, redis-server from the first measurements',
    ),
  },
  socket: {
    kibPerSocket: ((294 - 108.2) * 1024) / 10_000,
    bffBaseRssMiB: 170.3,
    sockets: 10_000,
    highestRssMiB: 294,
    source: docs('table "10000 authenticated idle sockets, one BFF"'),
  },
  offerFanout: {
    bffCpuMsPerDelivery: 250 / 10_000,
    deliveredSockets: 10_000,
    lastDeliveryMs: 362.1,
    source: {
      file: 'bench/results/offer-fanout.json',
      commit: '003c93c',
      measuredAt: '2026-11-24T01:38:46.952Z',
      figure: 'as committed: 10,000 sockets, 250 ms of BFF CPU',
    },
  },
  projector: {
    eventsPerSecond: 49_490,
    source: docs('table "BFF event projector, replaying the topics": steady rate'),
  },
};

type Json = Record<string, unknown>;
const record = (value: unknown): Json | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : undefined;
const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The result files that hold `group`, newest first; smoke runs never count. */
function holding(files: ResultFiles, group: string): { result: BenchResult; file: string }[] {
  return [
    { result: files.suite, file: 'bench/results/suite.json' },
    { result: files.partial, file: 'bench/results/suite-partial.json' },
  ]
    .filter(
      (entry): entry is { result: BenchResult; file: string } =>
        entry.result !== undefined && entry.result.smoke !== true && group in entry.result,
    )
    .sort((a, b) => b.result.measuredAt.localeCompare(a.result.measuredAt));
}

const sourceOf = (result: BenchResult, file: string, figure: string): FigureSource => ({
  file,
  commit: result.commit,
  measuredAt: result.measuredAt,
  figure,
});

/**
 * The first value `read` can take from the files holding `group` (newest first), else the
 * baseline's.
 */
function newest<T>(
  files: ResultFiles,
  group: string,
  read: (value: unknown, result: BenchResult, file: string) => T | undefined,
  fallback: T,
): T {
  for (const { result, file } of holding(files, group)) {
    const taken = read(result[group], result, file);
    if (taken !== undefined) return taken;
  }
  return fallback;
}

/** CPU per operation of each process from a `machineCpuMsPerUpdate`-like map (ms). */
function cpuFrom(map: Json | undefined): CpuPerOperation | undefined {
  if (!map) return undefined;
  const bff = num(map.bff);
  const identity = num(map['identity-profile']);
  if (bff === undefined || identity === undefined) return undefined;
  return {
    bff,
    identity,
    postgres: num(map.postgres) ?? 0,
    kafka: num(map.kafka) ?? 0,
    redis: num(map['redis-server']) ?? 0,
  };
}

/**
 * The unit costs from the bench's result files, each from the newest file that holds it, else
 * from {@link BASELINE}.
 * @param files the parsed result files (any may be missing)
 * @returns every cost with its source
 */
export function unitCostsFrom(files: ResultFiles): UnitCosts {
  const liveUpdate = newest(
    files,
    'live',
    (value, result, file) => {
      const first = record(Array.isArray(value) ? value[0] : undefined);
      const cpu = cpuFrom(record(first?.machineCpuMsPerUpdate));
      const rates = record(result.settings)?.rates;
      const rate = num(Array.isArray(rates) ? rates[0] : undefined);
      if (!first || !cpu) return undefined;
      const commands = Object.values(record(first.redisCommandsPerUpdate) ?? {})
        .map(num)
        .reduce<number>((sum, count) => sum + (count ?? 0), 0);
      return {
        cpuMs: { ...cpu, offers: num(record(first.machineCpuMsPerUpdate)!.offers) ?? 0 },
        redisCommands: commands,
        ratePerSecond: rate ?? num(first.achievedRate) ?? 0,
        source: sourceOf(
          result,
          file,
          `live[0] (PATCH /api/me at ${rate}/s): machineCpuMsPerUpdate, redisCommandsPerUpdate`,
        ),
      };
    },
    BASELINE.liveUpdate,
  );
  const httpRequest = newest(
    files,
    'http',
    (value, result, file) => {
      const bffCpuMs = num(record(record(value)?.cpuMsPerRequest)?.bff);
      return bffCpuMs === undefined
        ? undefined
        : { bffCpuMs, source: sourceOf(result, file, 'http.cpuMsPerRequest.bff') };
    },
    BASELINE.httpRequest,
  );
  const message = newest(
    files,
    'collab',
    (value, result, file) => {
      const map = record(record(record(value)?.measured)?.cpuMsPerMessage);
      const cpu = cpuFrom(map);
      const collaborations = num(map?.collaborations);
      return !cpu || collaborations === undefined
        ? undefined
        : {
            cpuMs: { ...cpu, collaborations },
            source: sourceOf(result, file, 'collab.measured.cpuMsPerMessage'),
          };
    },
    BASELINE.message,
  );
  const socket = newest(
    files,
    'idle',
    (value, result, file) => {
      const idle = record(value);
      const steps = idle?.steps;
      const step = record(Array.isArray(steps) ? steps[0] : undefined);
      const sockets = num(step?.sockets);
      const highest = num(step?.rssMiB);
      const before = num(idle?.rssBeforeMiB);
      const base = num(record(idle?.servedBff)?.rssMiB);
      if (!sockets || highest === undefined || before === undefined) return undefined;
      return {
        kibPerSocket: ((highest - before) * 1024) / sockets,
        bffBaseRssMiB: base ?? before,
        sockets,
        highestRssMiB: highest,
        source: sourceOf(
          result,
          file,
          'idle.steps[0] (highest RSS), idle.rssBeforeMiB, idle.servedBff.rssMiB',
        ),
      };
    },
    BASELINE.socket,
  );
  const projector = newest(
    files,
    'replay',
    (value, result, file) => {
      const eventsPerSecond = num(record(value)?.steadyEventsPerSecond);
      return eventsPerSecond === undefined
        ? undefined
        : { eventsPerSecond, source: sourceOf(result, file, 'replay.steadyEventsPerSecond') };
    },
    BASELINE.projector,
  );
  return { liveUpdate, httpRequest, message, socket, offerFanout: fanoutFrom(files), projector };
}

/** The offer fan-out's cost from bench/results/offer-fanout.json, else the baseline's. */
function fanoutFrom(files: ResultFiles): UnitCosts['offerFanout'] {
  const result = files.offerFanout;
  const delivered = num(result?.delivered);
  const cpuMs = num(record(result?.bff)?.cpuMsDuringFanout);
  const last = num(record(result?.deliveryMs)?.last);
  if (!result || !delivered || cpuMs === undefined || last === undefined)
    return BASELINE.offerFanout;
  return {
    bffCpuMsPerDelivery: cpuMs / delivered,
    deliveredSockets: delivered,
    lastDeliveryMs: last,
    source: sourceOf(
      result,
      'bench/results/offer-fanout.json',
      'bff.cpuMsDuringFanout ÷ delivered',
    ),
  };
}
