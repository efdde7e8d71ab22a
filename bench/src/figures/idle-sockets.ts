/**
 * Memory of one BFF holding many authenticated, idle sockets: its RSS after
 * they are all connected and a few quiet seconds, beside its RSS before.
 */
import { sleep } from '@raly/test-support';
import type { BenchSystem } from '../bench-system';
import { residentBytes } from '../process-usage';
import { connectFleet } from '../socket-fleet';
import { mib } from '../stats';

export interface IdleSocketsResult {
  sockets: number;
  failed: number;
  rssBeforeMiB: number;
  rssWithSocketsMiB: number;
}

/** @param tokens one access token per socket (repeat for tabs) */
export async function measureIdleSockets(
  system: BenchSystem,
  tokens: string[],
): Promise<IdleSocketsResult> {
  const before = residentBytes(system.bff.pid);
  const fleet = await connectFleet(system.bff.url, tokens, 2);
  try {
    await sleep(5000);
    return {
      sockets: fleet.connected,
      failed: fleet.failed,
      rssBeforeMiB: mib(before),
      rssWithSocketsMiB: mib(residentBytes(system.bff.pid)),
    };
  } finally {
    await fleet.close();
  }
}
