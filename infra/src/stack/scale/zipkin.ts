/**
 * Zipkin, the trace backend of the scaled topology: the server jar
 * (io.zipkin:zipkin-server, `exec` classifier) from Maven Central, in-memory
 * storage, on its port (9411 by default). The apps send spans to
 * `/api/v2/spans` (OTEL_EXPORTER_ZIPKIN_ENDPOINT); the UI is
 * http://127.0.0.1:<port>/zipkin/.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { StackComponent } from '../component';
import { requireJava } from '../java';
import { copyArtifact } from '../maven';
import { downloadsDirectory } from '../paths';
import { recordedLiveProcess, stopRecorded } from '../processes';
import { httpAnswers } from '../probes';
import { withProgress } from '../progress';
import { host } from '../settings';
import { startAndAwaitHealthy } from './background';

export const zipkinVersion = '3.5.1';
const jarDirectory = join(downloadsDirectory, `zipkin-${zipkinVersion}`);
const jar = join(jarDirectory, `zipkin-server-${zipkinVersion}-exec.jar`);

/**
 * Zipkin as a stack component on `port`.
 * @throws Error from `ensure()` when Java 17+ or mvn is missing, or Maven Central refuses the jar
 */
export function zipkinComponent(name: string, port: number): StackComponent {
  const isHealthy = () => httpAnswers(`http://${host}:${port}/health`);
  return {
    name,
    address: `${host}:${port} (UI /zipkin/)`,
    isHealthy,
    async ensure() {
      if (await isHealthy()) return 'reused';
      if (recordedLiveProcess(name)) await stopRecorded(name);
      const java = requireJava(name, 17);
      if (!existsSync(jar))
        await withProgress(name, `downloading zipkin-server ${zipkinVersion} with mvn`, () =>
          copyArtifact(name, `io.zipkin:zipkin-server:${zipkinVersion}:jar:exec`, jarDirectory),
        );
      await withProgress(name, `starting Zipkin ${zipkinVersion} on ${host}:${port} (≈15 s)`, () =>
        startAndAwaitHealthy(
          {
            component: name,
            command: java.executable,
            args: [
              '-Xms64m',
              '-Xmx256m',
              '-XX:+UseSerialGC',
              '-jar',
              jar,
              // Loopback only: Armeria's port list, given whole (Spring replaces lists, never merges them).
              `--armeria.ports[0].ip=${host}`,
              `--armeria.ports[0].port=${port}`,
              '--armeria.ports[0].protocols[0]=http',
            ],
            env: { STORAGE_TYPE: 'mem' },
          },
          isHealthy,
          120_000,
        ),
      );
      return 'started';
    },
    stop: () => stopRecorded(name, 15_000),
  };
}
