/** The staging-mode notice of spec §1: the app says so when it runs against a staging backend. */
import type { BackendEnvironment } from '@/config/env';

export const STAGING_NOTICE =
  '[raly] Running in staging mode: this app talks to the staging backend.';

/**
 * Logs {@link STAGING_NOTICE} through `console.info` when the backend is staging.
 * @param backend the configured backend (env.backend, the runtime configuration's backendEnvironment)
 * @param log where to write; console.info unless a caller passes another sink
 * @returns true when the notice was logged
 */
export function logStagingNotice(
  backend: BackendEnvironment,
  log: (message: string) => void = console.info,
): boolean {
  if (backend !== 'staging') return false;
  log(STAGING_NOTICE);
  return true;
}
