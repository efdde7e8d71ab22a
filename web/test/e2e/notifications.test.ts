/**
 * Notifications in a real browser against the real product: a brand member
 * has two tabs open when a creator applies to the brand's offer; the bell
 * counts up live in both, the /notifications page names the creator by
 * username and leads to the offer's applicants, and reading the item in one
 * tab clears the count in the other, live. No page shows the creator's
 * e-mail, and axe-core finds nothing serious on the page.
 *
 * Needs the native stack (`npm run stack -- up`).
 */
import { describe, test } from 'vitest';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { Me } from '@raly/contracts/bff-api';
import type { OfferRecord } from '@raly/contracts/offers';
import { eventually } from '@raly/test-support';
import { seriousAxeViolations } from './harness/axe.ts';
import { browserSuite } from './harness/suite.ts';
import {
  aSignedInBrand,
  anOffer,
  callBff as callBffAt,
  LIVE_UPDATE_WINDOW_MS,
} from './harness/collaboration-parties.ts';
import { anotherLiveTab, liveTab } from './harness/live.ts';
import { seeTitle } from './harness/pages.ts';
import { aSignedInCreator } from './harness/shell-users.ts';

const suite = browserSuite();
const { url } = suite;

const callBff = <T>(method: string, path: string, token?: string, body?: unknown) =>
  callBffAt<T>(suite.product.bffUrl, method, path, token, body);

/** The bell's unread badge in the header of `page`. */
const bellBadge = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByTestId('notifications-badge');

describe('notifications in the browser', () => {
  test("when a creator applies, then the brand member's bell counts up live in both tabs, and reading in one tab clears the other's", async () => {
    // Arrange: a brand member notifications knows, an open offer, two tabs on the dashboard.
    const brand = await aSignedInBrand(suite.product.bffUrl);
    const me = await callBff<Me>('GET', '/me', brand.accessToken);
    await eventually('notifications to know the brand member', async () => {
      const { rows } = await suite.product.system.sql.notifications!.query(
        'SELECT 1 FROM people WHERE id = $1 AND brand_id IS NOT NULL',
        [me.user.id],
      );
      return rows.length === 1;
    });
    const offer = await callBff<OfferRecord>('POST', '/offers', brand.accessToken, anOffer());
    const creator = await aSignedInCreator(suite.product.bffUrl, { onboarded: true });
    const brandContext = await suite.browser.newContext({ bypassCSP: true });
    const first = await liveTab(brandContext, suite.product.webUrl, brand, '/dashboard');
    const second = await anotherLiveTab(brandContext, url('/dashboard'));
    for (const tab of [first, second])
      await tab.page
        .getByRole('navigation', { name: 'Main' })
        .getByTestId('notifications-bell')
        .waitFor();
    assert.equal(await bellBadge(first.page).count(), 0, 'a count before anything happened');

    // Act: the creator applies.
    await callBff('POST', `/offers/${offer.id}/applications`, creator.tokenSet.accessToken, {
      pitch: 'I review new games every week for an audience of twenty thousand players.',
    });

    // Assert: both tabs count it, live.
    for (const tab of [first, second])
      await bellBadge(tab.page)
        .filter({ hasText: '1' })
        .waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });

    // Act: the second tab opens the bell and the item.
    await second.page
      .getByRole('navigation', { name: 'Main' })
      .getByTestId('notifications-bell')
      .click();
    await second.page.waitForURL(url('/notifications'));
    await seeTitle(second.page, 'Notifications - Raly');
    const item = second.page
      .getByRole('list', { name: 'Notifications' })
      .getByRole('link', { name: `${creator.username} applied to “${offer.title}”` });
    await item.waitFor();
    const violations = await seriousAxeViolations(second.page);
    await item.click();
    await second.page.waitForURL(url(`/brand/offers/${offer.id}`));

    // Assert: the first tab's count clears, live; the second's too.
    await bellBadge(first.page).waitFor({ state: 'detached', timeout: LIVE_UPDATE_WINDOW_MS });
    await bellBadge(second.page).waitFor({ state: 'detached', timeout: LIVE_UPDATE_WINDOW_MS });
    assert.deepEqual(violations, []);
    for (const page of [first.page, second.page]) {
      const shown = (await page.locator('body').textContent()) ?? '';
      assert.ok(!shown.includes(creator.email), 'a page shows the creator’s e-mail');
    }
    assert.deepEqual([...first.problems, ...second.problems], []);
    await brandContext.close();
  });
});
