/**
 * The app shell of spec §2 in a real browser against the real product:
 * every route with its title and redirects, the guard, the header signed
 * out and in, the avatar menu, the mobile slide-over, the toast lifetime,
 * the 404 page and the staging notice (layout and axe-core:
 * accessibility.test.ts).
 *
 * Needs the native stack (`npm run stack -- up`).
 */
import { describe, test, beforeAll, afterAll } from 'vitest';
import assert from 'node:assert/strict';
import type {
  Browser,
  BrowserContext,
  BrowserContextOptions,
  ConsoleMessage,
  Page,
} from 'playwright-core';
import { TOAST_DURATION_MS } from '@raly/contracts/constants';
import { messages } from '@raly/contracts/messages';
import { launchBrowser } from './harness/browser.ts';
import { startProduct, type RunningProduct } from './harness/product.ts';
import {
  aSignedInCreator,
  openSignedIn,
  ownRecordOf,
  type SignedInCreator,
} from './harness/shell-users.ts';
import { DESKTOP, newViewportPage, PHONE, seeTitle } from './harness/pages.ts';

let product: RunningProduct;
let browser: Browser;
const consoleInfo: string[] = [];

const url = (path: string) => `${product.webUrl}${path}`;

async function newPage(
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await newViewportPage(browser, options);
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'info') consoleInfo.push(message.text());
  });
  return { context, page };
}

/** A new browser context and page signed in as `user` (a fresh sign-in of its own) on `path`. */
async function signedInPage(
  user: SignedInCreator,
  path: string,
  options: BrowserContextOptions = {},
) {
  const opened = await newPage(options);
  await openSignedIn(opened.page, product.webUrl, user, path);
  return opened;
}

const seeUrl = (page: Page, path: string) => page.waitForURL(url(path));
const header = (page: Page) => page.getByRole('banner');

/** @returns the first value of `read` that passes `done`, or the last one read after `withinMs` */
async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  withinMs: number,
): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * A new creator, signed in on a fresh token set (refresh tokens rotate, so
 * each browser context gets its own sign-in), onboarded or not.
 */
const anOnboardedCreator = () => aSignedInCreator(product.bffUrl, { onboarded: true });
const aNewcomer = () => aSignedInCreator(product.bffUrl, { onboarded: false });

describe('the app shell (spec §2)', () => {
  beforeAll(async () => {
    // The whole file runs against a staging-mode configuration (the notice is checked below).
    product = await startProduct({ backendEnvironment: 'staging' });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  describe('routes, titles and redirects', () => {
    test('when home opens, then the title is exactly "Raly" and Get Started goes to /join/creator', async () => {
      const { context, page } = await newPage();
      await page.goto(url('/'));
      await seeTitle(page, 'Raly');
      await page.getByRole('link', { name: 'Get Started' }).click();
      await seeUrl(page, '/join/creator');
      await page.getByRole('heading', { name: 'Join as a creator' }).waitFor();
      await seeTitle(page, 'Join as a creator - Raly');
      await context.close();
    });

    test('when each public route opens, then its page title is the route title followed by " - Raly"', async () => {
      const { context, page } = await newPage();
      const titles: Array<[string, string]> = [
        ['/join/creator', 'Join as a creator - Raly'],
        ['/join/brand', 'Join as a brand - Raly'],
        ['/login', 'Login - Raly'],
        ['/forgot-password', 'Forgot Password - Raly'],
        ['/auth/action?mode=resetPassword&oobCode=code&apiKey=key', 'Create a new password - Raly'],
      ];
      for (const [path, title] of titles) {
        await page.goto(url(path));
        await seeTitle(page, title);
      }
      await context.close();
    });

    test('when /join opens, then it redirects to /join/creator', async () => {
      const { context, page } = await newPage();
      await page.goto(url('/join'));
      await seeUrl(page, '/join/creator');
      await page.getByRole('heading', { name: 'Join as a creator' }).waitFor();
      await context.close();
    });

    test('when a signed-out visitor opens any protected route, then they are sent to "/"', async () => {
      const { context, page } = await newPage();
      for (const path of [
        '/dashboard',
        '/onboarding',
        '/settings',
        '/settings/account',
        '/settings/brand',
      ]) {
        await page.goto(url(path));
        await seeUrl(page, '/');
        await seeTitle(page, 'Raly');
      }
      await context.close();
    });

    test('when a signed-in user opens /settings, then it redirects to /settings/account titled "Account - Raly"', async () => {
      const onboarded = await anOnboardedCreator();
      const { context, page } = await signedInPage(onboarded, '/settings');
      await seeUrl(page, '/settings/account');
      await seeTitle(page, 'Account - Raly');
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      await context.close();
    });

    test('when an onboarded user opens /dashboard, then the dashboard shows titled "Dashboard - Raly"', async () => {
      const onboarded = await anOnboardedCreator();
      const { context, page } = await signedInPage(onboarded, '/dashboard');
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await page.getByText(`Welcome, ${onboarded.username}.`).waitFor();
      await seeTitle(page, 'Dashboard - Raly');
      assert.equal(page.url(), url('/dashboard'));
      await context.close();
    });

    test('when a user who is not onboarded opens /dashboard, then they are sent to /onboarding', async () => {
      const newcomer = await aNewcomer();
      const { context, page } = await signedInPage(newcomer, '/dashboard');
      await seeUrl(page, '/onboarding');
      await seeTitle(page, 'Onboarding - Raly');
      await page.getByRole('heading', { name: 'Welcome to Raly' }).waitFor();
      await context.close();
    });

    test('when /onboarding opens, then a spinner shows while the record loads; an onboarded user is sent to /dashboard', async () => {
      const onboarded = await anOnboardedCreator();
      const { context, page } = await newPage();
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/me', async (route) => {
        await held;
        await route.continue();
      });
      await openSignedIn(page, product.webUrl, onboarded, '/onboarding');
      await page.getByRole('status', { name: 'Loading' }).waitFor();
      release();
      await seeUrl(page, '/dashboard');
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await context.close();
    });

    test('when an unknown path opens, then the 404 page shows the spec texts and both links go home', async () => {
      const { context, page } = await newPage();
      await page.goto(url('/this/page/does-not-exist'));
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      await page.getByText(messages.pageNotFound, { exact: true }).waitFor();
      await seeTitle(page, 'Page not found - Raly');
      await page.getByRole('link', { name: 'Back To Home' }).click();
      await seeUrl(page, '/');
      await page.goto(url('/nope'));
      await page.getByRole('link', { name: /Contact support/ }).click();
      await seeUrl(page, '/');
      await context.close();
    });

    test('when the app is configured for the staging backend, then it logs the staging-mode notice with console.info', () => {
      assert.ok(
        consoleInfo.some((text) => /staging mode/i.test(text)),
        `no staging notice among console.info messages: ${JSON.stringify(consoleInfo)}`,
      );
    });
  });

  describe('header', () => {
    test('when signed out, then the header shows Home, Earn As Creator, Grow As Brand and Login, which lead to their pages', async () => {
      const { context, page } = await newPage();
      await page.goto(url('/'));
      const nav = header(page).getByRole('navigation', { name: 'Main' });
      assert.deepEqual(await nav.getByRole('link').allInnerTexts(), [
        'Home',
        'Earn As Creator',
        'Grow As Brand',
        'Login',
      ]);
      await nav.getByRole('link', { name: 'Grow As Brand' }).click();
      await seeUrl(page, '/join/brand');
      await nav.getByRole('link', { name: 'Earn As Creator' }).click();
      await seeUrl(page, '/join/creator');
      await nav.getByRole('link', { name: 'Login' }).click();
      await seeUrl(page, '/login');
      await nav.getByRole('link', { name: 'Home' }).click();
      await seeUrl(page, '/');
      assert.equal(await page.getByRole('button', { name: 'Open user menu' }).count(), 0);
      await context.close();
    });

    test('when signed in, then the header shows Home, Dashboard, Offers, Collaborations, the notifications bell and the avatar menu with the live profile picture (initials until one exists)', async () => {
      const onboarded = await anOnboardedCreator();
      const { context, page } = await signedInPage(onboarded, '/');
      const nav = header(page).getByRole('navigation', { name: 'Main' });
      const avatarButton = page.getByRole('button', { name: 'Open user menu' });
      await avatarButton.waitFor();
      // Offers and Collaborations show once the user's record has answered.
      await nav.getByRole('link', { name: 'Collaborations' }).waitFor();
      assert.deepEqual(await nav.getByRole('link').allInnerTexts(), [
        'Home',
        'Dashboard',
        'Offers',
        'Collaborations',
        'Notifications',
      ]);
      // A default picture may be made for the new user a moment after registration (media service).
      const record = await eventually(
        () => ownRecordOf(product.bffUrl, onboarded),
        (user) => user.profileImg !== '',
        5000,
      );
      // The live profileImg shows; until one exists, or while it cannot be loaded, the initials circle does.
      const avatar = await page.waitForFunction((src) => {
        const button = document.querySelector('[aria-label="Open user menu"]');
        const image = button?.querySelector('img');
        if (image && image.getAttribute('src') === src && image.complete && image.naturalWidth > 0)
          return { shows: 'image' };
        const initials = button?.querySelector('[data-testid="avatar-initials"]')?.textContent;
        return initials ? { shows: 'initials', initials } : null;
      }, record.profileImg);
      const shown = (await avatar.jsonValue()) as { shows: string; initials?: string };
      if (shown.shows === 'initials')
        assert.equal(shown.initials, onboarded.username[0]!.toUpperCase());
      if (!record.profileImg) assert.equal(shown.shows, 'initials');
      console.info(
        `[shell test] profileImg ${JSON.stringify(record.profileImg)}, avatar shows ${shown.shows}`,
      );
      await context.close();
    });

    test('when the avatar menu is used with the keyboard, then arrows move, Escape closes, Settings opens the account page', async () => {
      const onboarded = await anOnboardedCreator();
      const { context, page } = await signedInPage(onboarded, '/dashboard');
      const button = page.getByRole('button', { name: 'Open user menu' });
      await button.focus();
      await page.keyboard.press('Enter');
      const menu = page.getByRole('menu');
      await menu.waitFor();
      assert.deepEqual(await menu.getByRole('menuitem').allInnerTexts(), ['Settings', 'Logout']);
      await page.getByRole('menuitem', { name: 'Settings' }).waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Settings');
      await page.keyboard.press('ArrowDown');
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Logout');
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
      assert.equal(await button.getAttribute('aria-expanded'), 'false');
      assert.equal(
        await page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
        'Open user menu',
      );
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await seeUrl(page, '/settings/account');
      await context.close();
    });

    test('when the user logs out from the avatar menu, then they are home and signed out', async () => {
      const user = await anOnboardedCreator();
      const { context, page } = await signedInPage(user, '/settings/account');
      await page.getByRole('button', { name: 'Open user menu' }).click();
      await page.getByRole('menuitem', { name: 'Logout' }).click();
      await seeUrl(page, '/');
      await header(page).getByRole('link', { name: 'Login' }).waitFor();
      await context.close();
    });

    test('when a link is focused with the keyboard, then a visible focus ring shows', async () => {
      const { context, page } = await newPage();
      await page.goto(url('/'));
      const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
      for (let press = 0; press < 4 && (await focused()) !== 'Raly'; press += 1)
        await page.keyboard.press('Tab');
      const outline = await page.evaluate(() => {
        const style = getComputedStyle(document.activeElement!);
        return {
          text: document.activeElement?.textContent,
          style: style.outlineStyle,
          width: style.outlineWidth,
        };
      });
      assert.equal(outline.text, 'Raly');
      assert.notEqual(outline.style, 'none');
      assert.notEqual(outline.width, '0px');
      await context.close();
    });
  });

  describe('mobile slide-over menu', () => {
    test('when signed out on a phone, then the hamburger opens a menu with the header links and Login', async () => {
      const { context, page } = await newPage({ viewport: PHONE });
      await page.goto(url('/'));
      assert.equal(await header(page).getByRole('navigation', { name: 'Main' }).isVisible(), false);
      await page.getByRole('button', { name: 'Open main menu' }).click();
      const dialog = page.getByRole('dialog', { name: 'Main menu' });
      await dialog.waitFor();
      assert.deepEqual(await dialog.getByRole('navigation').getByRole('link').allInnerTexts(), [
        'Home',
        'Earn As Creator',
        'Grow As Brand',
      ]);
      await dialog.getByRole('link', { name: 'Login' }).click();
      await seeUrl(page, '/login');
      await dialog.waitFor({ state: 'hidden' });
      await context.close();
    });

    test('when signed in on a phone, then the menu shows the username and e-mail, keeps focus inside and closes with Escape', async () => {
      const onboarded = await anOnboardedCreator();
      const { context, page } = await signedInPage(onboarded, '/dashboard', { viewport: PHONE });
      const hamburger = page.getByRole('button', { name: 'Open main menu' });
      await hamburger.click();
      const dialog = page.getByRole('dialog', { name: 'Main menu' });
      await dialog.getByText(onboarded.username, { exact: true }).waitFor();
      await dialog.getByText(onboarded.email, { exact: true }).waitFor();
      await dialog.getByRole('navigation').getByRole('link', { name: 'Collaborations' }).waitFor();
      assert.deepEqual(await dialog.getByRole('navigation').getByRole('link').allInnerTexts(), [
        'Home',
        'Dashboard',
        'Offers',
        'Collaborations',
        'Notifications',
      ]);
      await dialog.getByRole('button', { name: 'Logout' }).waitFor();

      for (let press = 0; press < 12; press += 1) {
        await page.keyboard.press(press % 3 === 2 ? 'Shift+Tab' : 'Tab');
        assert.ok(
          await page.evaluate(() => Boolean(document.activeElement?.closest('dialog[open]'))),
          'focus left the menu',
        );
      }

      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      assert.equal(await hamburger.getAttribute('aria-expanded'), 'false');
      assert.equal(
        await page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
        'Open main menu',
      );
      await context.close();
    });

    test('when Settings is chosen in the mobile menu, then the account page opens and the menu closes', async () => {
      const onboarded = await anOnboardedCreator();
      const { context, page } = await signedInPage(onboarded, '/dashboard', { viewport: PHONE });
      await page.getByRole('button', { name: 'Open main menu' }).click();
      const dialog = page.getByRole('dialog', { name: 'Main menu' });
      await dialog.getByRole('link', { name: 'Settings' }).click();
      await seeUrl(page, '/settings/account');
      await dialog.waitFor({ state: 'hidden' });
      await context.close();
    });
  });

  describe('global toast', () => {
    test('when the account is saved, then a success toast shows top right and clears itself after about 5 s', async () => {
      const onboarded = await anOnboardedCreator();
      const { context, page } = await signedInPage(onboarded, '/settings/account');
      await page.getByRole('button', { name: 'Save' }).click();
      const toast = page.getByRole('status').filter({ hasText: messages.profileUpdated });
      await toast.waitFor();
      const shownAt = Date.now();
      const box = (await toast.boundingBox())!;
      assert.ok(
        box.x + box.width > DESKTOP.width - 40,
        `toast not at the right edge: ${JSON.stringify(box)}`,
      );
      assert.ok(box.y < 60, `toast not at the top: ${JSON.stringify(box)}`);
      await toast.waitFor({ state: 'detached', timeout: TOAST_DURATION_MS + 3000 });
      const lifetime = Date.now() - shownAt;
      assert.ok(lifetime > TOAST_DURATION_MS - 1000, `toast went after ${lifetime} ms`);
      await context.close();
    });

    test('when the toast close button is pressed, then the toast goes at once', async () => {
      const onboarded = await anOnboardedCreator();
      const { context, page } = await signedInPage(onboarded, '/settings/account');
      await page.getByRole('button', { name: 'Save' }).click();
      const toast = page.getByRole('status').filter({ hasText: messages.profileUpdated });
      await toast.waitFor();
      await page.getByRole('button', { name: 'Close notification' }).click();
      await toast.waitFor({ state: 'detached', timeout: 1000 });
      await context.close();
    });
  });
});
