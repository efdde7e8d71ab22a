/**
 * Issue 10's live path: a change to a user record reaching that user's open
 * tabs. Updates are sent open-loop at a fixed rate (each creator in turn),
 * either through the BFF (`PATCH /api/me`: command answer → push) or straight
 * to identity-profile (`PATCH /users/me`: outbox → Kafka → BFF projector →
 * push); every tab of the user records when the new phone number arrived.
 * Also the CPU each process spent per update.
 */
import { liveEvents } from '@raly/contracts/live';
import { sleep } from '@raly/test-support';
import type { BenchSystem } from '../bench-system';
import { cpuTimeMs } from '../process-usage';
import type { SocketFleet } from '../socket-fleet';
import { nowMs, percentile } from '../stats';
import type { BenchUser } from '../users';

export interface LiveLatencySettings {
  /** Updates per second over all creators. */
  ratePerSecond: number;
  durationSeconds: number;
  /** `bff`: PATCH /api/me; `service`: PATCH identity-profile's /users/me (the Kafka path). */
  via: 'bff' | 'service';
  /** Tabs (sockets) each creator has open in `fleet`. */
  tabs: number;
}

export interface LiveLatencyResult {
  sent: number;
  failed: number;
  /** Updates per second actually sent. */
  achievedRate: number;
  /** Arrivals expected (sent × tabs) and seen. */
  expected: number;
  arrived: number;
  latencyMs: { p50: number; p99: number; max: number };
  cpuMsPerUpdate: { bff: number; identity: number };
}

let sequence = 0;

/**
 * Sends `ratePerSecond × durationSeconds` updates and measures their arrival in every tab.
 * @param fleet sockets of `creators`, `tabs` each, already connected
 */
export async function measureLiveLatency(
  system: BenchSystem,
  creators: BenchUser[],
  fleet: SocketFleet,
  settings: LiveLatencySettings,
): Promise<LiveLatencyResult> {
  await fleet.watch(liveEvents.user, 'phoneNumber');
  const total = Math.round(settings.ratePerSecond * settings.durationSeconds);
  const intervalMs = 1000 / settings.ratePerSecond;
  const sentAt = new Map<string, number>();
  const identityPid = system.processes['identity-profile'].pid;
  const cpuBefore = { bff: cpuTimeMs(system.bff.pid), identity: cpuTimeMs(identityPid) };
  let failed = 0;
  const inFlight: Promise<void>[] = [];
  const started = nowMs();
  for (let index = 0; index < total; index += 1) {
    const due = started + index * intervalMs;
    const wait = due - nowMs();
    if (wait > 1) await sleep(wait);
    const creator = creators[index % creators.length]!;
    sequence += 1;
    const phoneNumber = `+1555${String(sequence).padStart(7, '0')}`;
    const [url, path] =
      settings.via === 'bff' ? [system.bff.url, '/api/me'] : [system.identityUrl, '/users/me'];
    sentAt.set(phoneNumber, nowMs());
    inFlight.push(
      fetch(`${url}${path}`, {
        method: 'PATCH',
        headers: {
          authorization: `Bearer ${creator.accessToken}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ phoneNumber }),
      })
        .then(async (answer) => {
          await answer.arrayBuffer();
          if (!answer.ok) failed += 1;
        })
        .catch(() => {
          failed += 1;
        }),
    );
  }
  const sendSeconds = (nowMs() - started) / 1000;
  await Promise.all(inFlight);
  const expected = (total - failed) * settings.tabs;
  const latencies: number[] = [];
  const deadline = Date.now() + 30_000;
  while (latencies.length < expected && Date.now() < deadline) {
    for (const [value, at] of await fleet.collect()) {
      const sent = sentAt.get(value);
      if (sent !== undefined) latencies.push(at - sent);
    }
    if (latencies.length < expected) await sleep(100);
  }
  const cpu = { bff: cpuTimeMs(system.bff.pid), identity: cpuTimeMs(identityPid) };
  return {
    sent: total,
    failed,
    achievedRate: total / sendSeconds,
    expected,
    arrived: latencies.length,
    latencyMs: {
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: Math.max(...latencies),
    },
    cpuMsPerUpdate: {
      bff: (cpu.bff - cpuBefore.bff) / total,
      identity: (cpu.identity - cpuBefore.identity) / total,
    },
  };
}
