/** The staff console (/console, docs/console.md): its own sign-in and frame, a chunk of its own. */
import { ConsolePage } from '@/features/console/components/console-page';
import type { ConsoleLiveAddress } from '@/features/console/services/console-live';
import type { ConsoleSignInConfig } from '@/features/console/services/console-session';

/**
 * @param props where staff sign in (null: not set up), the BFF's REST prefix and where its live
 *   socket answers, from config/env
 */
export function ConsoleRoute(props: {
  config: ConsoleSignInConfig | null;
  apiBaseUrl: string;
  live: ConsoleLiveAddress;
}) {
  return <ConsolePage {...props} />;
}
