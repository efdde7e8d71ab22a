/** A fuzz report as text: the one-line summary and the failures grouped by route and cause. */
import type { FuzzFailure, FuzzReport } from './types';

/** `fuzz bff (seed 13, 40 per route, 31 s): 760 requests — 200: 50, 400: 600, …` */
export function summary(report: FuzzReport): string {
  const statuses = Object.entries(report.histogram)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
  return `fuzz ${report.name} (seed ${report.seed}, ${report.runsPerRoute} per route, ${Math.round(report.durationMs / 1000)} s): ${report.requests} requests — ${statuses}`;
}

/**
 * The failures grouped by route and cause, each group with its count and
 * up to two example inputs (credential | path | body) and answers.
 */
export function failureReport(report: FuzzReport): string {
  const groups = new Map<string, FuzzFailure[]>();
  for (const failure of report.failures) {
    const key = `${failure.route} → ${failure.cause} ← ${failure.kind}`;
    groups.set(key, [...(groups.get(key) ?? []), failure]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, failures]) =>
      [
        `✗ ${key} (${failures.length}×)`,
        ...failures
          .slice(0, 2)
          .map(
            (failure) =>
              `    input: ${failure.input}${failure.detail ? `\n    answer: ${failure.detail}` : ''}`,
          ),
      ].join('\n'),
    )
    .join('\n');
}
