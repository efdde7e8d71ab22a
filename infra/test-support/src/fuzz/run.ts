/** Running a fuzz: sending every drawn request, judging the answers, and the vitest tests of an app. */
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { drawCases } from './cases';
import { judge } from './judge';
import { failureReport, summary } from './report';
import { assertCoversEveryRoute } from './routes';
import { send } from './send';
import {
  fuzzRuns,
  fuzzSeed,
  type FuzzCase,
  type FuzzFailure,
  type FuzzOptions,
  type FuzzReport,
  type FuzzRoute,
} from './types';
import { short } from './values';

async function healthy(baseUrl: string, path: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}${path}`, { signal: AbortSignal.timeout(5_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

const describeCase = (fuzzCase: FuzzCase) =>
  `${fuzzCase.credential.label} | ${short(fuzzCase.path, 80)} | ${fuzzCase.payload.label}`;

/**
 * Sends every drawn request and judges the answers. Uncaught exceptions
 * while it runs are recorded through `uncaughtExceptionMonitor` (which does
 * not handle them: they still fail the test that is running).
 * @returns the report; the caller asserts it (see {@link assertFuzzClean})
 */
export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const seed = options.seed ?? fuzzSeed();
  const runsPerRoute = options.runsPerRoute ?? fuzzRuns();
  const timeoutMs = options.timeoutMs ?? 15_000;
  const startedAt = Date.now();
  const cases = drawCases(options.routes, options.credentials, {
    seed,
    runsPerRoute,
    marker: options.marker,
  });
  const histogram: Record<string, number> = {};
  const failures: FuzzFailure[] = [];
  const inFlight = new Set<FuzzCase>();
  const hangsPerRoute = new Map<FuzzRoute, number>();
  const routeName = (route: FuzzRoute) => `${route.method} ${route.path}`;

  const monitor = (error: Error) => {
    failures.push({
      route:
        [...new Set([...inFlight].map((fuzzCase) => routeName(fuzzCase.route)))].join(' or ') ||
        '(between requests)',
      cause: `uncaught exception: ${short(String(error?.message ?? error), 120)}`,
      kind:
        [...new Set([...inFlight].map((fuzzCase) => fuzzCase.payload.kind))].join(' or ') || '-',
      input: [...inFlight].map(describeCase).join(' || '),
      detail: short(String(error?.stack ?? ''), 300),
    });
  };
  process.on('uncaughtExceptionMonitor', monitor);
  try {
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const fuzzCase = cases[next++]!;
        // A route that hangs twice would hang on: count the rest as not sent.
        if ((hangsPerRoute.get(fuzzCase.route) ?? 0) >= 2) {
          histogram.skipped = (histogram.skipped ?? 0) + 1;
          continue;
        }
        inFlight.add(fuzzCase);
        const answer = await send(options.baseUrl, fuzzCase, timeoutMs);
        inFlight.delete(fuzzCase);
        histogram[String(answer.status)] = (histogram[String(answer.status)] ?? 0) + 1;
        if (answer.status === 'hang')
          hangsPerRoute.set(fuzzCase.route, (hangsPerRoute.get(fuzzCase.route) ?? 0) + 1);
        const verdict = judge(fuzzCase, answer);
        if (verdict)
          failures.push({
            route: routeName(fuzzCase.route),
            kind: fuzzCase.payload.kind,
            input: describeCase(fuzzCase),
            ...verdict,
          });
      }
    };
    await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
    if (!(await healthy(options.baseUrl, options.healthPath)))
      failures.push({
        route: `GET ${options.healthPath}`,
        cause: 'the server no longer answers after the run',
        kind: 'after the run',
        input: '',
        detail: '',
      });
  } finally {
    process.off('uncaughtExceptionMonitor', monitor);
  }
  return {
    name: options.name,
    seed,
    runsPerRoute,
    requests: cases.length - (histogram.skipped ?? 0),
    histogram,
    failures,
    durationMs: Date.now() - startedAt,
  };
}

/**
 * Runs the fuzz, logs the summary (and the grouped failures) and asserts
 * there were none.
 * @param log where the summary goes, e.g. console.log (vitest shows it under the test)
 * @throws AssertionError listing every failure, grouped by route and cause
 */
export async function assertFuzzClean(
  options: FuzzOptions,
  log: (line: string) => void,
): Promise<FuzzReport> {
  const report = await runFuzz(options);
  log(summary(report));
  const failures = failureReport(report);
  for (const line of failures.split('\n').filter(Boolean)) log(line);
  assert.equal(
    report.failures.length,
    0,
    `${report.failures.length} of ${report.requests} fuzzed requests failed (FUZZ_SEED=${report.seed}):\n${failures}`,
  );
  return report;
}

/** What {@link describeFuzz} needs once the app runs (read when its tests start). */
export interface FuzzSubject {
  /** The express apps recorded while it started (see {@link recordExpressApps}). */
  apps: unknown[];
  options: FuzzOptions;
}

/**
 * Registers the two fuzz tests of an app: its route list is every route it
 * registers, and the fuzz over them finds nothing.
 * @param subject e.g. `identity-profile`, `the BFF`
 * @param current the apps and options, filled in by the file's `before` hooks
 * @param hooks registers `before`/`after` hooks inside the suite (hook helpers such as
 *   `useIdentityService`), so they run in order before its tests
 */
export function describeFuzz(
  subject: string,
  current: () => FuzzSubject,
  hooks: () => void = () => undefined,
): void {
  describe(`${subject} under fuzzed requests`, () => {
    hooks();
    test(`when the fuzz lists its routes, then they are every route ${subject} registers`, () => {
      const { apps, options } = current();
      assertCoversEveryRoute(apps, options.routes);
    });

    test(`when every route of ${subject} gets malformed, oversized, nested, control-character and wrong-type requests, then none answers 5xx, hangs or crashes it, and every refusal carries a message`, async () => {
      await assertFuzzClean(current().options, (line) => console.log(line));
    });
  });
}
