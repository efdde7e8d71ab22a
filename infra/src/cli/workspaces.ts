/**
 * The workspaces the root CLIs drive, in dependency order, and running npm
 * scripts in them with the stack's environment and prefixed output.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { join } from 'node:path';
import { repositoryRoot } from '../stack/paths';
import { host, ports } from '../stack/settings';

/** Test order: shared packages first, then services, then the edge. */
export const testedWorkspaces = [
  'services/shared/contracts',
  'infra/test-stack',
  'services/shared/service-kit',
  'infra/test-support',
  'services/identity-profile',
  'services/brand',
  'services/media',
  'services/offers',
  'services/collaborations',
  'services/notifications',
  'services/moderation',
  'bff',
  'web',
  'infra',
  'bench',
] as const;

/** A workspace `npm test` runs. */
export type TestedWorkspace = (typeof testedWorkspaces)[number];

/** Workspaces that share no Kafka group, database or port with the product's tests. */
const sideLane: readonly TestedWorkspace[] = ['services/shared/contracts', 'infra'];
/** Workspaces that need the machine to themselves (the chaos run restarts Kafka nodes within a deadline): after every other, alone. */
const lastAlone: readonly TestedWorkspace[] = ['bench'];

/**
 * The order `npm test` runs the workspaces in: groups one after the other,
 * the lanes of a group at the same time, each lane's workspaces in order.
 * @param lanes 1 for one workspace at a time, otherwise 2 (RALY_TEST_LANES)
 * @returns groups of lanes of workspaces, every tested workspace exactly once
 */
export function testLanes(lanes: number): TestedWorkspace[][][] {
  if (lanes <= 1) return [[[...testedWorkspaces]]];
  const main = testedWorkspaces.filter(
    (workspace) => !sideLane.includes(workspace) && !lastAlone.includes(workspace),
  );
  const side = testedWorkspaces.filter((workspace) => sideLane.includes(workspace));
  const last = testedWorkspaces.filter((workspace) => lastAlone.includes(workspace));
  return [[main, side], ...(last.length ? [[last]] : [])];
}

/** What `npm start` runs, backend first so the BFF and the web app find them. */
export const runnableWorkspaces = [
  'services/identity-profile',
  'services/brand',
  'services/media',
  'services/offers',
  'services/collaborations',
  'services/notifications',
  'services/moderation',
  'bff',
  'web',
] as const;

export { startRecordName } from '../stack/processes';

/**
 * The readiness probe of each runnable workspace on its `npm start` port
 * (docs/conventions.md): services and the BFF answer
 * `GET /health/ready`, the web app (Vite dev server) `/`.
 */
export const readinessUrls: Record<(typeof runnableWorkspaces)[number], string> = {
  'services/identity-profile': `http://${host}:${ports.identity}/health/ready`,
  'services/brand': `http://${host}:${ports.brand}/health/ready`,
  'services/media': `http://${host}:${ports.media}/health/ready`,
  'services/offers': `http://${host}:${ports.offers}/health/ready`,
  'services/collaborations': `http://${host}:${ports.collaborations}/health/ready`,
  'services/notifications': `http://${host}:${ports.notifications}/health/ready`,
  'services/moderation': `http://${host}:${ports.moderation}/health/ready`,
  bff: `http://${host}:${ports.bff}/health/ready`,
  web: `http://localhost:${ports.web}/`,
};

interface WorkspacePackage {
  name?: string;
  scripts?: Record<string, string>;
}

function readWorkspacePackage(workspace: string): WorkspacePackage {
  const packageJson = join(repositoryRoot, workspace, 'package.json');
  if (!existsSync(packageJson)) return {};
  return JSON.parse(readFileSync(packageJson, 'utf8')) as WorkspacePackage;
}

export function workspaceScripts(workspace: string): Record<string, string> {
  return readWorkspacePackage(workspace).scripts ?? {};
}

/**
 * What selects exactly one workspace in `npm … -w <selector>`: its package
 * name. A folder would also select the workspaces nested in it (`infra`
 * holds `infra/test-stack` and `infra/test-support`).
 * @param workspace the workspace's folder, relative to the repository root
 * @returns its package name, or the folder when it has no package.json
 */
export function workspaceSelector(workspace: string): string {
  return readWorkspacePackage(workspace).name ?? workspace;
}

export function shortName(workspace: string): string {
  return workspace.replace(/^(services|infra)\//, '');
}

const colors = [36, 33, 35, 32, 34, 91, 96, 93];

/** Where prefixed lines are written: process.stdout/stderr, or a test's collector. */
export interface TextSink {
  write(text: string): unknown;
}

/** The coloured `[label] ` put before each line of a child's output (plain when stdout is no terminal). */
export function linePrefix(label: string, index: number): string {
  return process.stdout.isTTY
    ? `\x1b[${colors[index % colors.length]}m[${label}]\x1b[0m `
    : `[${label}] `;
}

/**
 * Returns a writer for a child's output chunks that writes each whole line to
 * target, passed through `format` (which may answer several lines) and with the
 * label's prefix on each.
 */
export function prefixer(
  label: string,
  index: number,
  target: TextSink = process.stdout,
  format: (line: string) => string = (line) => line,
): (chunk: Buffer) => void {
  const prefix = linePrefix(label, index);
  let pending = '';
  return (chunk) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines)
      for (const shown of format(line).split('\n')) target.write(`${prefix}${shown}\n`);
  };
}

/** How a child ended: its exit code (128 + n when a signal ended it, 127 when it did not start) and the signal. */
export interface ChildExit {
  code: number;
  signal: NodeJS.Signals | null;
  output: string;
}

export interface CommandRun {
  child: ChildProcess;
  done: Promise<ChildExit>;
}

export interface RunOptions {
  /** Prefix of each output line, e.g. `media`. */
  label: string;
  /** Picks the prefix colour. */
  index: number;
  /** Added to this process's environment. */
  env: Record<string, string>;
  /** Own process group, so a terminal's Ctrl-C does not reach it and it can be signalled as a whole. */
  detached?: boolean;
  /** Keep the output in `done`'s result (default true). */
  collect?: boolean;
  /** Working directory (default the repository root). */
  cwd?: string;
  /** Where the prefixed output goes (default process.stdout / process.stderr). */
  stdout?: TextSink;
  stderr?: TextSink;
  /** How each output line is shown on stdout/stderr, e.g. prettified (default unchanged). */
  formatLine?: (line: string) => string;
  /** A file that gets the raw output (stdout and stderr, unformatted), appended. */
  logFile?: string;
}

/** Runs `command args`, streaming its output line by line with a prefix and collecting it. */
export function runCommand(command: string, args: string[], options: RunOptions): CommandRun {
  const child = spawn(command, args, {
    cwd: options.cwd ?? repositoryRoot,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  let output = '';
  const { label, index, formatLine } = options;
  const toStdout = prefixer(label, index, options.stdout, formatLine);
  const toStderr = prefixer(label, index, options.stderr ?? process.stderr, formatLine);
  const log = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : undefined;
  log?.on('error', (error) => toStderr(Buffer.from(`cannot write its log: ${error.message}\n`)));
  log?.write(`\n===== ${new Date().toISOString()} ${command} ${args.join(' ')}\n`);
  child.stdout?.on('data', (chunk: Buffer) => {
    if (options.collect !== false) output += chunk.toString();
    log?.write(chunk);
    toStdout(chunk);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    if (options.collect !== false) output += chunk.toString();
    log?.write(chunk);
    toStderr(chunk);
  });
  // Ended once the child's pipes closed: 'exit' may come before its last output.
  child.once('close', () => log?.end());
  const done = new Promise<ChildExit>((resolve) => {
    child.once('error', (error) =>
      resolve({ code: 127, signal: null, output: `${output}\n${error.message}` }),
    );
    child.once('exit', (code, signal) =>
      resolve({
        code: code ?? (signal ? 128 + (osConstants.signals[signal] ?? 0) : 1),
        signal,
        output,
      }),
    );
  });
  return { child, done };
}

/** Runs `npm <args>` at the repository root, streaming prefixed output and collecting it. */
export function runNpm(args: string[], options: RunOptions): CommandRun {
  return runCommand('npm', args, options);
}
