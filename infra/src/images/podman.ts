/**
 * Podman as the image tooling of `npm run images` (docs/images.md): every call goes through
 * {@link podman}, which points Podman at the project's own containers.conf under
 * .stack/images/ (runc as the runtime, ulimits the machine allows), so the machine's
 * configuration is never edited. Storage stays Podman's default (/var/lib/containers as root).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repositoryRoot, stackRoot } from '../stack/paths';

/** Folder of the images' cached inputs (debootstrap trees, Node archives), git-ignored. */
export const imagesDirectory = path.join(stackRoot, 'images');

/**
 * Writes .stack/images/containers.conf: runc (crun is not installed), cgroupfs, and a
 * container limits of 16384 open files and 32768 processes (Podman's defaults, 1048576 and
 * 4194304, exceed this machine's hard limits and make every `run` fail).
 * @returns the file's path, for CONTAINERS_CONF
 */
export function containersConf(): string {
  mkdirSync(imagesDirectory, { recursive: true });
  const file = path.join(imagesDirectory, 'containers.conf');
  writeFileSync(
    file,
    [
      '[containers]',
      'default_ulimits = ["nofile=16384:16384", "nproc=32768:32768"]',
      '[engine]',
      'runtime = "runc"',
      'cgroup_manager = "cgroupfs"',
      'events_logger = "file"',
      '',
    ].join('\n'),
  );
  return file;
}

export interface PodmanResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `podman <args>` with the project's containers.conf.
 * @param args podman's arguments, e.g. ['image', 'exists', 'localhost/raly/brand:0.1.0']
 * @param options.echo also write podman's output to this process's stderr as it comes (builds)
 * @param options.input bytes for podman's stdin
 * @returns exit code and captured output; never throws for a non-zero exit
 */
export async function podman(
  args: string[],
  options: { echo?: boolean; input?: NodeJS.ReadableStream } = {},
): Promise<PodmanResult> {
  const child = spawn('podman', args, {
    cwd: repositoryRoot,
    env: { ...process.env, CONTAINERS_CONF: containersConf() },
    stdio: [options.input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  if (options.input && child.stdin) options.input.pipe(child.stdin);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (options.echo) process.stderr.write(chunk);
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (options.echo) process.stderr.write(chunk);
  });
  const code = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exitCode) => resolve(exitCode ?? 1));
  });
  return { code, stdout, stderr };
}

/**
 * Like {@link podman}, but fails on a non-zero exit.
 * @returns podman's stdout
 * @throws Error with the command and the end of podman's stderr
 */
export async function podmanOk(
  args: string[],
  options: { echo?: boolean; input?: NodeJS.ReadableStream } = {},
): Promise<string> {
  const result = await podman(args, options);
  if (result.code !== 0)
    throw new Error(
      `podman ${args.slice(0, 3).join(' ')}… failed (exit ${result.code}): ${result.stderr.slice(-2000)}`,
    );
  return result.stdout;
}

/**
 * Whether Podman can run a container here (installed, storage usable, runtime present): what
 * the image checks need. Synchronous, for a test's `skipIf`.
 * @returns null when it can, else why not
 */
export function podmanUnavailable(): string | null {
  const result = spawnSync('podman', ['info', '--format', '{{.Host.OCIRuntime.Name}}'], {
    env: { ...process.env, CONTAINERS_CONF: containersConf() },
    encoding: 'utf8',
  });
  if (result.error) return `podman is not installed (${result.error.message})`;
  if (result.status !== 0) return `podman info failed: ${result.stderr.trim().slice(-500)}`;
  return null;
}
