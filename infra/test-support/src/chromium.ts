/**
 * The one way Raly's browser runs drive Chromium (the web e2e tests, the
 * benchmark suite's LCP figure): the machine's Debian chromium through
 * playwright-core (no browser download), headless, with these flags.
 * Options only, so this package does not depend on playwright-core.
 */

/** Debian's chromium (CHROMIUM_PATH overrides). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** @returns the options of playwright-core's `chromium.launch` */
export function chromiumLaunchOptions(): { executablePath: string; args: string[] } {
  return {
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  };
}
