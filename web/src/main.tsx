/**
 * Entry point: read the runtime configuration (/config.json, config/env),
 * log the staging notice when configured (spec §1), resume the browser
 * session (lib/session: the token set stored by an earlier page, refreshed
 * once through the BFF's POST /api/auth/refresh, outside React), then
 * render. A missing or invalid configuration shows
 * app/config-error-page instead of the app.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@/index.css';
import { ConfigError, loadRuntimeConfig } from '@/config/env';
import { startSession } from '@/lib/session';
import { logStagingNotice } from '@/lib/staging-notice';
import { showConfigError } from '@/app/config-error-page';
import { App } from '@/app/index';

const root = document.getElementById('root')!;

const render = () =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );

loadRuntimeConfig().then(
  (config) => {
    logStagingNotice(config.backend);
    void startSession().finally(render);
  },
  (error: unknown) => {
    console.error('[config]', error);
    showConfigError(
      root,
      error instanceof ConfigError ? error.problems : [`unexpected error: ${String(error)}`],
    );
  },
);
