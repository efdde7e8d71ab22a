/**
 * `npm stop`: stops everything recorded in .stack/run/ — the apps `npm start`
 * runs and the stack components the stack started — and nothing else.
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
