/** Entry point: starts the BFF on `PORT` and stops it cleanly on SIGINT/SIGTERM (the kit's `runAsProcess`). */
import { runAsProcess } from '@raly/service-kit/service';
import { start, stop } from './app';

await runAsProcess({ start, stop });
