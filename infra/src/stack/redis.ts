/**
 * Redis on 127.0.0.1:6379: reused when it answers PING, else started as a
 * daemon without persistence (installed with apt if missing).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { StackComponent } from './component';
import { installDebianPackages } from './debian';
import { ensureDirectory, runDirectory } from './paths';
import { execFileAsync, stopRecorded, writeRunRecord } from './processes';
import { waitUntilHealthy } from './probes';
import { withProgress } from './progress';
import { host, ports } from './settings';

const name = 'redis';

/**
 * Whether a Redis server answers PING on 127.0.0.1:`port` within a second.
 * @param port the server's port (default the plain stack's)
 */
export function redisAnswers(port: number = ports.redis): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let reply = '';
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

const ping = () => redisAnswers();

/** Whether Debian's redis-server is on PATH. */
export async function redisServerInstalled(): Promise<boolean> {
  return execFileAsync('sh', ['-c', 'command -v redis-server']).then(
    () => true,
    () => false,
  );
}

async function ensure(): Promise<'reused' | 'started'> {
  if (await ping()) return 'reused';
  if (!(await redisServerInstalled())) await installDebianPackages(name, ['redis-server']);
  await withProgress(name, 'starting redis-server', async () => {
    mkdirSync('/var/lib/redis', { recursive: true });
    mkdirSync('/var/log/redis', { recursive: true });
    const pidFile = join(ensureDirectory(runDirectory), 'redis.pid');
    await execFileAsync('redis-server', [
      '--daemonize',
      'yes',
      '--bind',
      '127.0.0.1',
      '-::1',
      '--port',
      String(ports.redis),
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      '/var/lib/redis',
      '--logfile',
      '/var/log/redis/ci.log',
      '--pidfile',
      pidFile,
    ]);
    await waitUntilHealthy(ping, { component: name, timeoutMs: 20_000 });
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : undefined;
    writeRunRecord({
      component: name,
      kind: 'command',
      stop: ['redis-cli', '-h', host, '-p', String(ports.redis), 'shutdown', 'nosave'],
      startedAt: new Date().toISOString(),
      ...(pid ? { pid } : {}),
    });
  });
  return 'started';
}

export const redis: StackComponent = {
  name,
  address: `${host}:${ports.redis}`,
  isHealthy: ping,
  ensure,
  stop: () => stopRecorded(name),
};
