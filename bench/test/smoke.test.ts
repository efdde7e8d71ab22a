/**
 * The benchmark suite's smoke run: `BENCH_SMOKE=1` runs every
 * figure of `npm run bench` with tiny sizes against the test stack, to check
 * that the suite works end to end. Nothing here is timed or compared with a
 * target; it checks that every figure was measured.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, test } from 'vitest';

const benchDir = path.resolve(import.meta.dirname, '..');
const resultsDir = mkdtempSync(path.join(os.tmpdir(), 'raly-bench-smoke-'));

afterAll(() => rmSync(resultsDir, { recursive: true, force: true }));

describe('npm run bench (smoke)', () => {
  test('when the suite runs with tiny sizes, then it measures every figure of the table and saves them', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/suite.ts'], {
      cwd: benchDir,
      env: { ...process.env, BENCH_SMOKE: '1', BENCH_RESULTS_DIR: resultsDir, LOG_LEVEL: 'error' },
      encoding: 'utf8',
      timeout: 8 * 60_000,
    });
    assert.equal(
      run.status,
      0,
      `the suite failed:\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`,
    );
    const results = JSON.parse(readFileSync(path.join(resultsDir, 'suite-smoke.json'), 'utf8')) as {
      rows: { figure: string; measured: string; target: string }[];
      groups: string[];
      machineLoad: Record<string, { busyShare: number; loadAverage: number[] }>;
      live: {
        sent: number;
        failed: number;
        expected: number;
        arrived: number;
        pathCpuMsPerUpdate: { total: number; byProcess: Record<string, number> };
      }[];
      idleCpu: Record<string, number>;
      fanout: {
        sockets: { matching: number; control: number; failed: number };
        delivered: number;
        controlReceived: number;
      };
      liveWarmUp: { via: string; failed: number; expected: number; arrived: number }[];
      http: { bffRequestsPerSecond: number; bffErrors: number };
      idle: { steps: { sockets: number; failed: number }[] };
      replay: { backlog: number; events: number; joinSeconds: number };
      collab: {
        measured: { collaborations: number; failed: number; expected: number; arrived: number };
        sockets: { connected: number; failed: number };
      };
      notifications: { creators: number; delivered: number; controlItems: number };
    };
    assert.equal(results.rows.length, 17, 'one row per target of the table (LCP: one per page)');
    for (const row of results.rows) assert.doesNotMatch(row.measured, /NaN|undefined/, row.figure);
    assert.deepEqual(
      Object.keys(results.machineLoad).sort(),
      [...results.groups].sort(),
      'a load sample per group',
    );
    for (const load of Object.values(results.machineLoad))
      assert.ok(load.busyShare >= 0 && load.busyShare <= 1 && load.loadAverage.length === 3);
    const secondRate = results.rows.find((row) => row.figure.startsWith('the same at'));
    assert.match(
      secondRate!.measured,
      /the machine \d+ % busy \(goal ≤ 60 %\)$/,
      "beside the second rate's row",
    );
    for (const live of results.live) {
      assert.equal(live.failed, 0, 'every update was accepted');
      assert.equal(live.arrived, live.expected, 'every update reached every tab');
    }
    assert.deepEqual(
      results.liveWarmUp.map((round) => round.via),
      ['bff', 'service'],
      'a warm-up round on each live path before the measured rates',
    );
    const onPath = results.live[0]!.pathCpuMsPerUpdate;
    assert.ok(onPath.total > 0, 'CPU per update on the live path');
    for (const name of ['bff', 'identity-profile', 'offers', 'notifications'])
      assert.ok(name in onPath.byProcess, `${name} is on the live path`);
    assert.ok(
      Object.keys(onPath.byProcess).every((name) => !name.startsWith('bench ')),
      "the bench's own processes are not",
    );
    assert.ok((results.idleCpu.bff ?? -1) >= 0, "the idle apps' CPU per second");
    assert.ok(results.fanout.sockets.matching > 0);
    assert.equal(results.fanout.sockets.failed, 0, 'every fan-out tab was accepted');
    assert.equal(results.fanout.delivered, results.fanout.sockets.matching, 'every tab had it');
    assert.equal(results.fanout.controlReceived, 0, 'and no other tab');
    for (const round of results.liveWarmUp) assert.equal(round.arrived, round.expected, round.via);
    assert.ok(results.http.bffRequestsPerSecond > 0);
    assert.equal(results.http.bffErrors, 0, 'GET /api/me answered 2xx under load');
    assert.ok(results.idle.steps.length > 0);
    for (const step of results.idle.steps) {
      assert.ok(step.sockets > 0);
      assert.equal(step.failed, 0, 'every idle socket was accepted');
    }
    assert.ok(results.replay.joinSeconds > 0, 'the replay separates the start-up from the rate');
    assert.equal(results.collab.measured.collaborations, 8, '4 creators × 2 brands opened');
    assert.equal(results.collab.sockets.failed, 0, "every party's tab was accepted");
    assert.equal(results.collab.measured.failed, 0, 'every message was accepted');
    assert.ok(results.collab.measured.expected > 0);
    assert.equal(
      results.collab.measured.arrived,
      results.collab.measured.expected,
      'every message reached every tab of the other party',
    );
    assert.equal(results.notifications.creators, 50);
    assert.equal(
      results.notifications.delivered,
      results.notifications.creators,
      'the offer reached every matching inbox',
    );
    assert.equal(results.notifications.controlItems, 0, 'and no other');
  });

  test('when only the web rows run, then nginx serves the production build with /config.json and Chromium reports an LCP for / and /login', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/suite.ts', '--only', 'web'], {
      cwd: benchDir,
      env: { ...process.env, BENCH_SMOKE: '1', BENCH_RESULTS_DIR: resultsDir },
      encoding: 'utf8',
      timeout: 3 * 60_000,
    });
    assert.equal(
      run.status,
      0,
      `the web rows failed:\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`,
    );
    const results = JSON.parse(
      readFileSync(path.join(resultsDir, 'suite-partial-smoke.json'), 'utf8'),
    ) as {
      rows: { figure: string; measured: string }[];
      web: { files: unknown[] };
      lcp: { pages: { path: string; samplesMs: number[]; element: string }[] };
    };
    assert.deepEqual(
      results.rows.map((row) => row.figure.split(' (')[0]),
      ['initial JS of the web app', 'LCP of /', 'LCP of /login'],
    );
    for (const row of results.rows) assert.doesNotMatch(row.measured, /NaN|undefined/, row.figure);
    assert.ok(results.web.files.length > 0, 'index.html loads at least one script');
    for (const page of results.lcp.pages) {
      assert.equal(page.samplesMs.length, 1, `${page.path}: one load in a smoke run`);
      assert.ok(page.samplesMs[0]! > 0, `${page.path}: an LCP entry was reported`);
      // The app drew its page (not the configuration error page, not an empty root).
      assert.doesNotMatch(page.element, /cannot start|\(removed\)/, page.path);
    }
  });
});
