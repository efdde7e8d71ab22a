/** Where benchmark results go: bench/results/<name>.json, with the machine and the commit. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as prettier from 'prettier';
import { repositoryRoot } from './bench-system';

/** The machine and the commit a result was measured on. */
export function provenance() {
  return {
    measuredAt: new Date().toISOString(),
    commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repositoryRoot })
      .toString()
      .trim(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      memoryGiB: Math.round(os.totalmem() / 1024 ** 3),
      node: process.version,
    },
  };
}

/**
 * Writes a file in the repository's prettier style (`npm run format:check`
 * covers the results and docs/benchmarks.md, which the bench rewrites).
 * @param file an absolute path; its extension picks the parser
 */
export async function writeFormatted(file: string, text: string): Promise<void> {
  const options = await prettier.resolveConfig(file);
  writeFileSync(file, await prettier.format(text, { ...options, filepath: file }));
}

/**
 * Writes `<BENCH_RESULTS_DIR or bench/results>/<name>.json` (the result plus its provenance).
 * @returns the file's path
 */
export async function saveResults(name: string, result: object): Promise<string> {
  const directory = process.env.BENCH_RESULTS_DIR ?? path.join(repositoryRoot, 'bench', 'results');
  mkdirSync(directory, { recursive: true });
  const file = path.join(directory, `${name}.json`);
  await writeFormatted(file, `${JSON.stringify({ ...provenance(), ...result }, null, 2)}\n`);
  process.stdout.write(`[bench] saved ${path.relative(repositoryRoot, file)}\n`);
  return file;
}
