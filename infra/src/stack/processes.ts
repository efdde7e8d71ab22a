/**
 * Background processes of the native stack and their records in `.stack/run/`.
 * A record is written only for a process this stack started, so `stop` never
 * touches a Postgres, Redis or Kafka that someone else runs on the same port.
 */
import { spawn, execFile } from 'node:child_process';
import {
  existsSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
  closeSync,
} from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureDirectory, logFile, runDirectory } from './paths';

export const execFileAsync = promisify(execFile);

/** How a recorded component is stopped: by its process group, or by a command. */
export type RunRecord =
  | { component: string; kind: 'process'; pid: number; command: string; startedAt: string }
  | { component: string; kind: 'command'; stop: string[]; startedAt: string; pid?: number };

function recordPath(component: string): string {
  return join(ensureDirectory(runDirectory), `${component}.json`);
}

/**
 * The run record (.stack/run/start.json) of a running `npm start`: `npm stop`
 * stops that process first, so its supervisor stops the apps instead of
 * restarting them.
 */
export const startRecordName = 'start';

/** How long a running `npm start` may take to stop its apps before it is killed (ms). */
export const startGraceMs = 60_000;

export function writeRunRecord(record: RunRecord): void {
  writeFileSync(recordPath(record.component), `${JSON.stringify(record, null, 2)}\n`);
}

export function readRunRecord(component: string): RunRecord | undefined {
  const path = recordPath(component);
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as RunRecord;
  } catch {
    return undefined;
  }
}

export function listRunRecords(): RunRecord[] {
  if (!existsSync(runDirectory)) return [];
  return readdirSync(runDirectory)
    .filter((file) => file.endsWith('.json'))
    .map((file) => readRunRecord(file.slice(0, -'.json'.length)))
    .filter((record): record is RunRecord => record !== undefined);
}

export function removeRunRecord(component: string): void {
  rmSync(recordPath(component), { force: true });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface BackgroundProcess {
  component: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/**
 * Starts a process in its own process group (so Ctrl-C in a terminal does not
 * reach it and `stop` can end it with all its children), logging to
 * `.stack/logs/<component>.log`, and records it.
 */
export function startBackgroundProcess(options: BackgroundProcess): number {
  const log = openSync(logFile(options.component), 'a');
  writeFileSync(
    log,
    `\n===== ${new Date().toISOString()} ${options.command} ${options.args.join(' ')}\n`,
  );
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    detached: true,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  if (child.pid === undefined)
    throw new Error(`${options.component}: could not start ${options.command}`);
  child.unref();
  writeRunRecord({
    component: options.component,
    kind: 'process',
    pid: child.pid,
    command: [options.command, ...options.args].join(' '),
    startedAt: new Date().toISOString(),
  });
  return child.pid;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await sleep(200);
  }
  return !isAlive(pid);
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** Stops what the record says we started; answers whether something was stopped. */
export async function stopRecorded(component: string, graceMs = 20_000): Promise<boolean> {
  const record = readRunRecord(component);
  if (!record) return false;
  if (record.pid !== undefined && !isAlive(record.pid)) {
    // It already ended; whatever answers on its port now is not ours to stop.
    removeRunRecord(component);
    return false;
  }
  if (record.kind === 'command') {
    const [command, ...args] = record.stop;
    if (command) await execFileAsync(command, args).catch(() => undefined);
    if (record.pid !== undefined && isAlive(record.pid)) {
      signalGroup(record.pid, 'SIGTERM');
      await waitForExit(record.pid, graceMs);
    }
  } else if (isAlive(record.pid)) {
    signalGroup(record.pid, 'SIGTERM');
    if (!(await waitForExit(record.pid, graceMs))) {
      signalGroup(record.pid, 'SIGKILL');
      await waitForExit(record.pid, 5000);
    }
  }
  removeRunRecord(component);
  return true;
}

/** The recorded process of a component, if it is still alive. */
export function recordedLiveProcess(component: string): number | undefined {
  const record = readRunRecord(component);
  if (record?.kind !== 'process') return undefined;
  return isAlive(record.pid) ? record.pid : undefined;
}
