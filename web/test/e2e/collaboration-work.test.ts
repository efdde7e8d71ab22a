/**
 * The work of a collaboration in a real browser against the real product,
 * a brand and a creator in two browser contexts on the same collaboration:
 * the creator hands in a deliverable, the brand requests changes, the
 * creator hands it in again and the brand approves it, each step seen live
 * by the other side; the payment falls due, the brand marks it paid, the
 * creator confirms receipt, and both tabs say "Completed"; then each side
 * reviews the other, seen live in the other tab, and both reviews show on
 * the public profiles with the figures computed from the collaboration. A
 * hand-in with an image: the brand sees the image live, and the brand's
 * dashboard summary counts the submission to review as it happens.
 *
 * Needs the native stack (`npm run stack -- up`).
 */
import { describe, test } from 'vitest';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { OfferRecord } from '@raly/contracts/offers';
import { messages } from '@raly/contracts/messages';
import { seriousAxeViolations } from './harness/axe.ts';
import { browserSuite } from './harness/suite.ts';
import {
  aSignedInBrand,
  anOffer,
  callBff,
  collaborationOf,
  LIVE_UPDATE_WINDOW_MS,
} from './harness/collaboration-parties.ts';
import { liveTab } from './harness/live.ts';
import { aSignedInCreator } from './harness/shell-users.ts';

const suite = browserSuite();

/** The smallest valid PNG (1×1). */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5b0e1a10000000049454e44ae426082',
  'hex',
);

/** An accepted application between a new brand and a new onboarded creator, so an open collaboration. */
async function anOpenCollaboration() {
  const { bffUrl } = suite.product;
  const brand = await aSignedInBrand(bffUrl);
  const offer = await callBff<OfferRecord>(bffUrl, 'POST', '/offers', brand.accessToken, anOffer());
  const creator = await aSignedInCreator(bffUrl, { onboarded: true });
  const creatorToken = creator.tokenSet.accessToken;
  const application = await callBff<{ id: string }>(
    bffUrl,
    'POST',
    `/offers/${offer.id}/applications`,
    creatorToken,
    { pitch: 'I review new games every week for an audience of twenty thousand players.' },
  );
  await callBff(bffUrl, 'POST', `/applications/${application.id}/accept`, brand.accessToken);
  const collaboration = await collaborationOf(bffUrl, creatorToken, application.id);
  return { brand, creator, collaboration };
}

/** The one deliverable of the collaboration on `page`. */
const deliverable = (page: Page) => page.locator('li[data-deliverable-id]');

/** Waits until the deliverable on `page` has `status` (live: within the update window). */
const seeDeliverable = (page: Page, status: string) =>
  page
    .locator(`li[data-deliverable-id][data-status="${status}"]`)
    .waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });

/** Waits until `page` shows `text` inside the deliverable. */
const seeInDeliverable = (page: Page, text: string) =>
  deliverable(page).getByText(text).first().waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });

/** The creator hands in the deliverable with `link` and `note`. */
async function handIn(page: Page, link: string, note: string): Promise<void> {
  const form = page.getByRole('form', { name: /^Hand in / });
  await form.getByLabel('Link to the work').fill(link);
  await form.getByLabel('Note (optional)').fill(note);
  await form.getByRole('button', { name: 'Hand in' }).click();
}

/** The brand sends a review with `decision` (its label) and `comment`. */
async function review(page: Page, decision: string, comment = ''): Promise<void> {
  const form = page.getByRole('form', { name: /^Review / });
  await form.getByRole('radio', { name: decision }).check();
  if (comment) await form.getByLabel('Comment', { exact: true }).fill(comment);
  await form.getByRole('button', { name: 'Send review' }).click();
}

/** `page`'s side reviews the other with `stars` and `comment`. */
async function leaveReview(page: Page, stars: number, comment: string): Promise<void> {
  const form = page.getByRole('form', { name: /^Review / });
  await form.getByRole('radio', { name: `${stars} stars` }).check();
  await form.getByLabel('Comment (optional)').fill(comment);
  await form.getByRole('button', { name: 'Publish review' }).click();
}

/** Waits until `page` shows the other side's review with `stars` and `comment` (live). */
async function seeTheirReview(page: Page, stars: number, comment: string): Promise<void> {
  const theirs = page.getByTestId('their-review');
  await theirs.getByText(`“${comment}”`).waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });
  await theirs.getByRole('img', { name: `${stars} out of 5 stars` }).waitFor();
}

/** Waits until `page`, on a public profile, shows one review of `stars`. */
async function seeOneReview(page: Page, stars: number): Promise<void> {
  const summary = page.getByTestId('reviews-summary');
  await summary.getByText('1 review', { exact: true }).waitFor();
  await summary.getByRole('img', { name: `${stars} out of 5 stars` }).waitFor();
}

/** Waits until the payment panel on `page` shows `status`. */
const seePayment = (page: Page, status: string) =>
  page
    .locator(`[data-testid="payment-status"][data-status="${status}"]`)
    .waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });

describe("a collaboration's work in the browser", () => {
  test('when the creator hands in, the brand asks changes, the creator hands in again and the brand approves, then each step shows live on the other side, the payment marked and confirmed completes the collaboration in both tabs, and both reviews show live and on the public profiles', async () => {
    // Arrange: an accepted application, so an open collaboration; both parties on its page.
    const { bffUrl, webUrl } = suite.product;
    const brand = await aSignedInBrand(bffUrl);
    const offer = await callBff<OfferRecord>(
      bffUrl,
      'POST',
      '/offers',
      brand.accessToken,
      anOffer(),
    );
    const creator = await aSignedInCreator(bffUrl, { onboarded: true });
    const creatorToken = creator.tokenSet.accessToken;
    const application = await callBff<{ id: string }>(
      bffUrl,
      'POST',
      `/offers/${offer.id}/applications`,
      creatorToken,
      { pitch: 'I review new games every week for an audience of twenty thousand players.' },
    );
    await callBff(bffUrl, 'POST', `/applications/${application.id}/accept`, brand.accessToken);
    const collaboration = await collaborationOf(bffUrl, creatorToken, application.id);
    const path = `/collaborations/${collaboration.id}`;
    // axe-core is injected at the end, so the CSP is bypassed.
    const brandContext = await suite.browser.newContext({ bypassCSP: true });
    const brandTab = await liveTab(brandContext, webUrl, brand, path);
    const creatorContext = await suite.browser.newContext({ bypassCSP: true });
    const creatorTab = await liveTab(creatorContext, webUrl, creator, path);
    const [brandPage, creatorPage] = [brandTab.page, creatorTab.page];
    await seeDeliverable(brandPage, 'pending');
    await seePayment(creatorPage, 'not_due');
    await creatorPage.getByText(messages.paymentRecordedOnly).waitFor();
    // Only the creator hands in; only the brand may split the work before that.
    assert.equal(await brandPage.getByRole('form', { name: /^Hand in / }).count(), 0);
    assert.equal(await creatorPage.getByRole('button', { name: 'Edit deliverables' }).count(), 0);
    await brandPage.getByRole('button', { name: 'Edit deliverables' }).waitFor();

    // Act + Assert: the creator hands in; the brand sees it live, with the link and the note.
    const draft = `https://video.example.org/draft-${randomUUID().slice(0, 8)}`;
    await handIn(creatorPage, draft, 'First cut, 45 seconds.');
    await seeDeliverable(creatorPage, 'submitted');
    await seeDeliverable(brandPage, 'submitted');
    await brandPage.getByRole('link', { name: draft }).waitFor();
    await seeInDeliverable(brandPage, 'First cut, 45 seconds.');
    assert.equal(await brandPage.getByRole('button', { name: 'Edit deliverables' }).count(), 0);

    // Act + Assert: the brand asks changes; the creator sees the round and the comment live.
    const change = `Show the logo in the first five seconds ${randomUUID().slice(0, 6)}`;
    await review(brandPage, 'Request changes', change);
    await seeDeliverable(creatorPage, 'changes_requested');
    await seeInDeliverable(creatorPage, 'Changes requested, round 1 of 3');
    await seeInDeliverable(creatorPage, change);

    // Act + Assert: the creator hands in again; the brand sees round 2 live.
    const final = `https://video.example.org/final-${randomUUID().slice(0, 8)}`;
    await handIn(creatorPage, final, 'Logo up front now.');
    await seeDeliverable(brandPage, 'submitted');
    await brandPage.getByRole('link', { name: final }).waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });
    await brandPage.locator('li[data-round="2"]').waitFor();

    // Act + Assert: the brand approves; the creator sees it live and the payment falls due.
    await review(brandPage, 'Approve');
    await seeDeliverable(creatorPage, 'approved');
    await seePayment(creatorPage, 'due');
    await seePayment(brandPage, 'due');
    await brandPage.getByText('$500.00').first().waitFor();

    // Act + Assert: the brand marks it paid; the creator sees the reference and confirms.
    const reference = `Transfer ${randomUUID().slice(0, 8)}`;
    await brandPage.getByLabel('Reference (optional)').fill(reference);
    await brandPage.getByRole('button', { name: 'Mark as paid' }).click();
    await seePayment(creatorPage, 'paid');
    await creatorPage.getByText(reference).waitFor();
    await creatorPage.getByRole('button', { name: 'Confirm receipt' }).click();

    // Assert: "Completed" in both tabs, the timeline saying so, and no action left.
    for (const page of [creatorPage, brandPage]) {
      await page
        .locator('[data-testid="collaboration-status"][data-status="completed"]')
        .waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });
      await seePayment(page, 'confirmed');
      await page
        .getByRole('list', { name: 'Timeline' })
        .getByText('The collaboration is completed')
        .waitFor();
      assert.equal(await page.getByRole('button', { name: 'Cancel collaboration' }).count(), 0);
    }
    const kinds = await creatorPage
      .getByRole('list', { name: 'Timeline' })
      .locator('li')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-kind')));
    assert.deepEqual(kinds, [
      'opened',
      'submitted',
      'changes_requested',
      'submitted',
      'approved',
      'payment_due',
      'paid',
      'payment_confirmed',
      'completed',
    ]);

    // Act + Assert: each side reviews the other; the other tab sees the review live.
    await creatorPage.getByRole('form', { name: /^Review / }).waitFor();
    const reviewFormViolations = await seriousAxeViolations(creatorPage);
    const creatorSays = `Clear brief, paid quickly ${randomUUID().slice(0, 6)}`;
    const brandSays = `Great cut, on time ${randomUUID().slice(0, 6)}`;
    await leaveReview(creatorPage, 4, creatorSays);
    await seeTheirReview(brandPage, 4, creatorSays);
    await leaveReview(brandPage, 5, brandSays);
    await seeTheirReview(creatorPage, 5, brandSays);
    for (const page of [creatorPage, brandPage]) {
      assert.equal(await page.getByRole('form', { name: /^Review / }).count(), 0);
      await page
        .getByRole('list', { name: 'Timeline' })
        .getByText('The brand left a review')
        .waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });
    }

    // Act + Assert: the public profiles show the reviews and the computed figures.
    await creatorPage.goto(`${webUrl}/brand/${brand.username}`);
    await seeOneReview(creatorPage, 4);
    await creatorPage.getByTestId('median-review-time').getByText('Over 2 submissions').waitFor();
    await creatorPage.getByTestId('median-payment-time').getByText('Over 1 payment').waitFor();
    assert.equal(await creatorPage.getByText(creatorSays).count(), 0, 'comments stay private');
    await brandPage.goto(`${webUrl}/user/${creator.username}`);
    await seeOneReview(brandPage, 5);
    await brandPage
      .getByTestId('on-time-share')
      .getByText('No deliverables with a due date yet')
      .waitFor();
    assert.deepEqual(
      {
        reviewForm: reviewFormViolations,
        brandProfile: await seriousAxeViolations(creatorPage),
        creatorProfile: await seriousAxeViolations(brandPage),
      },
      { reviewForm: [], brandProfile: [], creatorProfile: [] },
    );
    assert.deepEqual([...brandTab.problems, ...creatorTab.problems], []);
    await creatorContext.close();
    await brandContext.close();
  });

  test("when the creator hands in with an image, then the brand's dashboard counts the submission to review live and the brand sees the image on the collaboration", async () => {
    // Arrange: the brand, onboarded, on its dashboard; the creator on the collaboration's page.
    const { bffUrl, webUrl } = suite.product;
    const { brand, creator, collaboration } = await anOpenCollaboration();
    for (const step of ['terms', 'brand'])
      await callBff(bffUrl, 'POST', '/me/onboarding', brand.accessToken, { step });
    const path = `/collaborations/${collaboration.id}`;
    const dashboardContext = await suite.browser.newContext();
    const dashboardTab = await liveTab(dashboardContext, webUrl, brand, '/dashboard');
    const creatorContext = await suite.browser.newContext();
    const creatorTab = await liveTab(creatorContext, webUrl, creator, path);
    const [dashboard, creatorPage] = [dashboardTab.page, creatorTab.page];
    const toReview = (count: string) =>
      dashboard
        .getByTestId('collaborations-waitingForYou')
        .filter({ hasText: new RegExp(`^${count}$`) })
        .waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });
    await toReview('0');
    await dashboard.getByTestId('collaborations-active').filter({ hasText: /^1$/ }).waitFor();

    // Act: the creator hands in with an image, previewed before it is sent.
    const form = creatorPage.getByRole('form', { name: /^Hand in / });
    await form.getByLabel('Image (optional)').setInputFiles({
      name: 'still.png',
      mimeType: 'image/png',
      buffer: PNG,
    });
    await form.getByRole('img', { name: 'Preview of still.png' }).waitFor();
    const link = `https://video.example.org/still-${randomUUID().slice(0, 8)}`;
    await handIn(creatorPage, link, 'With a still from the video.');
    await seeDeliverable(creatorPage, 'submitted');

    // Assert: the dashboard counts it live; the brand opens the collaboration and sees the image.
    await toReview('1');
    await dashboard.getByRole('link', { name: 'Submissions to review' }).click();
    await dashboard.getByRole('link', { name: collaboration.offer.title }).first().click();
    await dashboard.getByRole('link', { name: link }).waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });
    const image = dashboard.getByRole('img', { name: 'Image handed in with round 1' });
    await image.waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });
    const shown = await image.evaluate(
      (element) =>
        (element as HTMLImageElement).complete && (element as HTMLImageElement).naturalWidth,
    );
    assert.equal(shown, 1);
    await creatorPage
      .getByRole('img', { name: 'Image handed in with round 1' })
      .waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });
    assert.deepEqual([...dashboardTab.problems, ...creatorTab.problems], []);
    await creatorContext.close();
    await dashboardContext.close();
  });
});
