/**
 * Installs a missing Debian package, which is how Postgres, Redis, Maven and Java
 * arrive on a fresh CI machine. Only as root; otherwise says what to install.
 */
import { spawn } from 'node:child_process';
import { withProgress } from './progress';

let updated = false;

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}`)),
    );
  });
}

export async function installDebianPackages(component: string, packages: string[]): Promise<void> {
  if (process.getuid?.() !== 0) {
    throw new Error(
      `${component}: missing; install it first: sudo apt-get install -y ${packages.join(' ')}`,
    );
  }
  await withProgress(component, `installing ${packages.join(' ')} with apt-get`, async () => {
    if (!updated) {
      await run('apt-get', ['update', '-q']);
      updated = true;
    }
    await run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...packages]);
  });
}
