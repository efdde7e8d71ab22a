/**
 * The readiness gate of `npm start`: polls each app's readiness probe (an
 * HTTP GET that answers 2xx once the app can serve) until all answer or the
 * time is up, saying what it waits for while it waits.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { httpAnswers } from '../stack/probes';
import { formatDelay } from './supervisor';
import type { TextSink } from '../cli/workspaces';

/** One app's readiness probe, e.g. `{ name: 'media', url: 'http://127.0.0.1:4003/health/ready' }`. */
export interface ReadinessProbe {
  name: string;
  url: string;
}

export interface ReadinessOptions {
  /** Gives up after this long (ms). */
  timeoutMs: number;
  /** Pause between two rounds of probes (ms, default 500). */
  intervalMs?: number;
  /** How often to repeat which apps it still waits for (ms, default 15 s). */
  reportEveryMs?: number;
  /** Aborting ends the wait early (e.g. Ctrl-C); the apps not ready by then are returned. */
  signal?: AbortSignal;
  /** Where the progress lines go (default process.stdout). */
  output?: TextSink;
}

function names(probes: readonly ReadinessProbe[]): string {
  return probes.map((probe) => probe.name).join(', ');
}

/**
 * Waits until every probe answers 2xx. Resolves with the probes that did not
 * answer before `timeoutMs` (empty when all are ready); never rejects.
 */
export async function waitUntilReady(
  probes: readonly ReadinessProbe[],
  options: ReadinessOptions,
): Promise<ReadinessProbe[]> {
  const output = options.output ?? process.stdout;
  const startedAt = Date.now();
  const reportEveryMs = options.reportEveryMs ?? 15_000;
  let lastReport = startedAt;
  let pending = [...probes];
  output.write(
    `waiting for ${names(pending)} to answer their readiness probes (up to ${formatDelay(options.timeoutMs)})…\n`,
  );
  while (pending.length > 0 && !options.signal?.aborted) {
    const answers = await Promise.all(pending.map((probe) => httpAnswers(probe.url)));
    const ready = pending.filter((_, index) => answers[index]);
    pending = pending.filter((_, index) => !answers[index]);
    if (ready.length > 0 && pending.length > 0)
      output.write(`ready: ${names(ready)}; still waiting for ${names(pending)}\n`);
    if (pending.length === 0) break;
    const now = Date.now();
    if (now - startedAt >= options.timeoutMs) break;
    if (now - lastReport >= reportEveryMs) {
      lastReport = now;
      output.write(
        `still waiting for ${pending.map((probe) => `${probe.name} (${probe.url})`).join(', ')} after ${formatDelay(now - startedAt)}\n`,
      );
    }
    try {
      await sleep(options.intervalMs ?? 500, undefined, { signal: options.signal });
    } catch {
      break; // aborted
    }
  }
  return pending;
}
