/**
 * One external command of the image tooling, with its output captured.
 */
import { spawn } from 'node:child_process';

/**
 * Runs `command args…` and waits for it.
 * @param options.cwd working directory; options.env its environment (default this process's)
 * @returns its stdout
 * @throws Error naming the command, its exit code and the end of its stderr
 */
export async function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exitCode) => resolve(exitCode ?? 1));
  });
  if (code !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (exit ${code}): ${stderr.slice(-2000)}`);
  return stdout;
}
