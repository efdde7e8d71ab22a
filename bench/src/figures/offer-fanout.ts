/**
 * The offers' live routing under load: a brand opens an offer whose interests
 * match every connected creator socket but a control group's; how long until
 * the last matching socket has it, and what the BFF spends meanwhile.
 */
import type { Interest } from '@raly/contracts/constants';
import { topics } from '@raly/contracts/events';
import { liveEvents } from '@raly/contracts/live';
import type { OfferRecord } from '@raly/contracts/offers';
import { callApi, sleep } from '@raly/test-support';
import type { BenchSystem } from '../bench-system';
import { waitForCaughtUp } from '../kafka-lag';
import { cpuTimeMs, residentBytes, sampleResidentPeak } from '../process-usage';
import { connectFleet } from '../socket-fleet';
import { mib, nowMs, percentile } from '../stats';
import { refreshTokens, registerBrand, registerCreators, runMarker } from '../users';

/** The form of an open offer in one interest (`POST /api/offers`). */
export const openOfferForm = (interest: Interest, title: string, brief: string) => ({
  title,
  brief,
  interests: [interest],
  platforms: ['x'],
  deliverables: 'One post',
  compensation: { kind: 'fixed', amountMinor: 10_000, currency: 'USD' },
  creatorsWanted: 10,
  applyBy: new Date(Date.now() + 7 * 86_400_000).toISOString(),
  open: true,
});

export interface OfferFanoutSettings {
  /** Creators registered and onboarded whose interests match the offer. */
  creators: number;
  /** Sockets per creator. */
  tabs: number;
  /** One control creator (other interests, must get nothing) per this many matching ones. */
  controlEvery: number;
  /** Longest wait for the deliveries, ms. */
  timeoutMs: number;
}

export interface OfferFanoutResult {
  sockets: { matching: number; control: number; failed: number };
  delivered: number;
  controlReceived: number;
  commandAnswerMs: number;
  deliveryMs: { first: number; p50: number; p99: number; last: number };
  bff: { cpuMsDuringFanout: number; idleRssMiB: number; peakRssMiB: number };
}

/** Registers the users, connects the sockets, opens one offer and measures its fan-out. */
export async function measureOfferFanout(
  system: BenchSystem,
  settings: OfferFanoutSettings,
): Promise<OfferFanoutResult> {
  const controls = Math.ceil(settings.creators / settings.controlEvery);
  const isControl = (index: number) => index >= settings.creators;
  const brand = await registerBrand(system);
  // Their own addresses: the suite's live group registered `creator-<n>` of this run already.
  const creators = await registerCreators(
    system,
    settings.creators + controls,
    (index) => (isControl(index) ? ['Sports'] : ['Gaming', 'AI']),
    'fanout-creator',
  );
  await waitForCaughtUp(system.stack.kafkaBrokers, system.bffGroupId, [topics.identityUser]);
  await refreshTokens(system.stack, creators);
  const tabsOf = (list: typeof creators) =>
    list.flatMap((creator) => Array<string>(settings.tabs).fill(creator.accessToken));
  const matching = await connectFleet(
    system.bff.url,
    tabsOf(creators.filter((_, index) => !isControl(index))),
  );
  const control = await connectFleet(
    system.bff.url,
    tabsOf(creators.filter((_, index) => isControl(index))),
    1,
  );
  try {
    await sleep(3000);
    const idleRss = residentBytes(system.bff.pid);
    const title = `Fan-out ${runMarker}`;
    await matching.watch(liveEvents.offer, 'title');
    await control.watch(liveEvents.offer, 'title');
    const rss = sampleResidentPeak(system.bff.pid);
    const cpuBefore = cpuTimeMs(system.bff.pid);
    const openedAt = nowMs();
    const opened = await callApi<OfferRecord>(system.bff.url, 'POST', '/api/offers', {
      token: brand.accessToken,
      body: openOfferForm(
        'Gaming',
        title,
        'A benchmark offer that every matching creator should see live, at once.',
      ),
    });
    const commandAnswerMs = nowMs() - openedAt;
    if (opened.status !== 201) throw new Error(`opening the offer: ${JSON.stringify(opened.body)}`);
    const arrivals: number[] = [];
    const deadline = Date.now() + settings.timeoutMs;
    while (arrivals.length < matching.connected && Date.now() < deadline) {
      for (const [value, at] of await matching.collect()) if (value === title) arrivals.push(at);
      if (arrivals.length < matching.connected) await sleep(20);
    }
    const cpuMs = cpuTimeMs(system.bff.pid) - cpuBefore;
    const peakRss = rss.stop();
    await sleep(1000);
    const controlReceived = (await control.collect()).filter(([value]) => value === title).length;
    const delays = arrivals.map((at) => at - openedAt);
    return {
      sockets: {
        matching: matching.connected,
        control: control.connected,
        failed: matching.failed + control.failed,
      },
      delivered: arrivals.length,
      controlReceived,
      commandAnswerMs,
      deliveryMs: {
        first: Math.min(...delays),
        p50: percentile(delays, 50),
        p99: percentile(delays, 99),
        last: Math.max(...delays),
      },
      bff: { cpuMsDuringFanout: cpuMs, idleRssMiB: mib(idleRss), peakRssMiB: mib(peakRss) },
    };
  } finally {
    await matching.close();
    await control.close();
  }
}
