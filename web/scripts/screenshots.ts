/**
 * Saves a screenshot of every page of spec §2 at 390 px and 1280 px wide
 * into web/screenshots/ (git-ignored), signed out and signed in, plus the
 * open menus. Starts the product like the browser tests do (test/e2e
 * harness; needs the native stack: `npm run stack -- up`).
 *
 *   npm run screenshots -w web
 *
 * Files are named `<page>-<width>.png`, e.g. `home-390.png`,
 * `signed-in-dashboard-1280.png`, `mobile-menu-signed-in-390.png`.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../test/e2e/harness/browser.ts';
import { startProduct, type RunningProduct } from '../test/e2e/harness/product.ts';
import { dataOf, brandRegistration } from '@raly/test-support';
import type { OfferRecord } from '@raly/contracts/offers';
import { accessTokenOf, registerBrand } from '../test/e2e/harness/bff-client.ts';
import { signedInPage } from '../test/e2e/harness/pages.ts';
import { shootCollaborations } from './collaboration-screenshots.ts';
import {
  aSignedInCreator,
  openSignedIn,
  waitForSettledPage,
} from '../test/e2e/harness/shell-users.ts';

const outDir = path.join(import.meta.dirname, '..', 'screenshots');
const widths = [390, 1280] as const;

const signedOutPages: Array<[string, string]> = [
  ['home', '/'],
  ['join-creator', '/join/creator'],
  ['join-brand', '/join/brand'],
  ['login', '/login'],
  ['forgot-password', '/forgot-password'],
  ['reset-password', '/auth/action?mode=resetPassword&oobCode=example&apiKey=example'],
  ['not-found', '/no-such-page'],
];

const signedInPages: Array<[string, string]> = [
  ['signed-in-home', '/'],
  ['signed-in-dashboard', '/dashboard'],
  ['signed-in-settings-account', '/settings/account'],
  ['signed-in-not-found', '/no-such-page'],
  ['signed-in-offers', '/offers'],
  ['signed-in-applications', '/applications'],
];

async function shoot(
  page: Page,
  name: string,
  width: number,
  { fullPage = true } = {},
): Promise<void> {
  await waitForSettledPage(page);
  // Let fonts, images and the slide-over animation settle.
  await page.waitForTimeout(300);
  const file = path.join(outDir, `${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage });
  console.log(`saved ${path.relative(process.cwd(), file)}`);
}

async function shootWidth(browser: Browser, product: RunningProduct, width: number): Promise<void> {
  const url = (route: string) => `${product.webUrl}${route}`;
  const viewport = { width, height: width < 768 ? 844 : 800 };

  const signedOut = await browser.newContext({ viewport });
  const page = await signedOut.newPage();
  for (const [name, route] of signedOutPages) {
    await page.goto(url(route));
    await shoot(page, name, width);
  }
  if (width < 768) {
    await page.goto(url('/'));
    await page.getByRole('button', { name: 'Open main menu' }).click();
    await shoot(page, 'mobile-menu-signed-out', width);
  }
  await signedOut.close();

  const onboarded = await aSignedInCreator(product.bffUrl, { onboarded: true });
  const signedIn = await browser.newContext({ viewport });
  const userPage = await signedIn.newPage();
  await openSignedIn(userPage, product.webUrl, onboarded, '/');
  for (const [name, route] of signedInPages) {
    await userPage.goto(url(route));
    await userPage
      .getByRole('button', { name: width < 768 ? 'Open main menu' : 'Open user menu' })
      .waitFor();
    await shoot(userPage, name, width);
  }
  if (width < 768) {
    await userPage.getByRole('button', { name: 'Open main menu' }).click();
    await userPage.getByRole('dialog').getByText(onboarded.email).waitFor();
    await shoot(userPage, 'mobile-menu-signed-in', width);
  } else {
    await userPage.goto(url('/dashboard'));
    await userPage.getByRole('button', { name: 'Open user menu' }).click();
    await userPage.getByRole('menu').waitFor();
    await shoot(userPage, 'avatar-menu', width);
  }
  await userPage.goto(url('/settings/account'));
  await userPage.getByRole('button', { name: 'Save' }).click();
  await userPage.getByRole('status').filter({ hasText: 'Profile updated!' }).waitFor();
  // The toast is fixed to the viewport's top right: capture the viewport, not the whole page.
  await shoot(userPage, 'toast', width, { fullPage: false });
  await signedIn.close();

  await shootOffers(browser, product, width, viewport);
  await shootCollaborations(browser, product, width, viewport, shoot);

  const newcomer = await aSignedInCreator(product.bffUrl, { onboarded: false });
  const onboarding = await browser.newContext({ viewport });
  const newcomerPage = await onboarding.newPage();
  await openSignedIn(newcomerPage, product.webUrl, newcomer, '/onboarding');
  await newcomerPage.getByRole('heading', { name: 'Welcome to Raly' }).waitFor();
  await shoot(newcomerPage, 'signed-in-onboarding', width);
  await onboarding.close();
}

/**
 * The offers pages: a brand's offer with one application, seen by
 * the brand (list, offer, form) and by the creator who applied (offer), and
 * both public profiles.
 */
async function shootOffers(
  browser: Browser,
  product: RunningProduct,
  width: number,
  viewport: { width: number; height: number },
): Promise<void> {
  const url = (route: string) => `${product.webUrl}${route}`;
  const call = <T>(method: string, route: string, token: string, body?: unknown) =>
    dataOf<T>(product.bffUrl, method, `/api${route}`, { body, token });
  const brand = brandRegistration();
  await registerBrand(product.bffUrl, brand);
  const brandToken = await accessTokenOf(product.bffUrl, brand);
  const offer = await call<OfferRecord>('POST', '/offers', brandToken, {
    title: 'Launch video for our new game',
    brief: 'Play the first level of our new game and tell your audience what you think of it.',
    interests: ['Gaming', 'AI'],
    platforms: ['x', 'instagram'],
    deliverables: 'One video of 30 to 60 seconds, and one post linking to it.',
    compensation: { kind: 'fixed', amountMinor: 125_000, currency: 'USD' },
    creatorsWanted: 3,
    applyBy: new Date(Date.now() + 14 * 86_400_000).toISOString(),
    open: true,
  });
  const creator = await aSignedInCreator(product.bffUrl, { onboarded: true });
  await call('POST', `/offers/${offer.id}/applications`, creator.tokenSet.accessToken, {
    pitch: 'I review new games every week for an audience of twenty thousand players.',
    proposedRate: { amountMinor: 90_000, currency: 'USD' },
  });

  const creatorContext = await browser.newContext({ viewport });
  const creatorPage = await creatorContext.newPage();
  await openSignedIn(creatorPage, product.webUrl, creator, `/offers/${offer.id}`);
  await creatorPage.getByRole('region', { name: 'Your application' }).waitFor();
  await shoot(creatorPage, 'creator-offer', width);
  await creatorPage.goto(url(`/user/${creator.username}`));
  await shoot(creatorPage, 'public-creator', width);
  await creatorPage.goto(url(`/brand/${brand.username}`));
  await shoot(creatorPage, 'public-brand', width);
  await creatorContext.close();

  const brandSide = await signedInPage(browser, product.webUrl, brand, '/brand/offers', {
    viewport,
  });
  await brandSide.page.getByRole('link', { name: offer.title }).waitFor();
  await shoot(brandSide.page, 'brand-offers', width);
  await brandSide.page.goto(url(`/brand/offers/${offer.id}`));
  await brandSide.page.getByRole('article').first().waitFor();
  await shoot(brandSide.page, 'brand-offer', width);
  await brandSide.page.goto(url('/brand/offers/new'));
  await brandSide.page.getByRole('button', { name: 'Publish' }).click();
  await brandSide.page.getByText('Title is required').waitFor();
  await shoot(brandSide.page, 'brand-offer-form', width);
  await brandSide.context.close();
}

async function main(): Promise<void> {
  await mkdir(outDir, { recursive: true });
  const product = await startProduct();
  const browser = await launchBrowser();
  try {
    for (const width of widths) await shootWidth(browser, product, width);
    console.log(`screenshots in ${outDir}`);
  } finally {
    await browser.close();
    await product.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
