/**
 * The SMTP catcher: MailDev (npm) catching mail on 127.0.0.1:1025 and serving
 * the caught messages over HTTP on 1080 (GET /email, /healthz), mails kept in
 * .stack/data/smtp.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { StackComponent } from './component';
import { dataDirectory } from './paths';
import { recordedLiveProcess, startBackgroundProcess, stopRecorded } from './processes';
import { httpAnswers, tcpAnswers, waitUntilHealthy } from './probes';
import { withProgress } from './progress';
import { host, ports } from './settings';

const name = 'smtp';
const catcherUrl = `http://${host}:${ports.smtpCatcherHttp}`;

async function isHealthy(): Promise<boolean> {
  return (await httpAnswers(`${catcherUrl}/healthz`)) && (await tcpAnswers(ports.smtp));
}

function maildevEntryPoint(): string {
  const require = createRequire(import.meta.url);
  const packageJsonPath = require.resolve('maildev/package.json');
  const bin = (require(packageJsonPath) as { bin: Record<string, string> }).bin.maildev;
  if (!bin) throw new Error(`${name}: maildev has no bin entry`);
  return join(dirname(packageJsonPath), bin);
}

async function ensure(): Promise<'reused' | 'started'> {
  if (await isHealthy()) return 'reused';
  if (recordedLiveProcess(name)) await stopRecorded(name);
  await withProgress(name, 'starting MailDev', async () => {
    const pid = startBackgroundProcess({
      component: name,
      command: process.execPath,
      args: [
        maildevEntryPoint(),
        '--smtp',
        String(ports.smtp),
        '--web',
        String(ports.smtpCatcherHttp),
        '--ip',
        host,
        '--mail-directory',
        dataDirectory(name),
      ],
    });
    await waitUntilHealthy(isHealthy, {
      component: name,
      timeoutMs: 30_000,
      stillStarting: () => {
        if (!recordedLiveProcess(name))
          throw new Error(
            `${name}: exited while starting (pid ${pid}); see .stack/logs/${name}.log`,
          );
      },
    });
  });
  return 'started';
}

export const smtp: StackComponent = {
  name,
  address: `${host}:${ports.smtp} (HTTP ${ports.smtpCatcherHttp})`,
  isHealthy,
  ensure,
  stop: () => stopRecorded(name),
};
