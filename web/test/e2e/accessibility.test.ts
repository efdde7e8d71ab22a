/**
 * Layout and accessibility of the app shell (spec §2) in a real browser
 * against the real product: nothing overflows from 360 px, and axe-core
 * finds no serious or critical violation on any page, signed out and in,
 * at 390 px and 1280 px, with the menus open and with a toast showing.
 *
 * Needs the native stack (`npm run stack -- up`).
 */
import { describe, test } from 'vitest';
import assert from 'node:assert/strict';
import type { BrowserContextOptions } from 'playwright-core';
import { messages } from '@raly/contracts/messages';
import { browserSuite } from './harness/suite.ts';
import { aSignedInCreator, openSignedIn, waitForSettledPage } from './harness/shell-users.ts';
import { seriousAxeViolations } from './harness/axe.ts';
import { DESKTOP, newViewportPage, PHONE } from './harness/pages.ts';

describe("the app shell's layout and accessibility (spec §2)", () => {
  const suite = browserSuite();
  const url = (path: string) => suite.url(path);
  const newPage = (options: BrowserContextOptions = {}) => newViewportPage(suite.browser, options);
  const anOnboardedCreator = () => aSignedInCreator(suite.product.bffUrl, { onboarded: true });
  const aNewcomer = () => aSignedInCreator(suite.product.bffUrl, { onboarded: false });

  describe('layout and accessibility', () => {
    const signedOutPages = [
      '/',
      '/join/creator',
      '/join/brand',
      '/login',
      '/forgot-password',
      '/auth/action?mode=resetPassword&oobCode=code&apiKey=key',
      '/missing-page',
    ];
    const signedInPages = ['/', '/dashboard', '/settings/account', '/missing-page'];
    const onboardingPage = '/onboarding';

    test('when any page is 360 px wide, then nothing overflows sideways', async () => {
      const onboarded = await anOnboardedCreator();
      const { context, page } = await newPage({ viewport: { width: 360, height: 740 } });
      const overflowing: string[] = [];
      const check = async (label: string) => {
        await waitForSettledPage(page);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        if (width > 360) overflowing.push(`${label}: ${width}px`);
      };
      for (const path of signedOutPages) {
        await page.goto(url(path));
        await check(`signed out ${path}`);
      }
      await openSignedIn(page, suite.product.webUrl, onboarded, '/');
      for (const path of signedInPages) {
        await page.goto(url(path));
        await check(`signed in ${path}`);
      }
      assert.deepEqual(overflowing, []);
      await context.close();
    });

    for (const viewport of [PHONE, DESKTOP]) {
      test(`when axe-core checks every page at ${viewport.width} px, signed out and signed in, then it finds no serious or critical violation`, async () => {
        const onboarded = await anOnboardedCreator();
        const newcomer = await aNewcomer();
        const { context, page } = await newPage({ viewport, bypassCSP: true });
        const found: string[] = [];
        const audit = async (label: string) => {
          await waitForSettledPage(page);
          for (const violation of await seriousAxeViolations(page)) {
            found.push(
              `${label}: ${violation.id} (${violation.impact}) ${violation.help} at ${violation.targets.join(', ')}`,
            );
          }
        };
        for (const path of signedOutPages) {
          await page.goto(url(path));
          await audit(`signed out ${path}`);
        }
        if (viewport === PHONE) {
          await page.getByRole('button', { name: 'Open main menu' }).click();
          await audit('signed out, mobile menu open');
        }

        await openSignedIn(page, suite.product.webUrl, onboarded, '/');
        for (const path of signedInPages) {
          await page.goto(url(path));
          await page
            .getByRole('button', { name: viewport === PHONE ? 'Open main menu' : 'Open user menu' })
            .waitFor();
          await audit(`signed in ${path}`);
        }
        if (viewport === PHONE) {
          await page.getByRole('button', { name: 'Open main menu' }).click();
          await page.getByRole('dialog').getByText(onboarded.email).waitFor();
          await audit('signed in, mobile menu open');
        } else {
          await page.getByRole('button', { name: 'Open user menu' }).click();
          await page.getByRole('menu').waitFor();
          await audit('signed in, avatar menu open');
          await page.keyboard.press('Escape');
        }

        const { context: newcomerContext, page: newcomerPage } = await newPage({
          viewport,
          bypassCSP: true,
        });
        await openSignedIn(newcomerPage, suite.product.webUrl, newcomer, onboardingPage);
        await newcomerPage.getByRole('heading', { name: 'Welcome to Raly' }).waitFor();
        await waitForSettledPage(newcomerPage);
        for (const violation of await seriousAxeViolations(newcomerPage)) {
          found.push(
            `onboarding: ${violation.id} (${violation.impact}) ${violation.help} at ${violation.targets.join(', ')}`,
          );
        }
        await newcomerContext.close();

        assert.deepEqual(found, []);
        await context.close();
      });
    }

    test('when a toast shows, then axe-core finds no serious or critical violation in it', async () => {
      const onboarded = await anOnboardedCreator();
      const { context, page } = await newPage({ bypassCSP: true });
      await openSignedIn(page, suite.product.webUrl, onboarded, '/settings/account');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').filter({ hasText: messages.profileUpdated }).waitFor();
      assert.deepEqual(await seriousAxeViolations(page), []);
      await context.close();
    });
  });
});
