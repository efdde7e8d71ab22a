import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, afterAll } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive } from '../src/stack/processes';
import { Supervisor, type SupervisorOptions } from '../src/supervision/supervisor';
import { ChildApps, Output, starts, waitFor } from './support/child-apps';

const childApps = new ChildApps();
afterAll(() => childApps.dispose());

function supervise(
  apps: ConstructorParameters<typeof Supervisor>[0],
  options: SupervisorOptions = {},
): { supervisor: Supervisor; output: Output } {
  const output = new Output();
  const supervisor = new Supervisor(apps, { stdout: output, stderr: output, ...options });
  supervisor.start();
  return { supervisor, output };
}

/** Supervises the apps until `condition` holds for the output, then stops them; returns the output. */
async function superviseUntil(
  apps: ConstructorParameters<typeof Supervisor>[0],
  options: SupervisorOptions,
  condition: (output: Output) => boolean,
  what: string,
): Promise<Output> {
  const { supervisor, output } = supervise(apps, options);
  try {
    await waitFor(() => condition(output), what);
  } finally {
    await supervisor.stop();
  }
  return output;
}

function announcedDelays(output: Output, name: string): string[] {
  return [...output.text.matchAll(new RegExp(`\\[${name}\\] .*; restarting in (.+)`, 'g'))].map(
    (match) => match[1] ?? '',
  );
}

test('when an app keeps crashing, then it is restarted after delays that double up to the cap, and each crash and restart is announced with its exit code and delay', async () => {
  const app = childApps.app('crashy', 'crash.mjs', { EXIT_CODE: '3' });
  const output = await superviseUntil(
    [app],
    { backoff: { initialDelayMs: 100, maxDelayMs: 400, stableAfterMs: 60_000 } },
    () => starts(app).length >= 5,
    'five starts of the crashing app',
  );

  assert.deepEqual(announcedDelays(output, 'crashy').slice(0, 4), [
    '100 ms',
    '200 ms',
    '400 ms',
    '400 ms',
  ]);
  assert.match(
    output.text,
    /\[crashy\] exited with code 3 after \d+ ms \(crash 1\); restarting in 100 ms/,
  );
  assert.match(output.text, /\[crashy\] restarting \(/);
  assert.match(output.text, /\[crashy\] up, crashing now/);
  const times = starts(app);
  const gaps = times.slice(1).map((time, index) => time - (times[index] ?? time));
  [100, 200, 400, 400].forEach((delay, index) =>
    assert.ok((gaps[index] ?? 0) >= delay, `gap ${index + 1} (${gaps[index]} ms) ≥ ${delay} ms`),
  );
});

test('when an app is killed by a signal the supervisor did not send, then it is restarted and the output names the signal', async () => {
  const app = childApps.app('media', 'sleep.mjs');
  const { supervisor, output } = supervise([app], {
    backoff: { initialDelayMs: 100 },
  });
  try {
    await waitFor(() => supervisor.pid('media') !== undefined && starts(app).length === 1, 'start');
    const firstPid = supervisor.pid('media') ?? 0;

    process.kill(firstPid, 'SIGKILL');
    await waitFor(() => starts(app).length === 2, 'the restart');

    assert.match(
      output.text,
      /\[media\] killed by SIGKILL after .+ \(crash 1\); restarting in 100 ms/,
    );
    await waitFor(() => supervisor.pid('media') !== undefined, 'the new pid');
    assert.notEqual(supervisor.pid('media'), firstPid);
  } finally {
    await supervisor.stop();
  }
});

test('when the supervisor stops, then every app ends (one ignoring SIGTERM is killed after the grace period) and none is restarted', async () => {
  const polite = childApps.app('polite', 'sleep.mjs');
  const stubborn = childApps.app('stubborn', 'sleep.mjs', { IGNORE_SIGTERM: '1' });
  const { supervisor, output } = supervise([polite, stubborn], {
    backoff: { initialDelayMs: 50 },
    stopGraceMs: 500,
  });
  await waitFor(
    () => output.text.includes('[polite] up') && output.text.includes('[stubborn] up'),
    'both apps up',
  );
  const pids = [supervisor.pid('polite') ?? 0, supervisor.pid('stubborn') ?? 0];

  const stoppingAt = Date.now();
  await supervisor.stop();
  const stopMs = Date.now() - stoppingAt;
  await sleep(300); // six times the restart delay

  assert.deepEqual(
    pids.map((pid) => isAlive(pid)),
    [false, false],
  );
  assert.ok(stopMs < 5000, `stopped in ${stopMs} ms`);
  assert.equal(starts(polite).length, 1);
  assert.equal(starts(stubborn).length, 1);
  assert.doesNotMatch(output.text, /restarting/);
  assert.equal(supervisor.pid('polite'), undefined);
});

test('when the supervisor stops while a restart is pending, then it returns at once and the app is not started again', async () => {
  const app = childApps.app('crashy', 'crash.mjs');
  const { supervisor, output } = supervise([app], {
    backoff: { initialDelayMs: 20_000 },
  });
  await waitFor(() => output.text.includes('restarting in 20 s'), 'the pending restart');

  const stoppingAt = Date.now();
  await supervisor.stop();

  assert.ok(Date.now() - stoppingAt < 1000, 'stop did not wait for the restart delay');
  assert.equal(starts(app).length, 1);
  assert.doesNotMatch(output.text, /\[crashy\] restarting \(/);
});

test('when an app stayed up longer than the stable time before each crash, then every restart waits the initial delay again', async () => {
  const app = childApps.app('flaky', 'crash-later.mjs', { UP_MS: '300' });
  const output = await superviseUntil(
    [app],
    { backoff: { initialDelayMs: 100, maxDelayMs: 10_000, stableAfterMs: 200 } },
    () => starts(app).length >= 4,
    'four starts of the flaky app',
  );

  assert.deepEqual(announcedDelays(output, 'flaky').slice(0, 3), ['100 ms', '100 ms', '100 ms']);
});

test('when an app exits with code 0, then it is not restarted and the output says so', async () => {
  const app = childApps.app('oneshot', 'crash.mjs', { EXIT_CODE: '0' });
  const output = await superviseUntil(
    [app],
    { backoff: { initialDelayMs: 50 } },
    (seen) => seen.text.includes('not restarted'),
    'the exit announcement',
  );

  assert.match(output.text, /\[oneshot\] exited with code 0; not restarted/);
  assert.equal(starts(app).length, 1);
});

test('when an app logs pino JSON, then the terminal shows one readable line per entry with its level name while its log file keeps the JSON', async () => {
  const app = childApps.app('media', 'pino-lines.mjs');
  const file = join(childApps.directory, `app-media-${Date.now()}.log`);
  const fileLines = () =>
    existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter((line) => line.startsWith('{'))
      : [];
  const output = await superviseUntil(
    [app],
    { logFile: () => file },
    (seen) => seen.text.includes('not JSON at all') && fileLines().length === 3,
    'the lines on the terminal and in the file',
  );

  assert.match(
    output.text,
    /\[media\] \[\d\d:\d\d:\d\d\.\d{3}\] INFO: listening \{"port":4003\}\n/,
  );
  assert.match(output.text, /\[media\] \[[\d:.]+\] INFO: GET \/health\/ready 200 2 ms\n/);
  assert.match(output.text, /\[media\] \[[\d:.]+\] ERROR: query failed/);
  assert.match(
    output.text,
    /\[media\] .*at connect \(db\.ts:1:1\)/,
    'the stack, each line prefixed',
  );
  assert.match(output.text, /\[media\] not JSON at all\n/);
  assert.doesNotMatch(output.text, /"level"|"hostname"/);
  assert.deepEqual(
    fileLines().map((line) => (JSON.parse(line) as { level: number; msg: string }).level),
    [30, 30, 50],
  );
  assert.match(readFileSync(file, 'utf8'), /^not JSON at all$/m);
});
