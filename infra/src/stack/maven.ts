/**
 * Fetches artifacts from the Maven repository configured for `mvn` (the local
 * ~/.m2 cache first), into `.stack/downloads/`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDirectory } from './paths';

function runMaven(component: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('mvn', ['-B', '-q', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', (error) =>
      reject(
        new Error(`${component}: cannot run mvn (${error.message}); install maven`, {
          cause: error,
        }),
      ),
    );
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(
            new Error(
              `${component}: mvn ${args[0]} failed (exit ${code}):\n${output.slice(-4000)}`,
            ),
          ),
    );
  });
}

/**
 * Copies one artifact (groupId:artifactId:version[:packaging[:classifier]]) into a folder.
 * mvn writes into a private staging folder first and each file is then renamed into place,
 * so a process that finds the file (another test file, another node of a cluster) never
 * reads a half-written jar, and two concurrent copies of the same artifact cannot clash.
 * @throws Error when mvn cannot be run or fails
 */
export async function copyArtifact(
  component: string,
  coordinates: string,
  outputDirectory: string,
): Promise<void> {
  ensureDirectory(outputDirectory);
  const staging = mkdtempSync(join(outputDirectory, '.staging-'));
  try {
    await runMaven(component, [
      'dependency:copy',
      `-Dartifact=${coordinates}`,
      `-DoutputDirectory=${staging}`,
    ]);
    for (const file of readdirSync(staging))
      renameSync(join(staging, file), join(outputDirectory, file));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Copies a pom's runtime dependencies into a folder, marking it complete only on success. */
export async function copyDependencies(
  component: string,
  pom: string,
  outputDirectory: string,
  properties: Record<string, string> = {},
): Promise<void> {
  ensureDirectory(outputDirectory);
  await runMaven(component, [
    '-f',
    pom,
    'dependency:copy-dependencies',
    '-DincludeScope=runtime',
    `-DoutputDirectory=${outputDirectory}`,
    ...Object.entries(properties).map(([key, value]) => `-D${key}=${value}`),
  ]);
  writeFileSync(join(outputDirectory, '.complete'), new Date().toISOString());
}

export function isCompleteDownload(outputDirectory: string): boolean {
  return existsSync(join(outputDirectory, '.complete'));
}
