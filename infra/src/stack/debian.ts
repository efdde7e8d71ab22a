/**
 * Installs a missing Debian package, which is how Postgres, Redis, Maven, Java,
 * nginx, HAProxy and Prometheus arrive on a fresh machine. Only as root;
 * otherwise says what to install.
 *
 * apt allows one run at a time. Installs asked for at once (the scaled
 * topology installs HAProxy and Prometheus together) queue behind one another
 * in this process; across processes every run holds {@link aptQueueLock}
 * (`flock`), and apt itself waits up to {@link lockWaitSeconds} for a lock
 * held by anyone else (`DPkg::Lock::Timeout`, e.g. unattended-upgrades).
 */
import { spawn } from 'node:child_process';
import { withProgress } from './progress';

/** The lock file every apt-get run of this project holds (flock(1)), across processes. */
export const aptQueueLock = '/tmp/raly-apt.lock';
/** How long one apt-get run waits for a lock held by another process, in seconds. */
export const lockWaitSeconds = 600;

let updated = false;
/** The tail of this process's queue of installs. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * The command line of one apt-get run behind the project's lock: `flock -w <s> <lock> apt-get -o
 * DPkg::Lock::Timeout=<s> …`.
 * @param args apt-get's own arguments (`update -q`, `install -y …`)
 * @returns the command and its arguments, for spawn
 */
export function aptCommand(args: string[]): { command: string; args: string[] } {
  const wait = String(lockWaitSeconds);
  return {
    command: 'flock',
    args: ['-w', wait, aptQueueLock, 'apt-get', '-o', `DPkg::Lock::Timeout=${wait}`, ...args],
  };
}

function runApt(args: string[]): Promise<void> {
  const { command, args: commandArgs } = aptCommand(args);
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`apt-get ${args.join(' ')} exited ${code}`)),
    );
  });
}

/**
 * Installs packages with apt-get (after one `apt-get update` per process), queued behind any
 * other install of this process and of other processes of this project.
 * @param component the name progress lines and errors carry
 * @param packages Debian package names
 * @throws Error when not root (naming the command to run), or apt-get fails
 */
export async function installDebianPackages(component: string, packages: string[]): Promise<void> {
  if (process.getuid?.() !== 0) {
    throw new Error(
      `${component}: missing; install it first: sudo apt-get install -y ${packages.join(' ')}`,
    );
  }
  const install = queue.then(() =>
    withProgress(component, `installing ${packages.join(' ')} with apt-get`, async () => {
      if (!updated) {
        await runApt(['update', '-q']);
        updated = true;
      }
      await runApt(['install', '-y', '-q', '--no-install-recommends', ...packages]);
    }),
  );
  // The next install waits for this one, whether it succeeded or not.
  queue = install.catch(() => undefined);
  await install;
}
