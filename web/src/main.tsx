/**
 * Entry point: log the staging notice when configured (spec §1), resume the
 * browser session (keycloak-js is created and initialised here, once,
 * outside React), then render.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@/index.css';
import { env } from '@/config/env';
import { startSession } from '@/lib/session';
import { logStagingNotice } from '@/lib/staging-notice';
import { App } from '@/app/index';

logStagingNotice(env.backend);

void startSession().finally(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
