/**
 * `npm run bench -w bench -- offer-fanout` (or `npm run offer-fanout -w bench`):
 * the offer fan-out benchmark on its own. A brand opens an offer whose interests match
 * CREATORS × TABS connected sockets (default 1000 × 10 = 10,000; a tenth as
 * many more creators have other interests and must get nothing); prints how long
 * until the last socket had it, and the BFF's CPU and memory meanwhile, and
 * saves bench/results/offer-fanout.json. Needs the local stack
 * (`npm run stack -- up`); the apps run from their production bundles.
 */
import os from 'node:os';
import { startBenchSystem } from './bench-system';
import { measureOfferFanout } from './figures/offer-fanout';
import { saveResults } from './results';
import { deleteRunUsers } from './users';

const settings = {
  creators: Number(process.env.CREATORS ?? 1000),
  tabs: Number(process.env.TABS ?? 10),
  controlEvery: 10,
  timeoutMs: Number(process.env.BENCH_TIMEOUT_MS ?? 120_000),
};

const system = await startBenchSystem();
try {
  const result = await measureOfferFanout(system, settings);
  const rows: [string, string][] = [
    ['sockets that should get it (creators × tabs)', `${result.sockets.matching}`],
    ['sockets that got it', `${result.delivered}`],
    [
      'control sockets (other interests) that got it',
      `${result.controlReceived} of ${result.sockets.control}`,
    ],
    ['POST /api/offers (open: true) answered after', `${result.commandAnswerMs.toFixed(1)} ms`],
    ['first socket had it after', `${result.deliveryMs.first.toFixed(1)} ms`],
    ['p50 / p99', `${result.deliveryMs.p50.toFixed(1)} / ${result.deliveryMs.p99.toFixed(1)} ms`],
    ['LAST socket had it after', `${result.deliveryMs.last.toFixed(1)} ms`],
    ['BFF CPU from open to last delivery', `${result.bff.cpuMsDuringFanout.toFixed(0)} ms`],
    [
      'BFF RSS idle with the sockets / peak',
      `${result.bff.idleRssMiB} / ${result.bff.peakRssMiB} MiB`,
    ],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  process.stdout.write(`\nOffer fan-out (${os.cpus().length} cores)\n`);
  for (const [name, value] of rows) process.stdout.write(`  ${name.padEnd(width)}  ${value}\n`);
  await saveResults('offer-fanout', { settings, ...result });
  if (result.delivered < result.sockets.matching || result.controlReceived > 0)
    process.exitCode = 1;
} finally {
  await system.stop();
  process.stdout.write(
    `[bench] deleted ${await deleteRunUsers(system.stack)} users from Keycloak\n`,
  );
}
