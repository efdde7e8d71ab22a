/**
 * The lifecycle a browser test file shares: the product started once
 * before its tests and one Chromium, both stopped after them.
 */
import { beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { startProduct, type RunningProduct } from './product.ts';

export interface BrowserSuite {
  /** The running product (set once the `before` hook ran). */
  readonly product: RunningProduct;
  readonly browser: Browser;
  /** `path` on the web app under test, e.g. url('/login'). */
  url(path: string): string;
}

/**
 * Registers the `before`/`after` hooks in the calling suite (call it inside `describe`).
 * @returns getters for the product and the browser, valid inside tests
 */
export function browserSuite(): BrowserSuite {
  let product: RunningProduct | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    product = await startProduct();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });
  const started = <T>(value: T | undefined, name: string): T => {
    if (!value) throw new Error(`${name} is not started: use it inside a test`);
    return value;
  };
  return {
    get product() {
      return started(product, 'the product');
    },
    get browser() {
      return started(browser, 'the browser');
    },
    url: (path) => `${started(product, 'the product').webUrl}${path}`,
  };
}
