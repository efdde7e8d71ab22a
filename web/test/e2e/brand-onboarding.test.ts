/**
 * Brand onboarding and the brand dashboard in a real browser against the
 * real product (spec §2, §4.1, §5.8): a visitor joins as a brand, goes
 * through the terms and brand steps ('Next', then 'Done') to the dashboard,
 * whose figures follow the brand's offers live and link to its offers list.
 *
 * Needs the native stack (`npm run stack -- up`).
 */
import { describe, test } from 'vitest';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ONBOARDING_TERMS_DELAY_MS } from '@raly/contracts/constants';
import { messages } from '@raly/contracts/messages';
import type { CreateOffer, OfferRecord } from '@raly/contracts/offers';
import { brandRegistration, dataOf, step } from '@raly/test-support';
import { browserSuite } from './harness/suite.ts';
import { accessTokenOf, userRecordOf } from './harness/bff-client.ts';
import { fieldHas, openPage, seeText, seeTitle } from './harness/pages.ts';

/** How soon a change made elsewhere must show on an open page (ms). */
const LIVE_UPDATE_WINDOW_MS = 5000;

// The product and Chromium, started once for this file (hooks at the file's top level).
const suite = browserSuite();
const { url } = suite;

/** A draft offer with a unique title, created through the BFF as the brand. */
async function aDraftOffer(token: string): Promise<OfferRecord> {
  const offer: CreateOffer = {
    title: `Draft ${randomUUID().slice(0, 8)}`,
    brief: 'Show our running shoes on your morning run, in your own words.',
    interests: ['Sports'],
    platforms: ['instagram'],
    deliverables: 'One short video.',
    compensation: { kind: 'fixed', amountMinor: 30_000, currency: 'USD' },
    creatorsWanted: 1,
    applyBy: new Date(Date.now() + 14 * 86_400_000).toISOString(),
    open: false,
  };
  return dataOf<OfferRecord>(suite.product.bffUrl, 'POST', '/api/offers', {
    body: offer,
    token,
  });
}

describe('brand onboarding in the browser', () => {
  test('when a new brand joins, then it goes through the terms and brand steps to its dashboard, whose figures follow its offers', async () => {
    const contact = brandRegistration();
    const bio = `We make bright running shoes for city runners. ${randomUUID().slice(0, 8)}`;
    const context = await suite.browser.newContext();
    const { page, problems } = await openPage(context);

    await step(
      'when the visitor joins as a brand, then the terms step shows with Next',
      async () => {
        await page.goto(url('/join/brand'));
        await seeTitle(page, 'Join as a brand - Raly');
        await page.getByLabel('First name', { exact: true }).fill(contact.firstName);
        await page.getByLabel('Last name', { exact: true }).fill(contact.lastName);
        await page.getByLabel('Company', { exact: true }).fill(contact.company);
        await page.getByLabel('Website', { exact: true }).fill(contact.website);
        await page.getByLabel('Username', { exact: true }).fill(contact.username);
        await page.getByLabel('Email', { exact: true }).fill(contact.email);
        await page.getByLabel('Password', { exact: true }).fill(contact.password);
        await page.getByLabel('Confirm password', { exact: true }).fill(contact.password);
        await page.getByLabel('I agree to the terms and conditions').check();
        await page.getByRole('button', { name: 'Join as a brand' }).click();
        // Registration goes to the dashboard, which sends a user who is not onboarded on.
        await page.waitForURL(url('/onboarding'));
        await page.getByRole('region', { name: 'Terms of service' }).waitFor();
        await page.getByRole('button', { name: 'Next' }).waitFor();
        assert.equal(await page.getByText('Brand onboarding is coming soon.').count(), 0);
      },
    );

    await step('when Next is clicked without agreeing, then the terms message shows', async () => {
      await page.getByRole('button', { name: 'Next' }).click();
      await seeText(page, messages.agreeTermsOnboarding);
    });

    await step(
      'when the terms are accepted, then the brand step shows with Done and the brand as registered',
      async () => {
        await page.getByLabel('I agree to the terms above').check();
        const clickedAt = Date.now();
        await page.getByRole('button', { name: 'Next' }).click();
        await page.getByRole('heading', { name: 'Your brand' }).waitFor();
        assert.ok(Date.now() - clickedAt >= ONBOARDING_TERMS_DELAY_MS - 50);
        await page.getByRole('button', { name: 'Done' }).waitFor();
        await page.getByRole('button', { name: 'Change profile image' }).waitFor();
        await fieldHas(page, 'Company', contact.company);
        await fieldHas(page, 'Website', contact.website);
      },
    );

    await step('when Done is clicked with a short bio, then the bio rule shows', async () => {
      await page.getByLabel('Bio', { exact: true }).fill('Shoes.');
      await page.getByRole('button', { name: 'Done' }).click();
      await seeText(page, messages.bioTooShort);
      assert.equal(new URL(page.url()).pathname, '/onboarding');
    });

    await step(
      'when a bio of the right length is saved, then the dashboard opens with its figures and both flags are set',
      async () => {
        await page.getByLabel('Bio', { exact: true }).fill(bio);
        await page.getByRole('button', { name: 'Done' }).click();
        await page.waitForURL(url('/dashboard'));
        for (const figure of [
          'open-offers',
          'draft-offers',
          'closed-offers',
          'pending-applications',
        ])
          await page.getByTestId(figure).filter({ hasText: '0' }).waitFor();
        const token = await accessTokenOf(suite.product.bffUrl, contact);
        const record = await userRecordOf(suite.product.bffUrl, token);
        assert.deepEqual(record.onboarding, { terms: true, brand: true });
      },
    );

    await step(
      'when the brand saves a draft elsewhere, then the draft figure counts it live and links to the drafts',
      async () => {
        const token = await accessTokenOf(suite.product.bffUrl, contact);
        const draft = await aDraftOffer(token);
        await page
          .getByTestId('draft-offers')
          .filter({ hasText: '1' })
          .waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });
        await page.getByRole('link', { name: /Draft offers/ }).click();
        await page.waitForURL(url('/brand/offers?status=draft'));
        await page.getByRole('link', { name: draft.title }).waitFor();
        await seeText(page, 'Showing: Draft offers');
      },
    );

    await step('when the brand opens its settings, then the saved bio is there', async () => {
      await page.goto(url('/settings/brand'));
      await fieldHas(page, 'Bio', bio);
    });

    await step('when the onboarded brand opens /onboarding, then the dashboard opens', async () => {
      await page.goto(url('/onboarding'));
      await page.waitForURL(url('/dashboard'));
    });

    assert.deepEqual(problems, []);
    await context.close();
  });
});
