import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, test } from 'vitest';
import { eventually } from '@raly/test-support';

const preload = path.join(import.meta.dirname, '..', 'src', 'exit-with-parent.mjs');

describe('an app the bench spawned, when the bench is killed', () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'raly-exit-with-parent-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  test('when its parent is killed with SIGKILL, then the app gets SIGTERM within seconds and exits', async () => {
    const marker = path.join(directory, 'terminated');
    // The "bench": starts the app with the preload, prints its pid, then idles until killed
    // (at once: the app may not have loaded its preload yet, BENCH_PARENT_PID covers that).
    const app = `process.on('SIGTERM', () => { require('fs').writeFileSync(${JSON.stringify(marker)}, 'y'); process.exit(0); }); setTimeout(() => {}, 60000);`;
    const bench = `const c = require('child_process').spawn(process.execPath, ['--import', ${JSON.stringify(preload)}, '-e', ${JSON.stringify(app)}], { stdio: 'ignore', env: { ...process.env, BENCH_PARENT_PID: String(process.pid) } }); console.log(c.pid); setTimeout(() => {}, 60000);`;
    const parent = spawn(process.execPath, ['-e', bench], { stdio: ['ignore', 'pipe', 'inherit'] });
    const appPid = await new Promise<number>((resolve) =>
      parent.stdout.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))),
    );
    // Running, not a zombie waiting for its new parent to reap it (/proc/<pid>/stat's state).
    const alive = () => {
      try {
        return readFileSync(`/proc/${appPid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
      } catch {
        return false;
      }
    };
    assert.ok(alive(), 'the app runs while the bench does');

    parent.kill('SIGKILL');

    await eventually('the app to exit after the bench was killed', () => !alive(), {
      timeoutMs: 5000,
      intervalMs: 100,
    });
    assert.ok(existsSync(marker), 'the app ended through SIGTERM (it drains), not otherwise');
  });
});
