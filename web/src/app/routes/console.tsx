/** The staff console (/console, docs/console.md): its own sign-in and frame, a chunk of its own. */
import { ConsolePage } from '@/features/console/components/console-page';
import type { ConsoleSignInConfig } from '@/features/console/services/console-session';

/** @param props where staff sign in (null: not set up) and the BFF's REST prefix, from config/env */
export function ConsoleRoute(props: { config: ConsoleSignInConfig | null; apiBaseUrl: string }) {
  return <ConsolePage {...props} />;
}
