/**
 * Keeps the apps `npm start` runs alive: each app runs in its own process
 * group with prefixed output, its pino JSON lines shown prettified
 * (./pretty-logs) and its raw output appended to its log file. One that
 * crashes (non-zero exit code, or ended by a signal we did not send) is
 * restarted after an exponential back-off (cockatiel's ExponentialBackoff
 * without jitter: 1 s, 2 s, 4 s … capped at 30 s, back to 1 s once a run
 * stayed up for a minute), and every crash and restart is announced on the
 * app's own output lines. `stop()` ends every app
 * and cancels pending restarts, so a shutdown never restarts anything.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ExponentialBackoff, noJitterGenerator, type IBackoff } from 'cockatiel';
import {
  linePrefix,
  runCommand,
  type ChildExit,
  type CommandRun,
  type TextSink,
} from '../cli/workspaces';
import { prettyLogLine } from './pretty-logs';

/** One app to keep running. */
export interface AppSpec {
  /** Name on its output lines, e.g. `media`. */
  name: string;
  command: string;
  args: string[];
  /** Added to this process's environment. */
  env?: Record<string, string>;
  /** Working directory (default the repository root). */
  cwd?: string;
  /** Picks the colour of its prefix. */
  index: number;
}

/** Delays between restarts, in milliseconds. */
export interface BackoffPolicy {
  /** Delay before the first restart after a crash. */
  initialDelayMs: number;
  /** The delay doubles per crash up to this. */
  maxDelayMs: number;
  /** A run that stayed up this long counts as healthy: the next crash waits initialDelayMs again. */
  stableAfterMs: number;
}

export const defaultBackoff: BackoffPolicy = {
  initialDelayMs: 1000,
  maxDelayMs: 30_000,
  stableAfterMs: 60_000,
};

export interface SupervisorOptions {
  backoff?: Partial<BackoffPolicy>;
  /** How long an app may take to end after SIGTERM before it gets SIGKILL (ms, default 10 s). */
  stopGraceMs?: number;
  /** Where the apps' output and the announcements go (default process.stdout / process.stderr). */
  stdout?: TextSink;
  stderr?: TextSink;
  /** The file each app's raw output (its JSON log lines, unformatted) is appended to; default none. */
  logFile?: (app: AppSpec) => string;
  /** Called after each (re)start with the pid of the app's process group leader. */
  onStart?: (app: AppSpec, pid: number) => void;
  /** Called when a run of the app ended, whatever the reason. */
  onExit?: (app: AppSpec, exit: ChildExit) => void;
}

/** How a run ended, for the announcements: `exited with code 1` or `killed by SIGKILL`. */
export function describeExit(exit: Pick<ChildExit, 'code' | 'signal'>): string {
  return exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.code}`;
}

/** A delay for people: `500 ms`, `1 s`, `2.5 s`. */
export function formatDelay(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

function isCrash(exit: ChildExit): boolean {
  return exit.code !== 0 || exit.signal !== null;
}

/** Sends a signal to a whole process group; answers false when none is left. */
function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs a set of apps and restarts the ones that crash (see the module
 * comment). Create it, call `start()`, and `stop()` on shutdown.
 */
export class Supervisor {
  private readonly backoff: BackoffPolicy;
  private readonly current = new Map<string, CommandRun>();
  private readonly loops: Promise<void>[] = [];
  private readonly stopping = new AbortController();
  private readonly formatLine = prettyLogLine();

  constructor(
    private readonly apps: readonly AppSpec[],
    private readonly options: SupervisorOptions = {},
  ) {
    this.backoff = { ...defaultBackoff, ...options.backoff };
  }

  /** Starts every app; each is then kept running until `stop()`. */
  start(): void {
    for (const app of this.apps) this.loops.push(this.superviseApp(app));
  }

  /** The pid of the app's current process (its process group), if it is running. */
  pid(name: string): number | undefined {
    const run = this.current.get(name);
    return run && run.child.exitCode === null && run.child.signalCode === null
      ? run.child.pid
      : undefined;
  }

  /**
   * Ends every app (SIGTERM to its process group, SIGKILL after the grace
   * period) and cancels pending restarts; resolves when all have ended.
   */
  async stop(): Promise<void> {
    this.stopping.abort();
    const graceMs = this.options.stopGraceMs ?? 10_000;
    await Promise.all(
      [...this.current.values()].map(async ({ child, done }) => {
        if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
        const pid = child.pid;
        signalGroup(pid, 'SIGTERM');
        const killer = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs);
        await done;
        clearTimeout(killer);
      }),
    );
    await Promise.all(this.loops);
  }

  private announce(app: AppSpec, message: string): void {
    (this.options.stdout ?? process.stdout).write(`${linePrefix(app.name, app.index)}${message}\n`);
  }

  private async superviseApp(app: AppSpec): Promise<void> {
    const schedule = new ExponentialBackoff({
      generator: noJitterGenerator,
      initialDelay: this.backoff.initialDelayMs,
      maxDelay: this.backoff.maxDelayMs,
    });
    let delay: IBackoff<unknown> | undefined;
    let crashes = 0;
    while (!this.stopping.signal.aborted) {
      const startedAt = Date.now();
      const exit = await this.runOnce(app);
      if (this.stopping.signal.aborted) return;
      if (!isCrash(exit)) {
        this.announce(app, `${describeExit(exit)}; not restarted (only crashes are)`);
        return;
      }
      const upMs = Date.now() - startedAt;
      // A run that stayed up long enough starts the back-off afresh.
      delay =
        upMs >= this.backoff.stableAfterMs || !delay ? schedule.next() : delay.next(undefined);
      crashes += 1;
      this.announce(
        app,
        `${describeExit(exit)} after ${formatDelay(upMs)} (crash ${crashes}); restarting in ${formatDelay(delay.duration)}`,
      );
      try {
        await sleep(delay.duration, undefined, { signal: this.stopping.signal });
      } catch {
        return; // stopped while waiting: no restart
      }
      this.announce(app, `restarting (${app.command} ${app.args.join(' ')})`);
    }
  }

  private async runOnce(app: AppSpec): Promise<ChildExit> {
    const run = runCommand(app.command, app.args, {
      label: app.name,
      index: app.index,
      env: app.env ?? {},
      cwd: app.cwd,
      detached: true,
      collect: false,
      stdout: this.options.stdout,
      stderr: this.options.stderr,
      formatLine: this.formatLine,
      logFile: this.options.logFile?.(app),
    });
    this.current.set(app.name, run);
    if (run.child.pid !== undefined) this.options.onStart?.(app, run.child.pid);
    const exit = await run.done;
    // Whatever the leader left behind in its group (e.g. the node under `npm run`) would hold the port.
    if (run.child.pid !== undefined) signalGroup(run.child.pid, 'SIGKILL');
    this.options.onExit?.(app, exit);
    return exit;
  }
}
