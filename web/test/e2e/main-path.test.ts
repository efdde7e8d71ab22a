/**
 * The product's main path in a real browser against the real product (spec
 * §2, §4, §5, §8): join as a creator, sign in, account settings with live
 * updates, sign-out across tabs, and the route guard.
 *
 * Needs the native stack (`npm run stack -- up`).
 */
import { describe, test, beforeAll, afterAll } from 'vitest';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { messages } from '@raly/contracts/messages';
import { launchBrowser } from './harness/browser.ts';
import { startProduct, type RunningProduct } from './harness/product.ts';
import { accessTokenOf, changeUsername, registerCreator } from './harness/bff-client.ts';
import { creatorRegistration, type CreatorRegistration } from '@raly/test-support';
import { logIn as logInAt, openPage, seeText, seeTitle, STEP_TIMEOUT_MS } from './harness/pages.ts';
import { step } from '@raly/test-support';

/** How soon a change made elsewhere must show on an open page (ms). */
const LIVE_UPDATE_WINDOW_MS = 1000;
const SESSION_STORAGE_KEY = 'raly.session';

let product: RunningProduct;
let browser: Browser;

const url = (path: string) => `${product.webUrl}${path}`;
const logIn = (page: Page, email: string, password: string) =>
  logInAt(page, product.webUrl, email, password);

async function fillRegistration(page: Page, creator: CreatorRegistration): Promise<void> {
  await page.getByLabel('Username', { exact: true }).fill(creator.username);
  await page.getByLabel('Email', { exact: true }).fill(creator.email);
  await page.getByLabel('Password', { exact: true }).fill(creator.password);
  await page.getByLabel('Confirm password', { exact: true }).fill(creator.password);
  await page.getByLabel('I agree to the terms and conditions').check();
}

/**
 * Logs out through the user menu. A navigation the app makes on its own (a
 * new user's dashboard sends them to onboarding once their record loads)
 * closes the menu; then it is opened again (at most 3 times).
 */
async function logOut(page: Page): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await page.getByRole('button', { name: 'Open user menu' }).click();
      await page.getByRole('menuitem', { name: 'Logout' }).click({ timeout: 5000 });
      break;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
  await page.waitForURL(url('/'));
}

const usernameInputHas = (page: Page, expected: string, timeout: number) =>
  page.waitForFunction(
    (value) =>
      (document.querySelector('input[autocomplete="username"]') as HTMLInputElement | null)
        ?.value === value,
    expected,
    { timeout },
  );

describe('the web app against the running product', () => {
  beforeAll(async () => {
    product = await startProduct();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  test('when a visitor joins as a creator, signs in and edits the account, then each step answers as the spec says', async () => {
    const context = await browser.newContext();
    const { page, problems } = await openPage(context);
    const existing = creatorRegistration();
    await registerCreator(product.bffUrl, existing);
    const creator = creatorRegistration();

    await step(
      'when /join/creator opens, then it shows the heading and the page title',
      async () => {
        await page.goto(url('/join/creator'));
        await page.getByRole('heading', { name: 'Join as a creator' }).waitFor();
        await seeTitle(page, 'Join as a creator - Raly');
      },
    );

    await step('when the empty form is submitted, then the spec messages show', async () => {
      await page.getByRole('button', { name: 'Join as a creator' }).click();
      for (const message of [
        messages.usernameRequired,
        messages.emailRequired,
        messages.passwordRequired,
        messages.passwordConfirmationRequired,
        messages.agreeTermsRegistration,
      ]) {
        await seeText(page, message);
      }
    });

    await step(
      'when a taken username is typed, then "Username is already taken" shows',
      async () => {
        await page.getByLabel('Username', { exact: true }).fill(existing.username);
        await page.getByLabel('Username', { exact: true }).press('Tab');
        await seeText(page, messages.usernameTaken);
      },
    );

    await step('when a taken e-mail is typed, then the spec message shows', async () => {
      await page.getByLabel('Email', { exact: true }).fill(existing.email);
      await page.getByLabel('Email', { exact: true }).press('Tab');
      await seeText(page, messages.emailTaken);
    });

    await step(
      'when the username is typed with a space and capitals, then it is normalised while typing',
      async () => {
        const field = page.getByLabel('Username', { exact: true });
        await field.fill('');
        await field.pressSequentially('Ab C');
        assert.equal(await field.inputValue(), 'abc');
      },
    );

    await step(
      'when a new creator registers, then they land on the dashboard signed in, which sends them on to onboarding',
      async () => {
        await fillRegistration(page, creator);
        await page.getByRole('button', { name: 'Join as a creator' }).click();
        await page.waitForURL(url('/dashboard'));
        await page.getByRole('button', { name: 'Open user menu' }).waitFor();
        // Spec §2: /dashboard checks that the user is onboarded on entry; a new creator is not.
        await page.waitForURL(url('/onboarding'));
        await seeTitle(page, 'Onboarding - Raly');
        assert.ok(await page.evaluate((key) => localStorage.getItem(key), SESSION_STORAGE_KEY));
      },
    );

    await step(
      'when the user logs out, then they are home, signed out, and the stored session is gone',
      async () => {
        await logOut(page);
        await page.getByRole('link', { name: 'Login' }).waitFor();
        assert.equal(
          await page.evaluate((key) => localStorage.getItem(key), SESSION_STORAGE_KEY),
          null,
        );
      },
    );

    await step('when logging in with a wrong password, then "Incorrect login" shows', async () => {
      await logIn(page, creator.email, `${creator.password}-wrong`);
      await seeText(page, messages.incorrectLogin);
      assert.equal(page.url(), url('/login'));
    });

    await step('when logging in with the right password, then the dashboard opens', async () => {
      await logIn(page, creator.email, creator.password);
      await page.waitForURL(url('/dashboard'));
    });

    await step(
      'when /settings/account opens, then "Loading" shows until the record arrives, then username and e-mail',
      async () => {
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route('**/api/me', async (route) => {
          await held;
          await route.continue();
        });
        await page.goto(url('/settings/account'));
        await page.getByRole('heading', { name: 'Settings' }).waitFor();
        await seeText(page, 'Loading');
        release();
        await usernameInputHas(page, creator.username, STEP_TIMEOUT_MS);
        assert.equal(await page.getByLabel('Email', { exact: true }).inputValue(), creator.email);
        await page.unroute('**/api/me');
      },
    );

    await step(
      'when the username changes elsewhere, then the open page shows it within 1 second without reload',
      async () => {
        const renamed = creatorRegistration().username;
        const token = await accessTokenOf(product.bffUrl, creator);
        await changeUsername(product.bffUrl, token, renamed);
        await usernameInputHas(page, renamed, LIVE_UPDATE_WINDOW_MS);
      },
    );

    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when a signed-in user reloads or opens a new tab, then they stay signed in, refreshed through the BFF and never calling Keycloak; logging out in one tab signs out the other', async () => {
    const creator = creatorRegistration();
    await registerCreator(product.bffUrl, creator);
    const context = await browser.newContext();
    const requests: URL[] = [];
    context.on('request', (request) => requests.push(new URL(request.url())));
    const first = await openPage(context);
    await logIn(first.page, creator.email, creator.password);
    // The dashboard sends a creator who has not finished onboarding on to /onboarding (spec §2).
    await first.page.waitForURL(url('/onboarding'));

    await first.page.reload();
    await first.page.getByRole('button', { name: 'Open user menu' }).waitFor();
    assert.equal(first.page.url(), url('/onboarding'));

    const second = await openPage(context);
    await second.page.goto(url('/settings/account'));
    await usernameInputHas(second.page, creator.username, STEP_TIMEOUT_MS);

    await logOut(first.page);
    await second.page.waitForURL(url('/'));
    await second.page.getByRole('link', { name: 'Login' }).waitFor();

    // docs/adr/0009: the reload and the new tab renewed the session at the BFF; no page called Keycloak.
    const refreshes = requests.filter((request) => request.href === url('/api/auth/refresh'));
    assert.ok(refreshes.length >= 2, `refreshes through the BFF: ${refreshes.length}`);
    const keycloakOrigins = [product.stack.keycloakUrl, product.stack.keycloakPublicUrl].map(
      (address) => new URL(address).origin,
    );
    assert.deepEqual(
      requests.filter((request) => keycloakOrigins.includes(request.origin)).map(String),
      [],
    );
    assert.deepEqual([...first.problems, ...second.problems], []);
    await context.close();
  });

  test('when a signed-out visitor opens a protected route, then they are sent home', async () => {
    const context = await browser.newContext();
    const { page } = await openPage(context);

    await page.goto(url('/settings/account'));

    await page.waitForURL(url('/'));
    await seeTitle(page, 'Raly');
    await context.close();
  });

  test('when an unknown path opens, then the 404 page shows with links home', async () => {
    const context = await browser.newContext();
    const { page } = await openPage(context);

    await page.goto(url('/no/such/page'));

    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await seeText(page, messages.pageNotFound);
    await seeTitle(page, 'Page not found - Raly');
    assert.equal(await page.getByRole('link', { name: 'Back To Home' }).getAttribute('href'), '/');
    await page.getByRole('link', { name: /Contact support/ }).click();
    await page.waitForURL(url('/'));
    await context.close();
  });
});
