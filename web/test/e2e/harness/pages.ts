/**
 * Browser steps the end-to-end tests share: opening a page that records
 * what broke, reading texts and titles, signing in.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { TOAST_DURATION_MS } from '@raly/contracts/constants';

/** How long one browser step may take (ms). */
export const STEP_TIMEOUT_MS = 20_000;

/** The viewports the shell is checked at. */
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** @returns a new browser context (desktop viewport unless `options` says otherwise) and its page */
export async function newViewportPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: DESKTOP, ...options });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  return { context, page };
}

/** Console output that means the session or the security policy broke (e.g. the CSP refused a request). */
const brokenSessionSignal = /CORS|Content Security Policy|\[session\]/i;

/**
 * @returns a new page of `context` and the list its page errors and
 *   session/CSP console messages are collected in (assert it stays empty)
 */
export async function openPage(
  context: BrowserContext,
): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (brokenSessionSignal.test(message.text()))
      problems.push(`console ${message.type()}: ${message.text()}`);
  });
  return { page, problems };
}

/** Waits until `text` shows on the page (exact match). */
export const seeText = (page: Page, text: string) =>
  page.getByText(text, { exact: true }).first().waitFor();

/** The title is set in an effect after the page renders: wait for it rather than read it once. */
export const seeTitle = (page: Page, title: string) =>
  page.waitForFunction((expected) => document.title === expected, title);

/** Fills and submits the /login form of the web app at `webUrl`. */
export async function logIn(
  page: Page,
  webUrl: string,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${webUrl}/login`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** After a successful sign-in the app is on the dashboard, or on onboarding where the dashboard sent a new user. */
export const waitUntilSignedIn = (page: Page) =>
  page.waitForURL((address) => ['/dashboard', '/onboarding'].includes(address.pathname));

/**
 * Signs in through the /login form in a new browser context, then opens `path`.
 * @param contextOptions e.g. `{ bypassCSP: true }` for a page axe-core will check
 * @returns the context (close it when done), the page and its problems list (see openPage)
 */
export async function signedInPage(
  browser: Browser,
  webUrl: string,
  person: { email: string; password: string },
  path: string,
  contextOptions: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext(contextOptions);
  const opened = await openPage(context);
  await logIn(opened.page, webUrl, person.email, person.password);
  await waitUntilSignedIn(opened.page);
  await opened.page.goto(`${webUrl}${path}`);
  return { context, ...opened };
}

/**
 * Waits for the toast with `text` (a success toast is a status, an alert an
 * alert), then closes it so the next one can be told apart. A toast closes
 * itself after TOAST_DURATION_MS (5 s); on a busy machine it may do so before
 * the click lands, which is as good: either way it must be gone.
 */
export async function seeToast(
  page: Page,
  text: string,
  kind: 'success' | 'alert' = 'success',
): Promise<void> {
  const toast = page.getByRole(kind === 'success' ? 'status' : 'alert').filter({ hasText: text });
  await toast.waitFor();
  await toast
    .getByRole('button', { name: 'Close notification' })
    .click({ timeout: TOAST_DURATION_MS })
    .catch(async (error: unknown) => {
      if ((await toast.count()) > 0) throw error;
    });
  await toast.waitFor({ state: 'detached' });
}

/** Waits until the input or textarea labelled exactly `label` holds `expected`. */
export const fieldHas = (page: Page, label: string, expected: string, timeout = STEP_TIMEOUT_MS) =>
  page.waitForFunction(
    ({ label, expected }) => {
      const field = [...document.querySelectorAll('label')].find(
        (element) => element.textContent === label,
      )?.control;
      return (
        (field as HTMLInputElement | HTMLTextAreaElement | null | undefined)?.value === expected
      );
    },
    { label, expected },
    { timeout },
  );

/** Counts the GET /api/me requests the page sends from now on (docs/adr/0007: one per page load). */
export function countMeReads(page: Page): { count: number } {
  const reads = { count: 0 };
  page.on('request', (request) => {
    if (request.method() === 'GET' && new URL(request.url()).pathname === '/api/me')
      reads.count += 1;
  });
  return reads;
}
