/**
 * The scaled topology's own Redis: Debian's redis-server in the
 * foreground as a recorded background process on its port (6389 by default,
 * RALY_SCALE_REDIS_PORT), so the chaos run can SIGKILL and restart it without
 * touching the plain stack's shared Redis on 6379.
 *
 * Persistence: append-only file with `appendfsync everysec`, no RDB
 * snapshots, in `.stack/data/<name>/`. Redis writes a command to the AOF
 * (write(2), before it answers the client), so a killed redis-server
 * loses no acknowledged write — the file is in the kernel's page cache —
 * and a crash of the whole machine loses at most about a second. The BFF
 * does not rely on it: a read-model miss falls back to the owning service,
 * and its memory of applied versions is forgotten whenever Redis comes back
 * (bff/src/domain/record-store.ts), so even an empty Redis is rebuilt.
 */
import type { StackComponent } from '../component';
import { installDebianPackages } from '../debian';
import { withProgress } from '../progress';
import { redisAnswers, redisServerInstalled } from '../redis';
import { host } from '../settings';
import { backgroundComponent, startAndAwaitHealthy } from './background';

/**
 * redis-server's command-line arguments for the scaled topology.
 * @param port its TCP port on 127.0.0.1
 * @param dataDirectory where the append-only file lives
 */
export function redisServerArgs(port: number, dataDirectory: string): string[] {
  return [
    '--bind',
    host,
    '--port',
    String(port),
    '--daemonize',
    'no',
    '--save',
    '',
    '--appendonly',
    'yes',
    '--appendfsync',
    'everysec',
    '--dir',
    dataDirectory,
    '--protected-mode',
    'yes',
  ];
}

/**
 * A redis-server of its own as a stack component: reused when its port answers
 * PING, else started (installed with apt when missing) and awaited (20 s).
 * @param name component name (run record, `.stack/logs/<name>.log`)
 * @param port its port on 127.0.0.1
 * @param dataDirectory where its append-only file lives
 */
export function redisServerComponent(
  name: string,
  port: number,
  dataDirectory: string,
): StackComponent {
  const isHealthy = () => redisAnswers(port);
  return backgroundComponent({
    name,
    address: `${host}:${port}`,
    isHealthy,
    async start() {
      if (!(await redisServerInstalled())) await installDebianPackages(name, ['redis-server']);
      await withProgress(name, `starting redis-server on ${host}:${port}`, () =>
        startAndAwaitHealthy(
          { component: name, command: 'redis-server', args: redisServerArgs(port, dataDirectory) },
          isHealthy,
          20_000,
        ),
      );
    },
    stopGraceMs: 10_000,
  });
}
