/**
 * `npm stop`: stops everything recorded in .stack/run/ — a running `npm start`
 * first (its supervisor then stops its apps and the stack components it
 * started, without restarting anything), then whatever is still recorded:
 * apps and stack components the stack started — and nothing else.
 */
import { stopStack } from '../stack/stack';

try {
  const stopped = await stopStack();
  console.log(
    stopped.length > 0
      ? `stopped: ${stopped.join(', ')}`
      : 'nothing recorded in .stack/run to stop',
  );
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
