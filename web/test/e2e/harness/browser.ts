/**
 * Chromium for the end-to-end tests: the machine's /usr/bin/chromium driven
 * by playwright-core (no browser download), launched as every browser run of
 * the repository is (@raly/test-support/chromium).
 */
import { chromium, type Browser } from 'playwright-core';
import { chromiumLaunchOptions } from '@raly/test-support/chromium';

export { CHROMIUM_PATH } from '@raly/test-support/chromium';

/** @returns a headless Chromium; close it when done */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions());
}
