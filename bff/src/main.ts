/** Entry point: starts the BFF on `PORT` and stops it cleanly on SIGINT/SIGTERM. */
import { start, stop } from './app';

await start();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
