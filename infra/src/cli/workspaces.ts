/**
 * The workspaces the root CLIs drive, in dependency order, and running npm
 * scripts in them with the stack's environment and prefixed output.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryRoot } from '../stack/paths';

/** Test order: shared packages first, then services, then the edge. */
export const testedWorkspaces = [
  'services/contracts',
  'services/kit',
  'services/identity-profile',
  'services/brand',
  'services/media',
  'bff',
  'web',
  'infra',
] as const;

/** What `npm start` runs, backend first so the BFF and the web app find them. */
export const runnableWorkspaces = [
  'services/identity-profile',
  'services/brand',
  'services/media',
  'bff',
  'web',
] as const;

export function workspaceScripts(workspace: string): Record<string, string> {
  const packageJson = join(repositoryRoot, workspace, 'package.json');
  if (!existsSync(packageJson)) return {};
  return (
    (JSON.parse(readFileSync(packageJson, 'utf8')) as { scripts?: Record<string, string> })
      .scripts ?? {}
  );
}

export function shortName(workspace: string): string {
  return workspace.replace(/^services\//, '');
}

const colors = [36, 33, 35, 32, 34, 91, 96, 93];

export function prefixer(
  label: string,
  index: number,
  target: NodeJS.WriteStream = process.stdout,
): (chunk: Buffer) => void {
  const prefix = process.stdout.isTTY
    ? `\x1b[${colors[index % colors.length]}m[${label}]\x1b[0m `
    : `[${label}] `;
  let pending = '';
  return (chunk) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) target.write(`${prefix}${line}\n`);
  };
}

export interface NpmRun {
  child: ChildProcess;
  done: Promise<{ code: number; output: string }>;
}

/** Runs `npm <args>` at the repository root, streaming prefixed output and collecting it. */
export function runNpm(
  args: string[],
  options: {
    label: string;
    index: number;
    env: Record<string, string>;
    detached?: boolean;
    collect?: boolean;
  },
): NpmRun {
  const child = spawn('npm', args, {
    cwd: repositoryRoot,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  let output = '';
  const toStdout = prefixer(options.label, options.index);
  const toStderr = prefixer(options.label, options.index, process.stderr);
  child.stdout?.on('data', (chunk: Buffer) => {
    if (options.collect !== false) output += chunk.toString();
    toStdout(chunk);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    if (options.collect !== false) output += chunk.toString();
    toStderr(chunk);
  });
  const done = new Promise<{ code: number; output: string }>((resolve) => {
    child.once('error', (error) => resolve({ code: 127, output: `${output}\n${error.message}` }));
    child.once('exit', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), output }));
  });
  return { child, done };
}
