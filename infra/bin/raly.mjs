#!/usr/bin/env node
/**
 * Entry point of the root npm scripts (`npm start`, `npm stop`, `npm test`, `npm run stack`, `npm run images`,
 * `npm run bench`, `npm run chaos`). Plain JavaScript with no dependencies, because it runs
 * before any are installed. It always runs on the project's pinned Node (`.node-version`,
 * installed by ./project-node.mjs): started on another Node, it runs itself again on that one.
 * It installs the npm workspaces when they are missing or older than package-lock.json, then
 * runs the TypeScript CLI of infra/src/cli/<command>.ts through tsx (`bench` and `chaos`: the
 * bench workspace's scripts of those names), passing arguments, exit code and signals through.
 *
 * Usage: node infra/bin/raly.mjs <start|stop|stack|test|bench|chaos|images> [args…]
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureProjectNode, projectNodeVersion, runsOnProjectNode } from './project-node.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const commands = new Set(['start', 'stop', 'stack', 'test', 'bench', 'chaos', 'images']);
/** Commands that are the bench workspace's own scripts (`npm run <command> -w bench`). */
const benchCommands = new Set(['bench', 'chaos']);
const [command, ...args] = process.argv.slice(2);
if (!commands.has(command)) {
  console.error(`usage: node infra/bin/raly.mjs <${[...commands].join('|')}> [args…]`);
  process.exit(2);
}

/**
 * Runs this command again on the project's pinned Node (./project-node.mjs), with its bin
 * folder first on PATH so that npm, the apps and the test workers run on it too.
 */
function rerunOnProjectNode() {
  let bin;
  try {
    bin = ensureProjectNode();
  } catch (error) {
    console.error(`${error.message}; the project runs on Node ${projectNodeVersion()}`);
    process.exit(1);
  }
  const rerun = spawn(join(bin, 'node'), [fileURLToPath(import.meta.url), command, ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` },
  });
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => rerun.kill('SIGTERM'));
  rerun.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
}

if (!runsOnProjectNode()) {
  rerunOnProjectNode();
} else {
  main();
}

function main() {
  /** Why the workspaces need installing, or null when they are up to date. */
  function installReason() {
    const lock = join(root, 'package-lock.json');
    const installedLock = join(root, 'node_modules', '.package-lock.json');
    if (!existsSync(join(root, 'node_modules', 'tsx', 'package.json')))
      return 'node_modules is missing';
    if (
      existsSync(lock) &&
      existsSync(installedLock) &&
      statSync(lock).mtimeMs > statSync(installedLock).mtimeMs
    ) {
      return 'package-lock.json is newer than node_modules';
    }
    return null;
  }

  const reason = installReason();
  if (reason) {
    // A fresh clone gets exactly the locked versions; an existing tree is brought up to date.
    const npmArgs = existsSync(join(root, 'node_modules')) ? ['install'] : ['ci'];
    console.log(`${reason}: running npm ${npmArgs.join(' ')}…`);
    const started = Date.now();
    const result = spawnSync('npm', [...npmArgs, '--no-audit', '--no-fund'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (result.status !== 0) {
      console.error(`npm ${npmArgs.join(' ')} failed (exit ${result.status ?? result.signal})`);
      process.exit(result.status ?? 1);
    }
    console.log(`dependencies installed in ${Math.round((Date.now() - started) / 1000)} s`);
  }

  const child = benchCommands.has(command)
    ? spawn('npm', ['run', command, '-w', 'bench', '--', ...args], { cwd: root, stdio: 'inherit' })
    : spawn(
        process.execPath,
        ['--import', 'tsx', join(root, 'infra', 'src', 'cli', `${command}.ts`), ...args],
        { cwd: root, stdio: 'inherit' },
      );
  // Ctrl-C reaches the whole process group: the CLI cleans up and exits; wait for it.
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
}
