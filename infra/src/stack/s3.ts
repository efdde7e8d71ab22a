/**
 * The S3-compatible store: Adobe S3Mock (exec jar from Maven Central) on
 * 127.0.0.1:9090 (HTTPS 9191), path-style, bucket raly-media, files kept in
 * .stack/data/s3 across restarts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { StackComponent } from './component';
import { requireJava } from './java';
import { copyArtifact } from './maven';
import { dataDirectory, downloadsDirectory } from './paths';
import { recordedLiveProcess, startBackgroundProcess, stopRecorded } from './processes';
import { httpAnswers, waitUntilHealthy } from './probes';
import { say, withProgress } from './progress';
import { host, ports, s3Defaults } from './settings';

const name = 's3';
export const s3MockVersion = '5.2.0';
const jarPath = join(downloadsDirectory, `s3mock-${s3MockVersion}-exec.jar`);
const endpoint = `http://${host}:${ports.s3}`;

async function isHealthy(): Promise<boolean> {
  return httpAnswers(`${endpoint}/`);
}

/** S3Mock creates the bucket at start; a store we merely reuse may still lack it. */
export async function ensureBucket(
  storeEndpoint = endpoint,
  bucket: string = s3Defaults.bucket,
): Promise<void> {
  const head = await fetch(`${storeEndpoint}/${bucket}`, { method: 'HEAD' });
  if (head.ok) return;
  const created = await fetch(`${storeEndpoint}/${bucket}`, { method: 'PUT' });
  if (!created.ok)
    throw new Error(`${name}: cannot create bucket ${bucket}: HTTP ${created.status}`);
  say(name, `created bucket ${bucket}`);
}

async function ensure(): Promise<'reused' | 'started'> {
  if (await isHealthy()) {
    await ensureBucket();
    return 'reused';
  }
  if (recordedLiveProcess(name)) await stopRecorded(name);
  const java = requireJava(name, 17);
  if (!existsSync(jarPath)) {
    await withProgress(name, `downloading S3Mock ${s3MockVersion} with mvn`, () =>
      copyArtifact(name, `com.adobe.testing:s3mock:${s3MockVersion}:jar:exec`, downloadsDirectory),
    );
  }
  const storeRoot = dataDirectory(name);
  await withProgress(name, `starting S3Mock ${s3MockVersion} (≈10 s)`, async () => {
    const pid = startBackgroundProcess({
      component: name,
      command: java.executable,
      args: ['-Xms64m', '-Xmx384m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-jar', jarPath],
      cwd: storeRoot,
      env: {
        COM_ADOBE_TESTING_S3MOCK_HTTP_PORT: String(ports.s3),
        SERVER_PORT: String(ports.s3Https),
        SERVER_ADDRESS: host,
        COM_ADOBE_TESTING_S3MOCK_STORE_ROOT: storeRoot,
        COM_ADOBE_TESTING_S3MOCK_STORE_RETAIN_FILES_ON_EXIT: 'true',
        COM_ADOBE_TESTING_S3MOCK_STORE_INITIAL_BUCKETS: s3Defaults.bucket,
        COM_ADOBE_TESTING_S3MOCK_STORE_REGION: s3Defaults.region,
        COM_ADOBE_TESTING_S3MOCK_MAX_PAYLOAD_SIZE: '50MB',
      },
    });
    await waitUntilHealthy(isHealthy, {
      component: name,
      timeoutMs: 90_000,
      stillStarting: () => {
        if (!recordedLiveProcess(name))
          throw new Error(
            `${name}: exited while starting (pid ${pid}); see .stack/logs/${name}.log`,
          );
      },
    });
  });
  await ensureBucket();
  return 'started';
}

export const s3: StackComponent = {
  name,
  address: `${host}:${ports.s3}`,
  isHealthy,
  ensure,
  stop: () => stopRecorded(name),
};
