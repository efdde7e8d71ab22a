/** Runs moderation as a process (`npm run dev`). */
import { runAsProcess } from '@raly/service-kit/service';
import { start, stop } from './app';

await runAsProcess({ start, stop });
