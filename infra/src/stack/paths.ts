/**
 * Where the native stack keeps its files. Everything lives under the git-ignored
 * `.stack/` folder at the repository root (see docs/conventions.md, "Folders").
 */
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const infraRoot = join(repositoryRoot, 'infra');
export const stackRoot = process.env.RALY_STACK_DIR ?? join(repositoryRoot, '.stack');

export const downloadsDirectory = join(stackRoot, 'downloads');
export const runDirectory = join(stackRoot, 'run');
export const logsDirectory = join(stackRoot, 'logs');

export function dataDirectory(component: string): string {
  return ensureDirectory(join(stackRoot, 'data', component));
}

export function logFile(component: string): string {
  ensureDirectory(logsDirectory);
  return join(logsDirectory, `${component}.log`);
}

export function ensureDirectory(path: string): string {
  mkdirSync(path, { recursive: true });
  return path;
}
