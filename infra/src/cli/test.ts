/**
 * `npm test`: makes sure the stack runs (once), applies each workspace's
 * migrations, runs each workspace's tests (vitest) with the stack's
 * environment, counts them from vitest's JSON report, and ends with a summary
 * whose last line is `N passed, N failed`. The summary names every failed
 * test with its message's headline, and every test that passed only on
 * its retry (the integration projects retry once, vitest.config.ts); it is
 * also written to `.stack/logs/test-summary.txt`, which `.ci/run` prints last.
 * Each file's wall time goes to `.stack/logs/test-timings.txt`, longest first.
 *
 * Workspaces run in two lanes at once ({@link testLanes}): the product's
 * workspaces in dependency order in one, the workspaces that share nothing
 * with them (the contracts' unit tests and infra, whose clusters, load
 * balancers and images use ports of their own) in the other; bench runs
 * last and alone (its chaos run restarts Kafka nodes within a deadline). `RALY_TEST_LANES=1`
 * runs everything one workspace after the other.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stackEnvironment } from '../stack/endpoints';
import { ensureDirectory, logsDirectory } from '../stack/paths';
import { resolveTestStack } from '../test-env';
import {
  formatFailures,
  formatFileTimings,
  readVitestReport,
  type FileTiming,
  type TestFailure,
} from './test-summary';
import {
  runNpm,
  shortName,
  testedWorkspaces,
  testLanes,
  type TestedWorkspace as Workspace,
  workspaceScripts,
  workspaceSelector,
} from './workspaces';

interface WorkspaceResult {
  workspace: string;
  passed: number;
  failed: number;
  note: string;
  failures: TestFailure[];
  retried: TestFailure[];
  files: FileTiming[];
  /** the workspace's wall time, migrations included, in ms */
  durationMs: number;
}

const workspaceTimeoutMs = 30 * 60_000;

async function runWithTimeout(
  args: string[],
  label: string,
  index: number,
  env: Record<string, string>,
) {
  const run = runNpm(args, { label, index, env, detached: true });
  const timer = setTimeout(() => {
    console.error(`[${label}] still running after ${workspaceTimeoutMs / 60_000} min: stopping it`);
    if (run.child.pid) process.kill(-run.child.pid, 'SIGKILL');
  }, workspaceTimeoutMs);
  try {
    return await run.done;
  } finally {
    clearTimeout(timer);
  }
}

/** Migrations, then tests of one workspace; its result for the summary. */
async function runWorkspace(
  workspace: Workspace,
  stack: Awaited<ReturnType<typeof resolveTestStack>>,
  reports: string,
): Promise<WorkspaceResult> {
  const startedAt = Date.now();
  const index = testedWorkspaces.indexOf(workspace);
  const scripts = workspaceScripts(workspace);
  const label = shortName(workspace);
  const env = { ...stackEnvironment(stack, workspace) };
  const result = (fields: Omit<WorkspaceResult, 'workspace' | 'durationMs'>): WorkspaceResult => ({
    workspace,
    durationMs: Date.now() - startedAt,
    ...fields,
  });
  if (!scripts.test)
    return result({
      passed: 0,
      failed: 0,
      note: 'skipped (no test script)',
      failures: [],
      retried: [],
      files: [],
    });
  if (scripts.migrate) {
    const migration = await runWithTimeout(
      ['run', 'migrate', '-w', workspaceSelector(workspace), '--if-present'],
      label,
      index,
      env,
    );
    if (migration.code !== 0)
      return result({
        passed: 0,
        failed: 1,
        note: `migrations failed (exit ${migration.code}); tests not run`,
        failures: [],
        retried: [],
        files: [],
      });
  }
  const report = join(reports, `${label.replaceAll('/', '-')}.json`);
  const run = await runWithTimeout(
    [
      'test',
      '-w',
      workspaceSelector(workspace),
      '--if-present',
      '--',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ],
    label,
    index,
    env,
  );
  const summary = readVitestReport(report);
  let { failed } = summary;
  let note = '';
  if (run.code !== 0 && failed === 0) {
    // A crash before or after the runner's summary must not pass silently.
    failed = 1;
    note = summary.found ? `exit ${run.code}` : `exit ${run.code} without a test summary`;
  }
  return result({
    passed: summary.passed,
    failed,
    note,
    failures: summary.failures,
    retried: summary.retried,
    files: summary.files,
  });
}

async function main(): Promise<number> {
  const startedAt = Date.now();
  const stack = await resolveTestStack();
  const reports = mkdtempSync(join(tmpdir(), 'raly-test-'));
  const lanes = Number(process.env.RALY_TEST_LANES ?? 2);
  const byWorkspace = new Map<Workspace, WorkspaceResult>();

  for (const group of testLanes(Number.isFinite(lanes) ? lanes : 2)) {
    await Promise.all(
      group.map(async (lane) => {
        for (const workspace of lane)
          byWorkspace.set(workspace, await runWorkspace(workspace, stack, reports));
      }),
    );
  }
  const results = testedWorkspaces.flatMap((workspace) => byWorkspace.get(workspace) ?? []);

  rmSync(reports, { recursive: true, force: true });
  const passed = results.reduce((sum, result) => sum + result.passed, 0);
  const failed = results.reduce((sum, result) => sum + result.failed, 0);
  const retried = results.reduce((sum, result) => sum + result.retried.length, 0);
  const lines = [
    '',
    `Test summary (${Math.round((Date.now() - startedAt) / 1000)} s):`,
    ...results.flatMap((result) => [
      `  ${shortName(result.workspace).padEnd(18)} ${String(Math.round(result.durationMs / 1000)).padStart(5)} s  ${result.passed} passed, ${result.failed} failed${result.retried.length ? ` (${result.retried.length} passed on a retry)` : ''}${result.note ? `  ${result.note}` : ''}`,
      ...formatFailures(result.failures),
      ...formatFailures(result.retried, '↻'),
    ]),
    ...(retried > 0 ? [`${retried} passed only on a retry (↻ above): flaky, to be fixed`] : []),
    `${passed} passed, ${failed} failed`,
  ];
  for (const line of lines) console.log(line);
  writeFileSync(join(ensureDirectory(logsDirectory), 'test-summary.txt'), `${lines.join('\n')}\n`);
  writeFileSync(
    join(logsDirectory, 'test-timings.txt'),
    `${formatFileTimings(results.flatMap((result) => result.files)).join('\n')}\n`,
  );
  return failed > 0 ? 1 : 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error((error as Error).message);
  console.log('0 passed, 1 failed');
  process.exitCode = 1;
}
// kafkajs or pg handles of the resolver must not keep the runner alive.
setTimeout(() => process.exit(), 100).unref();
