/** The machine's load before each group of the bench (bench/src/machine-load.ts). */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, test } from 'vitest';
import {
  formatMachineLoad,
  notQuietReasons,
  processTree,
  sampleMachineLoad,
} from '../src/machine-load';
import { cpuByProcessGroup } from '../src/process-usage';

describe('machine load', () => {
  let busy: ChildProcess | undefined;
  afterEach(() => {
    busy?.kill('SIGKILL');
    busy = undefined;
  });
  /** A process that spins a core writing to /dev/null, named `yes` in /proc. */
  const startBusy = () => {
    busy = spawn('yes', [], { stdio: 'ignore' });
    return busy.pid!;
  };

  test('when the CPUs, other processes or the load average are above their limits, then each is a reason naming its figure', () => {
    const quiet = { loadAverage1m: 0.5, cores: 2, busyShare: 0.1, othersCores: 0.05 };

    assert.deepEqual(notQuietReasons(quiet), []);
    assert.match(notQuietReasons({ ...quiet, busyShare: 0.6 })[0]!, /60 % of the CPUs busy/);
    assert.match(notQuietReasons({ ...quiet, othersCores: 0.8 })[0]!, /other processes use 0\.80/);
    assert.match(notQuietReasons({ ...quiet, loadAverage1m: 7 })[0]!, /load average 7\.00 on 2/);
    assert.equal(
      notQuietReasons({ loadAverage1m: 9, cores: 2, busyShare: 1, othersCores: 2 }).length,
      3,
    );
  });

  test('when a process outside the bench spins, then the sample counts it among the others, and not when it is the bench’s', async () => {
    // Arrange
    const pid = startBusy();
    assert.ok(processTree().includes(pid), 'a child is in this process tree');

    // Act
    const outside = await sampleMachineLoad(1000, [process.pid]);
    const inside = await sampleMachineLoad(500, processTree());

    // Assert
    const spinner = outside.others.find((other) => other.name === 'yes');
    assert.ok(spinner && spinner.cores > 0, JSON.stringify(outside.others));
    assert.equal(
      inside.others.find((other) => other.name === 'yes'),
      undefined,
    );
    assert.ok(outside.busyShare > 0 && outside.busyShare <= 1, String(outside.busyShare));
    assert.equal(outside.cores, inside.cores);
  });

  test('when a process ends between two readings, then its CPU still counts, in the group of the parent that reaped it', async () => {
    // Arrange: this process idles while its child spins, then reaps it.
    const group = { bench: [process.pid] };
    const before = cpuByProcessGroup(group).bench!;
    const child = spawn('yes', [], { stdio: 'ignore' });
    await new Promise((resolve) => setTimeout(resolve, 400));

    // Act
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const after = cpuByProcessGroup(group).bench!;

    // Assert: most of the child's 400 ms of spinning, which ended before the second reading.
    assert.ok(after - before >= 200, `${after - before} ms counted`);
  });

  test('when a sample is not quiet, then its log line is a warning with the reasons', () => {
    const load = {
      loadAverage: [3.1, 2, 1] as [number, number, number],
      cores: 2,
      busyShare: 0.9,
      sampleMs: 1000,
      others: [{ name: 'postgres', cores: 0.7 }],
    };

    const noisy = formatMachineLoad('live', {
      ...load,
      quiet: false,
      reasons: ['90 % of the CPUs busy'],
    });
    const calm = formatMachineLoad('live', { ...load, quiet: true, reasons: [] });

    assert.match(noisy, /^WARNING: the machine is not quiet before live \(90 % of the CPUs busy\)/);
    assert.match(noisy, /postgres 0\.70/);
    assert.match(
      calm,
      /^machine before live: load average 3\.10 2\.00 1\.00 on 2 cores, 90 % busy/,
    );
  });
});
