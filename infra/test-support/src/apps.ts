/**
 * The apps a test starts in-process, loaded from the workspace when a test
 * asks for one. They are not dependencies of this package: every app's own
 * tests use it, so declaring them would close a loop in the package graph
 * (brand → test-support → brand). The workspace links every app under
 * node_modules/@raly, as `npm start` finds them by folder.
 */
import type { RunningBff, StartOptions as BffStartOptions } from '@raly/bff/app';

/** A service's public `./app` entry (kit `defineService`). */
export interface ServiceApp {
  start(options: { port: number; env: Record<string, string> }): Promise<{ port: number }>;
  stop(): Promise<void>;
}

export type ServiceName =
  | 'identity-profile'
  | 'brand'
  | 'media'
  | 'offers'
  | 'collaborations'
  | 'notifications'
  | 'moderation';

export type { RunningBff };

const serviceApps: Record<ServiceName, () => Promise<ServiceApp>> = {
  'identity-profile': () => import('@raly/identity-profile/app'),
  brand: () => import('@raly/brand/app'),
  media: () => import('@raly/media/app'),
  offers: () => import('@raly/offers/app'),
  collaborations: () => import('@raly/collaborations/app'),
  notifications: () => import('@raly/notifications/app'),
  moderation: () => import('@raly/moderation/app'),
};

/** @returns the service's `./app` module (loaded once per process, as any import) */
export function loadServiceApp(name: ServiceName): Promise<ServiceApp> {
  return serviceApps[name]();
}

/**
 * Starts one BFF instance through `@raly/bff/app` `startBff`.
 * @param options port and settings that win over the environment
 */
export async function startBffApp(options: BffStartOptions): Promise<RunningBff> {
  const { startBff } = await import('@raly/bff/app');
  return startBff(options);
}
