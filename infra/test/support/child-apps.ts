/**
 * Tiny child programs for the supervisor and readiness tests, written into a
 * temporary directory, and helpers to watch them: each program appends the
 * time (ms) of every start to the file in STARTS_FILE.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import type { AppSpec } from '../../src/supervision/supervisor';

const recordStart = `import { appendFileSync } from 'node:fs';
appendFileSync(process.env.STARTS_FILE, Date.now() + '\\n');`;

/** Program sources by name; behaviour is tuned through environment variables. */
const programs = {
  /** Exits at once with EXIT_CODE (default 3). */
  'crash.mjs': `${recordStart}
console.log('up, crashing now');
process.exit(Number(process.env.EXIT_CODE ?? 3));`,
  /** Runs until a signal ends it; IGNORE_SIGTERM=1 makes it ignore SIGTERM. */
  'sleep.mjs': `${recordStart}
if (process.env.IGNORE_SIGTERM === '1') process.on('SIGTERM', () => console.log('ignoring SIGTERM'));
console.log('up');
setInterval(() => {}, 1000);`,
  /** Stays up UP_MS, then exits with code 1. */
  'crash-later.mjs': `${recordStart}
setTimeout(() => process.exit(1), Number(process.env.UP_MS));`,
  /** Answers 200 on every path of PORT once LISTEN_AFTER_MS passed; prints "listening at <ms>". */
  'listen-later.mjs': `${recordStart}
import { createServer } from 'node:http';
setTimeout(() => {
  createServer((_req, res) => res.end('ok')).listen(Number(process.env.PORT), '127.0.0.1', () =>
    console.log('listening at ' + Date.now()),
  );
}, Number(process.env.LISTEN_AFTER_MS));`,
  /**
   * Logs as an app on the kit's pino logger does (JSON lines): an info line, an
   * access line and an error with its stack, then a plain line, and stays up.
   */
  'pino-lines.mjs': `${recordStart}
const line = (fields) => console.log(JSON.stringify({ time: Date.now(), pid: process.pid, hostname: 'host', service: 'media', name: 'media', ...fields }));
line({ level: 30, port: 4003, msg: 'listening' });
line({ level: 30, component: 'access', req: { method: 'GET', path: '/health/ready' }, res: { statusCode: 200 }, responseTime: 2, route: '/health/ready', msg: 'request' });
line({ level: 50, err: { type: 'Error', message: 'database away', stack: 'Error: database away\\n    at connect (db.ts:1:1)' }, msg: 'query failed' });
console.log('not JSON at all');
setInterval(() => {}, 1000);`,
} as const;

export type ProgramName = keyof typeof programs;

/** A temporary directory holding the programs; `dispose()` removes it. */
export class ChildApps {
  readonly directory = mkdtempSync(join(tmpdir(), 'raly-supervisor-'));
  private count = 0;

  constructor() {
    for (const [file, source] of Object.entries(programs))
      writeFileSync(join(this.directory, file), source);
  }

  /** An app running `node <program>` with its own starts file. */
  app(
    name: string,
    program: ProgramName,
    env: Record<string, string> = {},
  ): AppSpec & {
    startsFile: string;
  } {
    this.count += 1;
    const startsFile = join(this.directory, `${name}-${this.count}.starts`);
    return {
      name,
      command: process.execPath,
      args: [join(this.directory, program)],
      env: { ...env, STARTS_FILE: startsFile },
      cwd: this.directory,
      index: this.count,
      startsFile,
    };
  }

  dispose(): void {
    rmSync(this.directory, { recursive: true, force: true });
  }
}

/** The start times (ms) an app recorded so far. */
export function starts(app: { startsFile: string }): number[] {
  if (!existsSync(app.startsFile)) return [];
  return readFileSync(app.startsFile, 'utf8').split('\n').filter(Boolean).map(Number);
}

/** Collects what the supervisor writes, without colour codes. */
export class Output {
  text = '';
  write(chunk: string): boolean {
    // eslint-disable-next-line no-control-regex
    this.text += chunk.replace(/\x1b\[[0-9;]*m/g, '');
    return true;
  }
}

/** Polls `condition` every 25 ms; throws naming `what` when it is still false after timeoutMs. */
export const waitFor = (condition: () => boolean, what: string, timeoutMs = 10_000) =>
  vi.waitFor(
    () => {
      if (!condition()) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    },
    { timeout: timeoutMs, interval: 25 },
  );
