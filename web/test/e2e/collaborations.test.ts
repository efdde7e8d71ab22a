/**
 * Collaborations in a real browser against the real product, a brand and a
 * creator in two browser contexts: the brand accepts the creator's
 * application, both open the collaboration from the application, their
 * messages appear live in both, a message with an e-mail address waits for
 * its author to confirm the contact-details notice, and the creator's
 * header badge counts the unread messages and clears, in another tab too,
 * once the conversation is read. Neither side ever sees the other's name
 * or e-mail, and axe-core finds nothing serious on the list or the
 * conversation.
 *
 * Needs the native stack (`npm run stack -- up`).
 */
import { describe, test } from 'vitest';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { messages } from '@raly/contracts/messages';
import type { OfferRecord } from '@raly/contracts/offers';
import { sleep } from '@raly/test-support';
import { seriousAxeViolations } from './harness/axe.ts';
import { browserSuite } from './harness/suite.ts';
import {
  aSignedInBrand,
  anOffer,
  callBff as callBffAt,
  collaborationOf,
  LIVE_UPDATE_WINDOW_MS,
} from './harness/collaboration-parties.ts';
import { anotherLiveTab, liveTab } from './harness/live.ts';
import { seeTitle, seeToast, STEP_TIMEOUT_MS } from './harness/pages.ts';
import { aSignedInCreator } from './harness/shell-users.ts';

const suite = browserSuite();
const { url } = suite;

const callBff = <T>(method: string, path: string, token?: string, body?: unknown) =>
  callBffAt<T>(suite.product.bffUrl, method, path, token, body);

/** The messages log of a conversation page. */
const log = (page: Page) => page.getByRole('log', { name: 'Messages' });

/** Writes `text` in the composer and presses Send. */
async function write(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

/** Waits until the message `text` shows, stored (not "Sending…"), in the page's conversation. */
const seeMessage = (page: Page, text: string, timeout = LIVE_UPDATE_WINDOW_MS) =>
  log(page).locator('li[data-sequence]').filter({ hasText: text }).waitFor({ timeout });

/** The header's unread badge of `page`. */
const unreadBadge = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByTestId('collaborations-badge');

describe('collaborations in the browser', () => {
  test('when the brand accepts an application, then both sides talk live, a message with contact details waits for confirmation, and the unread badge counts and clears', async () => {
    // Arrange: an open offer, the creator's application, the brand's tab on the offer.
    const brand = await aSignedInBrand(suite.product.bffUrl);
    const offer = await callBff<OfferRecord>('POST', '/offers', brand.accessToken, anOffer());
    const creator = await aSignedInCreator(suite.product.bffUrl, { onboarded: true });
    const creatorToken = creator.tokenSet.accessToken;
    const application = await callBff<{ id: string }>(
      'POST',
      `/offers/${offer.id}/applications`,
      creatorToken,
      { pitch: 'I review new games every week for an audience of twenty thousand players.' },
    );
    // axe-core is injected into the pages, so the CSP is bypassed.
    const brandContext = await suite.browser.newContext({ bypassCSP: true });
    const brandTab = await liveTab(
      brandContext,
      suite.product.webUrl,
      brand,
      `/brand/offers/${offer.id}`,
    );
    const brandPage = brandTab.page;
    const card = brandPage.getByRole('article', { name: `Application of ${creator.username}` });

    // Act: the brand accepts; the collaboration opens and its link shows live on the card.
    await card.getByRole('button', { name: 'Accept' }).click();
    await seeToast(brandPage, messages.applicationAccepted);
    await card
      .getByRole('link', { name: 'Open collaboration' })
      .click({ timeout: LIVE_UPDATE_WINDOW_MS });
    await brandPage.waitForURL(/\/collaborations\/[^/]+$/);
    const collaboration = await collaborationOf(suite.product.bffUrl, creatorToken, application.id);
    assert.equal(brandPage.url(), url(`/collaborations/${collaboration.id}`));
    await seeTitle(brandPage, 'Collaboration - Raly');
    await brandPage.getByRole('heading', { level: 1, name: offer.title }).waitFor();
    await brandPage.getByRole('link', { name: creator.username }).waitFor();

    // … and the creator opens it from their accepted application.
    const creatorContext = await suite.browser.newContext({ bypassCSP: true });
    const creatorTab = await liveTab(
      creatorContext,
      suite.product.webUrl,
      creator,
      `/offers/${offer.id}`,
    );
    const creatorPage = creatorTab.page;
    await creatorPage
      .locator('[data-testid="application-status"][data-status="accepted"]')
      .waitFor();
    await creatorPage.getByRole('link', { name: 'Open collaboration' }).click();
    await creatorPage.waitForURL(url(`/collaborations/${collaboration.id}`));
    await creatorPage.getByRole('link', { name: brand.company }).waitFor();
    // The frozen terms (the payment panel shows the same amount once it is due).
    await creatorPage.getByRole('region', { name: 'Terms' }).getByText('$500.00').waitFor();

    // Act + Assert: messages both ways appear live in the other's tab.
    const hello = `Hello from the brand ${randomUUID().slice(0, 6)}`;
    await write(brandPage, hello);
    await seeMessage(brandPage, hello);
    await seeMessage(creatorPage, hello);
    const reply = `Happy to start, first draft on Friday ${randomUUID().slice(0, 6)}`;
    await write(creatorPage, reply);
    await seeMessage(brandPage, reply);
    // The creator's open tab read the brand's message: "Seen" shows under it for the brand.
    await log(brandPage)
      .locator('li[data-sequence="1"]')
      .getByTestId('seen-mark')
      .waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });

    // Act + Assert: an e-mail address waits for the author's confirmation.
    const withEmail = `Write to studio.${randomUUID().slice(0, 6)}@example.org if the site is down`;
    await write(creatorPage, withEmail);
    const notice = creatorPage
      .getByRole('alert')
      .filter({ hasText: messages.contactDetailsNotice });
    await notice.waitFor();
    await sleep(1000);
    assert.equal(await log(brandPage).getByText(withEmail).count(), 0, 'sent before confirming');
    await notice.getByRole('button', { name: 'Send anyway' }).click();
    await notice.waitFor({ state: 'detached' });
    await seeMessage(creatorPage, withEmail);
    await seeMessage(brandPage, withEmail);
    assert.equal(await log(creatorPage).getByText(withEmail).count(), 1, 'shown twice');

    // Arrange: the creator leaves the conversation for the dashboard.
    await creatorPage
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Dashboard' })
      .click();
    await creatorPage.waitForURL(url('/dashboard'));
    await creatorPage
      .getByRole('link', { name: /^Collaborations/ })
      .first()
      .waitFor();

    // Act: the brand writes twice.
    const first = `First note ${randomUUID().slice(0, 6)}`;
    const second = `Second note ${randomUUID().slice(0, 6)}`;
    await write(brandPage, first);
    await seeMessage(brandPage, first);
    await write(brandPage, second);
    await seeMessage(brandPage, second);

    // Assert: the creator's badge counts both, live.
    await unreadBadge(creatorPage)
      .filter({ hasText: '2' })
      .waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });

    // Act: the creator reads them in another tab, from the list.
    const reader = await anotherLiveTab(creatorContext, url('/collaborations'));
    const row = reader.page.locator(`li[data-collaboration-id="${collaboration.id}"]`);
    assert.equal(await row.getByTestId('unread-count').textContent(), '2 unread');
    const listViolations = await seriousAxeViolations(reader.page);
    await row.getByRole('link', { name: offer.title }).click();
    await seeMessage(reader.page, second, STEP_TIMEOUT_MS);

    // Assert: the badge clears in the first tab, live, and the brand sees "Seen" under its last.
    await unreadBadge(creatorPage).waitFor({ state: 'detached', timeout: LIVE_UPDATE_WINDOW_MS });
    await log(brandPage)
      .locator('li[data-sequence]')
      .filter({ hasText: second })
      .getByTestId('seen-mark')
      .waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });
    assert.deepEqual(
      { list: listViolations, conversation: await seriousAxeViolations(brandPage) },
      { list: [], conversation: [] },
    );
    for (const [page, secrets] of [
      [brandPage, [creator.email]],
      [creatorPage, [brand.email, brand.lastName]],
      [reader.page, [brand.email, brand.lastName]],
    ] as const) {
      const shown = (await page.locator('body').textContent()) ?? '';
      for (const secret of secrets) assert.ok(!shown.includes(secret), `a page shows ${secret}`);
    }
    assert.deepEqual([...brandTab.problems, ...creatorTab.problems, ...reader.problems], []);
    await creatorContext.close();
    await brandContext.close();
  });
});
