/**
 * Largest Contentful Paint of the web app's first pages (target ≤ 500 ms
 * for / and /login): the production build served by nginx with the
 * production rules (../web-server), loaded by headless Chromium
 * (playwright-core on Debian's /usr/bin/chromium, launched as the web e2e
 * tests launch it: @raly/test-support/chromium) over loopback, signed out, each run in a fresh browser context
 * (empty cache, no storage). The figure is the last 'largest-contentful-paint'
 * entry a PerformanceObserver reports once the network is idle, in ms from
 * the navigation's start; the median of `runs` runs per page.
 */
import { chromium, type Browser } from 'playwright-core';
import { chromiumLaunchOptions } from '@raly/test-support/chromium';
import { startWebServer } from '../web-server';

/** The pages measured, as paths of the app. */
export const lcpPages = ['/', '/login'] as const;

export interface WebLcpResult {
  runs: number;
  /** Per page: every run's LCP and their median (ms). */
  pages: { path: string; samplesMs: number[]; medianMs: number; element: string }[];
}

/** Median of samples (mean of the middle two for an even count); NaN for none. */
function median(samples: number[]): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * One page load: navigates, waits for the network to be idle (at most 15 s),
 * then reads the page's LCP entries.
 * @returns the LCP in ms and the tag (and id or text) of its element
 * @throws Error when the page reports no LCP entry
 */
async function measureOnce(
  browser: Browser,
  url: string,
): Promise<{ lcpMs: number; element: string }> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'networkidle', timeout: 15_000 });
    const entry = await page.evaluate(
      () =>
        new Promise<{ startTime: number; element: string } | null>((resolve) => {
          const observer = new PerformanceObserver((list) => {
            const entries = list.getEntries() as (PerformanceEntry & { element?: Element })[];
            const last = entries[entries.length - 1];
            observer.disconnect();
            if (!last) return resolve(null);
            const element = last.element;
            const text = element?.textContent?.trim().slice(0, 40) ?? '';
            resolve({
              startTime: last.startTime,
              element: element ? `<${element.tagName.toLowerCase()}> ${text}` : '(removed)',
            });
          });
          observer.observe({ type: 'largest-contentful-paint', buffered: true });
          setTimeout(() => resolve(null), 2000);
        }),
    );
    if (!entry) throw new Error(`${url}: no largest-contentful-paint entry`);
    return { lcpMs: entry.startTime, element: entry.element };
  } finally {
    await context.close();
  }
}

/**
 * Serves web/dist (built beforehand, ./web-bundle) with nginx and measures
 * the LCP of each page of {@link lcpPages}, one warm-up load first.
 * @param runs loads per page (bounded: each at most ~17 s)
 */
export async function measureWebLcp(runs: number): Promise<WebLcpResult> {
  const server = await startWebServer();
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    // Chromium's own first-navigation costs (process start-up) are not the page's.
    await measureOnce(browser, `${server.url}/`);
    const pages: WebLcpResult['pages'] = [];
    for (const pagePath of lcpPages) {
      const samples: number[] = [];
      let element = '';
      for (let run = 0; run < runs; run += 1) {
        const result = await measureOnce(browser, `${server.url}${pagePath}`);
        samples.push(Math.round(result.lcpMs * 10) / 10);
        element = result.element;
      }
      pages.push({ path: pagePath, samplesMs: samples, medianMs: median(samples), element });
    }
    return { runs, pages };
  } finally {
    await browser.close();
    await server.stop();
  }
}
