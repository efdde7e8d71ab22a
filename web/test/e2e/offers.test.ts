/**
 * Offers in a real browser against the real product: a brand
 * posts an offer, a matching creator's open tabs show it live (top of the
 * feed, the header's badge, the dashboard's count) without reload, the
 * creator applies, the brand's open tab shows the application live and
 * accepts it, and the creator's tab shows "Accepted" live. Creators whose
 * interests do not match, or whose offer notifications are off, receive
 * nothing. Public profiles show no name or e-mail.
 *
 * Needs the native stack (`npm run stack -- up`).
 */
import { describe, test } from 'vitest';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { messages } from '@raly/contracts/messages';
import type { CreateOffer, OfferRecord } from '@raly/contracts/offers';
import { brandRegistration, dataOf, sleep, type BrandRegistration } from '@raly/test-support';
import { seriousAxeViolations } from './harness/axe.ts';
import { liveTab } from './harness/live.ts';
import { browserSuite } from './harness/suite.ts';
import { accessTokenOf, registerBrand } from './harness/bff-client.ts';
import { openPage, seeText, seeTitle, seeToast, signedInPage } from './harness/pages.ts';
import {
  aSignedInCreator,
  openSignedIn,
  waitForSettledPage,
  type SignedInCreator,
} from './harness/shell-users.ts';

/** How soon a change made in one tab must show in another (ms): service → Kafka → BFF → socket. */
const LIVE_UPDATE_WINDOW_MS = 10_000;
/**
 * How long a tab that must receive nothing is watched after the same push
 * reached a tab that receives it (ms); the BFF emits to every room at once.
 */
const SILENCE_WINDOW_MS = 2000;

const suite = browserSuite();
const { url } = suite;

/** The BFF's JSON API under test with a bearer token: `data` of a 2xx answer. */
const callBff = <T>(method: string, path: string, token: string, body?: unknown) =>
  dataOf<T>(suite.product.bffUrl, method, `/api${path}`, { body, token });

async function aRegisteredBrand(): Promise<BrandRegistration> {
  const contact = brandRegistration();
  await registerBrand(suite.product.bffUrl, contact);
  return contact;
}

/** A registered brand whose contact went through the brand onboarding steps (the dashboard needs them). */
async function anOnboardedBrand(): Promise<BrandRegistration> {
  const contact = await aRegisteredBrand();
  const token = await accessTokenOf(suite.product.bffUrl, contact);
  for (const step of ['terms', 'brand']) await callBff('POST', '/me/onboarding', token, { step });
  return contact;
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000);
const dateInput = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/** An open offer asking for `interests`, with a unique title. */
const anOffer = (interests: CreateOffer['interests']): CreateOffer => ({
  title: `Offer ${randomUUID().slice(0, 8)}`,
  brief: 'Show our product to your audience in a short video, in your own words.',
  interests,
  platforms: ['x'],
  deliverables: 'One video of 30 to 60 seconds.',
  compensation: { kind: 'fixed', amountMinor: 50_000, currency: 'USD' },
  creatorsWanted: 2,
  applyBy: inDays(14).toISOString(),
  open: true,
});

/** The `offer.updated` pushes among `packets` naming the offer titled `title`. */
const offerPushes = (packets: readonly string[], title: string) =>
  packets.filter((packet) => packet.startsWith('42["offer.updated"') && packet.includes(title));

/** A creator's tab signed in on `path`, its live socket joined. */
const creatorTab = (context: BrowserContext, creator: SignedInCreator, path: string) =>
  liveTab(context, suite.product.webUrl, creator, path);

/** Marks the page so that a reload (which would clear the mark) can be detected. */
async function markPage(page: Page): Promise<string> {
  const mark = randomUUID();
  await page.evaluate((value) => {
    (window as unknown as { ralyTestMark: string }).ralyTestMark = value;
  }, mark);
  return mark;
}
const markOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { ralyTestMark?: string }).ralyTestMark);

/** The title of the first offer card of the feed. */
const firstOfferTitle = (page: Page) =>
  page.locator('[data-testid="offer-card"] h3').first().textContent();

describe('offers in the browser', () => {
  test('when a brand posts an offer, then a matching creator sees it live, applies, and sees the acceptance live', async () => {
    // Arrange: a brand on its offers and dashboard, a matching creator on the feed and dashboard.
    const brand = await anOnboardedBrand();
    const brandSide = await signedInPage(suite.browser, suite.product.webUrl, brand, '/offers');
    const brandPage = brandSide.page;
    // A brand user is sent from the creators' feed to the brand's own offers.
    await brandPage.waitForURL(url('/brand/offers'));
    await seeTitle(brandPage, 'Brand offers - Raly');
    const creator = await aSignedInCreator(suite.product.bffUrl, { onboarded: true });
    const creatorContext = await suite.browser.newContext();
    const feed = await creatorTab(creatorContext, creator, '/offers');
    await seeTitle(feed.page, 'Offers - Raly');
    const dashboard = await openPage(creatorContext);
    await dashboard.page.goto(url('/dashboard'));
    await dashboard.page.getByTestId('matching-offers').filter({ hasText: '0' }).waitFor();
    const feedMark = await markPage(feed.page);
    const dashboardMark = await markPage(dashboard.page);
    const title = `Launch ${randomUUID().slice(0, 8)} video`;
    const brandDashboard = await openPage(brandSide.context);
    await brandDashboard.page.goto(url('/dashboard'));
    await brandDashboard.page
      .getByTestId('pending-applications')
      .filter({ hasText: '0' })
      .waitFor();

    // Act: the brand publishes an offer through the form.
    await brandPage.getByRole('link', { name: 'New offer' }).click();
    await brandPage.waitForURL(url('/brand/offers/new'));
    await brandPage.getByLabel('Title', { exact: true }).fill(title);
    await brandPage
      .getByLabel('Brief', { exact: true })
      .fill('Play the first level of our new game and tell your audience what you think.');
    await brandPage.getByRole('checkbox', { name: 'Gaming' }).check();
    await brandPage.getByRole('checkbox', { name: 'X', exact: true }).check();
    await brandPage
      .getByLabel('Deliverables', { exact: true })
      .fill('One video, 30 to 60 seconds.');
    await brandPage.getByLabel('Amount', { exact: true }).fill('1250');
    await brandPage.getByLabel('Creators wanted', { exact: true }).fill('2');
    await brandPage.getByLabel('Apply by', { exact: true }).fill(dateInput(inDays(10)));
    await brandPage.getByRole('button', { name: 'Publish' }).click();
    await seeToast(brandPage, messages.offerPublished);
    await brandPage.waitForURL(/\/brand\/offers\/[^/]+$/);
    await brandPage.getByTestId('offer-status').filter({ hasText: 'Open' }).waitFor();

    // Assert: the creator's feed shows it at the top, the other tab's header a badge, no reload.
    await feed.page
      .locator('[data-testid="offer-card"]')
      .filter({ hasText: title })
      .waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });
    assert.equal(await firstOfferTitle(feed.page), title);
    await seeText(feed.page, '$1,250.00');
    const badge = dashboard.page
      .getByRole('navigation', { name: 'Main' })
      .getByTestId('offers-badge');
    await badge.filter({ hasText: '1' }).waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });
    await dashboard.page.getByTestId('matching-offers').filter({ hasText: '1' }).waitFor();
    assert.equal(await markOf(feed.page), feedMark, 'the feed was reloaded');
    assert.equal(await markOf(dashboard.page), dashboardMark, 'the dashboard was reloaded');
    // Opening the feed clears the badge, and the offer is on top there too.
    await dashboard.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /^Offers/ })
      .click();
    await dashboard.page.waitForURL(url('/offers'));
    await badge.waitFor({ state: 'detached' });
    assert.equal(await firstOfferTitle(dashboard.page), title);

    // Act: the creator applies from the offer's page.
    await feed.page.getByRole('link', { name: title }).click();
    await feed.page.waitForURL(/\/offers\/[^/]+$/);
    await seeText(feed.page, brand.company);
    await feed.page
      .getByLabel('Pitch', { exact: true })
      .fill('I review new games every week for an audience of twenty thousand players.');
    await feed.page.getByRole('button', { name: 'Apply' }).click();
    await seeToast(feed.page, messages.applicationSent);
    await feed.page.locator('[data-testid="application-status"][data-status="pending"]').waitFor();

    // Assert: the brand's dashboard counts it as pending, and its open tab shows it live,
    // with the public profile only.
    await brandDashboard.page
      .getByTestId('pending-applications')
      .filter({ hasText: '1' })
      .waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });
    const application = brandPage.getByRole('article', {
      name: `Application of ${creator.username}`,
    });
    await application.waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });
    const shown = (await brandPage.locator('main').textContent()) ?? '';
    assert.ok(!shown.includes(creator.email), 'the applicant e-mail shows to the brand');

    // Act: the brand accepts.
    await application.getByRole('button', { name: 'Accept' }).click();
    await seeToast(brandPage, messages.applicationAccepted);

    await brandDashboard.page
      .getByTestId('pending-applications')
      .filter({ hasText: '0' })
      .waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });

    // Assert: the creator's tab shows "Accepted" live.
    await feed.page
      .locator('[data-testid="application-status"][data-status="accepted"]')
      .waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });
    await seeText(feed.page, 'Accepted');
    await feed.page.goto(url('/applications'));
    await seeTitle(feed.page, 'My applications - Raly');
    await feed.page.locator('[data-status="accepted"]').waitFor();
    assert.deepEqual(
      [...brandSide.problems, ...brandDashboard.problems, ...feed.problems, ...dashboard.problems],
      [],
    );
    await creatorContext.close();
    await brandSide.context.close();
  });

  test('when an offer opens, then a creator of other interests and one with offer notifications off receive nothing', async () => {
    // Arrange: three onboarded creators (AI and Gaming), one moved to Fashion, one muted.
    const brand = await aRegisteredBrand();
    const brandToken = await accessTokenOf(suite.product.bffUrl, brand);
    const [matching, otherInterests, muted] = await Promise.all([
      aSignedInCreator(suite.product.bffUrl, { onboarded: true }),
      aSignedInCreator(suite.product.bffUrl, { onboarded: true }),
      aSignedInCreator(suite.product.bffUrl, { onboarded: true }),
    ]);
    await callBff('PUT', '/me/interests', otherInterests.tokenSet.accessToken, {
      interests: ['Fashion'],
    });
    await callBff('PATCH', '/me', muted.tokenSet.accessToken, {
      notifications: { offers: false, marketing: true },
    });
    const contexts = await Promise.all([1, 2, 3].map(() => suite.browser.newContext()));
    const [matchingTab, otherTab, mutedTab] = await Promise.all([
      creatorTab(contexts[0]!, matching, '/dashboard'),
      creatorTab(contexts[1]!, otherInterests, '/dashboard'),
      creatorTab(contexts[2]!, muted, '/dashboard'),
    ]);
    const offer = anOffer(['AI']);

    // Act
    const created = await callBff<OfferRecord>('POST', '/offers', brandToken, offer);
    assert.equal(created.status, 'open');

    // Assert: it reaches the matching creator (push and badge) …
    await matchingTab.page
      .getByRole('navigation', { name: 'Main' })
      .getByTestId('offers-badge')
      .waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });
    assert.equal(offerPushes(matchingTab.packets, offer.title).length > 0, true);
    // … and, in the same window, nothing reaches the others.
    await sleep(SILENCE_WINDOW_MS);
    for (const [name, tab] of [
      ['other interests', otherTab],
      ['notifications off', mutedTab],
    ] as const) {
      assert.deepEqual(offerPushes(tab.packets, offer.title), [], `${name}: a push arrived`);
      assert.equal(await tab.page.getByTestId('offers-badge').count(), 0, `${name}: a badge shows`);
    }
    assert.deepEqual([...matchingTab.problems, ...otherTab.problems, ...mutedTab.problems], []);
    await Promise.all(contexts.map((context) => context.close()));
  });

  test('when a visitor opens the public profiles, then they show public fields and open offers, never a name or e-mail', async () => {
    // Arrange: a brand with an open offer, a creator.
    const brand = await aRegisteredBrand();
    const brandToken = await accessTokenOf(suite.product.bffUrl, brand);
    const offer = anOffer(['Gaming']);
    await callBff('POST', '/offers', brandToken, offer);
    const creator = await aSignedInCreator(suite.product.bffUrl, { onboarded: true });
    const context = await suite.browser.newContext();
    const { page, problems } = await openPage(context);

    // Act + Assert: the brand's public profile.
    await page.goto(url(`/brand/${brand.username}`));
    await seeTitle(page, 'Brand - Raly');
    await page.getByRole('heading', { level: 1, name: brand.company }).waitFor();
    await seeText(page, offer.title);
    const brandText = (await page.locator('main').textContent()) ?? '';
    for (const secret of [brand.email, brand.lastName, `${brand.firstName} ${brand.lastName}`])
      assert.ok(!brandText.includes(secret), `the brand page shows ${secret}`);

    // Act + Assert: the creator's public profile.
    await page.goto(url(`/user/${creator.username}`));
    await seeTitle(page, 'Creator - Raly');
    await page.getByRole('heading', { level: 1, name: creator.username }).waitFor();
    await page.getByRole('list', { name: 'Interests' }).getByText('Gaming').waitFor();
    const creatorText = (await page.locator('main').textContent()) ?? '';
    assert.ok(!creatorText.includes(creator.email), 'the creator page shows the e-mail');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when the offers pages show, then each side reaches only its own and axe-core finds nothing serious on any of them', async () => {
    // Arrange: an open offer with one application; axe-core is injected, so the CSP is bypassed.
    const brand = await aRegisteredBrand();
    const brandToken = await accessTokenOf(suite.product.bffUrl, brand);
    const offer = await callBff<OfferRecord>('POST', '/offers', brandToken, anOffer(['Gaming']));
    const creator = await aSignedInCreator(suite.product.bffUrl, { onboarded: true });
    await callBff('POST', `/offers/${offer.id}/applications`, creator.tokenSet.accessToken, {
      pitch: 'I review new games every week for an audience of twenty thousand players.',
    });
    const checked: Array<{ where: string; violations: unknown[] }> = [];
    const check = async (page: Page, where: string) => {
      await waitForSettledPage(page);
      checked.push({ where, violations: await seriousAxeViolations(page) });
    };

    // Act: the brand's pages …
    const brandSide = await signedInPage(
      suite.browser,
      suite.product.webUrl,
      brand,
      '/brand/offers',
      { bypassCSP: true },
    );
    await brandSide.page.getByRole('link', { name: offer.title }).waitFor();
    await check(brandSide.page, '/brand/offers');
    await brandSide.page.goto(url(`/brand/offers/${offer.id}`));
    await brandSide.page
      .getByRole('article', { name: `Application of ${creator.username}` })
      .waitFor();
    await check(brandSide.page, '/brand/offers/:id');
    await brandSide.page.goto(url('/brand/offers/new'));
    await brandSide.page.getByRole('button', { name: 'Publish' }).click();
    await seeText(brandSide.page, messages.offerTitleRequired);
    await check(brandSide.page, '/brand/offers/new with its messages');
    // … the creator's pages …
    const creatorContext = await suite.browser.newContext({ bypassCSP: true });
    const { page } = await openPage(creatorContext);
    // A creator is sent from the brand's own offers to the feed.
    await openSignedIn(page, suite.product.webUrl, creator, '/brand/offers');
    await page.waitForURL(url('/offers'));
    await page.locator('[data-testid="offer-card"]').first().waitFor();
    await check(page, '/offers');
    await page.goto(url(`/offers/${offer.id}`));
    await page.getByRole('region', { name: 'Your application' }).waitFor();
    await check(page, '/offers/:id');
    await page.goto(url('/applications'));
    await page.locator('[data-status="pending"]').waitFor();
    await check(page, '/applications');
    await page.goto(url('/dashboard'));
    await page.getByTestId('applications-pending').filter({ hasText: '1' }).waitFor();
    await check(page, '/dashboard');
    // … and the public profiles.
    await page.goto(url(`/brand/${brand.username}`));
    await seeText(page, offer.title);
    await check(page, '/brand/:username');
    await page.goto(url(`/user/${creator.username}`));
    await page.getByRole('heading', { level: 1, name: creator.username }).waitFor();
    await check(page, '/user/:username');

    // Assert
    assert.deepEqual(
      checked.filter(({ violations }) => violations.length > 0),
      [],
    );
    assert.equal(checked.length, 9);
    await creatorContext.close();
    await brandSide.context.close();
  });
});
