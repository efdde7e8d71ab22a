/**
 * Finds a Java runtime of at least a given feature version among JAVA_HOME, the
 * `java` on PATH and the JDKs under /usr/lib/jvm, preferring the newest.
 */
import { existsSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';

export interface JavaRuntime {
  home: string;
  executable: string;
  featureVersion: number;
}

function releaseVersion(home: string): number | undefined {
  const release = join(home, 'release');
  if (!existsSync(release)) return undefined;
  const match = /JAVA_VERSION="(\d+)(?:\.(\d+))?/.exec(readFileSync(release, 'utf8'));
  if (!match?.[1]) return undefined;
  const major = Number(match[1]);
  return major === 1 ? Number(match[2]) : major;
}

function homeOfJavaOnPath(): string | undefined {
  try {
    const javaPath = execFileSync('sh', ['-c', 'command -v java'], { encoding: 'utf8' }).trim();
    return javaPath ? dirname(dirname(realpathSync(javaPath))) : undefined;
  } catch {
    return undefined;
  }
}

function candidateHomes(): string[] {
  const homes = new Set<string>();
  if (process.env.JAVA_HOME) homes.add(process.env.JAVA_HOME);
  const onPath = homeOfJavaOnPath();
  if (onPath) homes.add(onPath);
  if (existsSync('/usr/lib/jvm')) {
    for (const entry of readdirSync('/usr/lib/jvm')) homes.add(join('/usr/lib/jvm', entry));
  }
  return [...homes];
}

export function findJava(minimumVersion: number): JavaRuntime | undefined {
  const runtimes = candidateHomes()
    .map((home) => ({
      home,
      executable: join(home, 'bin', 'java'),
      featureVersion: releaseVersion(home) ?? 0,
    }))
    .filter(
      (runtime) => runtime.featureVersion >= minimumVersion && existsSync(runtime.executable),
    );
  runtimes.sort((a, b) => b.featureVersion - a.featureVersion);
  return runtimes[0];
}

export function requireJava(component: string, minimumVersion: number): JavaRuntime {
  const java = findJava(minimumVersion);
  if (!java) {
    throw new Error(
      `${component}: needs Java ${minimumVersion}+; none found in JAVA_HOME, PATH or /usr/lib/jvm (install openjdk-17-jre-headless)`,
    );
  }
  return java;
}
