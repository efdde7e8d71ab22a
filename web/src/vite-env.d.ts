/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_KEYCLOAK_URL?: string;
  readonly VITE_KEYCLOAK_REALM?: string;
  readonly VITE_KEYCLOAK_CLIENT_ID?: string;
  /** local | staging | production; staging logs a staging-mode notice at start (spec §1). */
  readonly VITE_BACKEND_ENV?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
