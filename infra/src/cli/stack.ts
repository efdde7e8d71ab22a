/**
 * `npm run stack -- up|down|status`: the native local stack on the ports of
 * docs/conventions.md. `status` also lists the scaled topology's instances
 * while `npm start -- --scale` runs (or with `--scale`). `up` reuses what already answers and starts the rest;
 * `down` stops only what the stack started (recorded in .stack/run/).
 */
import { nativeEndpoints, stackEnvironment } from '../stack/endpoints';
import { ensureStack, stackStatus, stopStack } from '../stack/stack';

async function up(): Promise<void> {
  const startedAt = Date.now();
  const outcome = await ensureStack();
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
  for (const [name, result] of Object.entries(outcome))
    console.log(`  ${name.padEnd(9)} ${result}`);
  console.log(`stack is up (${seconds} s). Environment for services:`);
  for (const [key, value] of Object.entries(stackEnvironment(nativeEndpoints())))
    console.log(`  ${key}=${value}`);
}

async function status(scale: boolean): Promise<boolean> {
  const statuses = await stackStatus({ scale });
  const width = Math.max(9, ...statuses.map((component) => component.name.length));
  for (const component of statuses) {
    const health = component.healthy ? 'healthy' : component.unused ? 'unused' : 'DOWN';
    const owner = component.startedByStack
      ? `started by stack (${component.startedByStack})`
      : 'not started by stack';
    console.log(
      `${component.name.padEnd(width)} ${health.padEnd(8)} ${component.address.padEnd(40)} ${owner}`,
    );
  }
  return statuses.every((component) => component.healthy || component.unused);
}

async function down(only: string[]): Promise<void> {
  const stopped = await stopStack(only.length > 0 ? only : undefined);
  console.log(
    stopped.length > 0
      ? `stopped: ${stopped.join(', ')}`
      : 'nothing to stop (the stack started nothing that is still recorded)',
  );
}

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === 'up') await up();
  else if (command === 'down') await down(rest);
  else if (command === 'status')
    process.exitCode = (await status(rest.includes('--scale'))) ? 0 : 1;
  else {
    console.error('usage: npm run stack -- up | down [component…] | status [--scale]');
    process.exitCode = 2;
  }
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
