/**
 * Entry point: resume the browser session (keycloak-js is created and
 * initialised here, once, outside React), then render.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@/index.css';
import { startSession } from '@/lib/session';
import { App } from '@/app/index';

void startSession().finally(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
