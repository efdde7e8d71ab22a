/**
 * Collaboration messages: open collaborations whose two parties each have
 * tabs connected, messages sent open-loop at a fixed rate through the BFF
 * (`POST /api/collaborations/:id/messages` with a client-made id), each one
 * by the creator or the brand in turn; how long until it reaches every tab
 * of the other party (BFF → collaborations → outbox → Kafka → BFF projector
 * → socket.io), and the CPU each process on that path spent per message
 * (docs/benchmarks.md).
 */
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { topics } from '@raly/contracts/events';
import { liveEvents } from '@raly/contracts/live';
import { sleep } from '@raly/test-support';
import type { BenchSystem } from '../bench-system';
import type { OpenCollaboration, SenderParty } from '../open-collaborations';
import { waitForCaughtUp } from '../kafka-lag';
import { cpuByProcessGroup } from '../process-usage';
import type { SocketFleet } from '../socket-fleet';
import { nowMs, percentile, perUpdate } from '../stats';

export interface CollabMessagesSettings {
  /** Messages per second over all collaborations. */
  ratePerSecond: number;
  durationSeconds: number;
  /** Tabs (sockets) each party's user has open: in `creatorTabs` and `brandTabs`. */
  tabs: number;
}

export interface CollabMessagesResult {
  /** Messages per second asked for. */
  rate: number;
  collaborations: number;
  sent: number;
  /** Sends not answered 2xx. */
  failed: number;
  /** Messages per second actually sent. */
  achievedRate: number;
  /** Arrivals in the other party's tabs expected (accepted sends × tabs) and seen. */
  expected: number;
  arrived: number;
  /** Send → the other party's tab, every tab (ms). */
  latencyMs: { p50: number; p99: number; max: number };
  /** The POST's answer (ms). */
  answerMs: { p50: number; p99: number };
  /**
   * CPU per message of each process group on the machine while the messages
   * were sent and delivered (ms; ../process-usage cpuByProcessGroup): the apps
   * by name (`bff`, `collaborations`, `identity-profile`…), the bench's own
   * sender and socket workers, postgres, kafka, redis-server… (the stack is
   * shared: its groups count every client's work), largest first.
   */
  cpuMsPerMessage: Record<string, number>;
}

/** The sender's connections: node's HTTP client on kept-alive sockets (as ./live-latency's). */
const senderAgent = new Agent({ keepAlive: true, maxSockets: Infinity });

/** POSTs a JSON body and reads the whole answer. @returns the status @throws on a connection error */
function postJson(url: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, {
      method: 'POST',
      agent: senderAgent,
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      },
    });
    outgoing.on('response', (answer) => {
      answer.on('end', () => resolve(answer.statusCode ?? 0));
      answer.on('error', reject);
      answer.resume();
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** The party that sends the `index`th message: creator and brand in turn, each collaboration both ways. */
export function senderOf(index: number, collaborations: number): SenderParty {
  return (index + Math.floor(index / collaborations)) % 2 === 0 ? 'creator' : 'brand';
}

/**
 * Waits until the BFF has projected the collaborations (their `collaboration.opened`
 * events), so it knows whose rooms each message goes to.
 */
export async function awaitCollaborationsProjected(system: BenchSystem): Promise<void> {
  await waitForCaughtUp(system.stack.kafkaBrokers, system.bffGroupId, [
    topics.collaborationsCollaboration,
  ]);
}

/**
 * Sends `ratePerSecond × durationSeconds` messages, collaboration after
 * collaboration, and measures their arrival in every tab of the other party.
 * @param creatorTabs sockets of the creators, `tabs` each, already connected
 * @param brandTabs sockets of the brands' members, `tabs` each, already connected
 */
export async function measureCollabMessages(
  system: BenchSystem,
  collaborations: OpenCollaboration[],
  creatorTabs: SocketFleet,
  brandTabs: SocketFleet,
  settings: CollabMessagesSettings,
): Promise<CollabMessagesResult> {
  await creatorTabs.watch(liveEvents.message, 'clientId');
  await brandTabs.watch(liveEvents.message, 'clientId');
  const total = Math.round(settings.ratePerSecond * settings.durationSeconds);
  const intervalMs = 1000 / settings.ratePerSecond;
  /** Per client id: when it was sent and who sent it. */
  const sent = new Map<string, { at: number; by: SenderParty }>();
  const answers: number[] = [];
  const groups = {
    bff: [system.bff.pid],
    ...Object.fromEntries(Object.entries(system.processes).map(([name, app]) => [name, [app.pid]])),
    'bench sender': [process.pid],
    'bench socket workers': [...creatorTabs.pids, ...brandTabs.pids],
  };
  const cpuBefore = cpuByProcessGroup(groups);
  let failed = 0;
  const inFlight: Promise<void>[] = [];
  const started = nowMs();
  for (let index = 0; index < total; index += 1) {
    const due = started + index * intervalMs;
    const wait = due - nowMs();
    if (wait > 1) await sleep(wait);
    const collaboration = collaborations[index % collaborations.length]!;
    const by = senderOf(index, collaborations.length);
    const sender = by === 'creator' ? collaboration.creator : collaboration.brand;
    const clientId = randomUUID();
    const at = nowMs();
    sent.set(clientId, { at, by });
    inFlight.push(
      postJson(
        `${system.bff.url}/api/collaborations/${collaboration.id}/messages`,
        { authorization: `Bearer ${sender.accessToken}` },
        JSON.stringify({ clientId, body: `Benchmark message ${index}` }),
      )
        .then((status) => {
          if (status < 200 || status > 299) {
            failed += 1;
            sent.delete(clientId);
          } else answers.push(nowMs() - at);
        })
        .catch(() => {
          failed += 1;
          sent.delete(clientId);
        }),
    );
  }
  const sendSeconds = (nowMs() - started) / 1000;
  await Promise.all(inFlight);
  const expected = (total - failed) * settings.tabs;
  const latencies: number[] = [];
  const deadline = Date.now() + 30_000;
  const count = (arrivals: [string, number][], to: SenderParty) => {
    for (const [clientId, at] of arrivals) {
      const message = sent.get(clientId);
      // A sender's own tabs get its message too: only the other party's count.
      if (message && message.by !== to) latencies.push(at - message.at);
    }
  };
  while (latencies.length < expected && Date.now() < deadline) {
    count(await creatorTabs.collect(), 'creator');
    count(await brandTabs.collect(), 'brand');
    if (latencies.length < expected) await sleep(100);
  }
  const cpuAfter = cpuByProcessGroup(groups);
  return {
    rate: settings.ratePerSecond,
    collaborations: collaborations.length,
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
    answerMs: { p50: percentile(answers, 50), p99: percentile(answers, 99) },
    cpuMsPerMessage: perUpdate(cpuBefore, cpuAfter, Math.max(1, total - failed), 0.01),
  };
}
