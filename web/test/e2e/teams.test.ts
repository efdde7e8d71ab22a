/**
 * Brand teams in a real browser against the real product
 * (docs/product-spec.md §13): an onboarded brand's admin opens the team from
 * the dashboard, chooses a handle and invites a teammate by e-mail; the
 * teammate opens the mailed link (read from the SMTP catcher's HTTP API) in
 * a second browser context, registers as a member with a handle, accepts
 * the terms and sees the brand's offers; a creator applies to the brand's
 * open offer, and the application shows live, without a reload, in both
 * members' tabs; the teammate accepts it and writes in the collaboration,
 * and each reader sees the message's author by handle (§13.2): the teammate
 * "You", the admin the teammate's handle, the creator the brand's username
 * and the handle. The brand's onboarding itself is brand-onboarding.test.ts.
 *
 * Needs the native stack (`npm run stack -- up`).
 */
import { describe, test } from 'vitest';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { messages } from '@raly/contracts/messages';
import type { OfferRecord } from '@raly/contracts/offers';
import { brandRegistration, uniqueToken, waitForMail, type CaughtMail } from '@raly/test-support';
import { browserSuite } from './harness/suite.ts';
import {
  aSignedInBrand,
  anOffer,
  callBff as callBffAt,
  collaborationOf,
  LIVE_UPDATE_WINDOW_MS,
} from './harness/collaboration-parties.ts';
import { anotherLiveTab, liveTab } from './harness/live.ts';
import { openPage, seeText, seeTitle, seeToast, STEP_TIMEOUT_MS } from './harness/pages.ts';
import { aSignedInCreator } from './harness/shell-users.ts';

const suite = browserSuite();
const { url } = suite;

const callBff = <T>(method: string, path: string, token?: string, body?: unknown) =>
  callBffAt<T>(suite.product.bffUrl, method, path, token, body);

/** Leaves a mark on the page's window: it is gone after a reload. */
async function markPage(page: Page): Promise<string> {
  const mark = randomUUID();
  await page.evaluate((value) => {
    (window as unknown as { ralyTestMark: string }).ralyTestMark = value;
  }, mark);
  return mark;
}
const markOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { ralyTestMark?: string }).ralyTestMark);

/** A handle no other test run uses (username rules: lower case letters and digits). */
const aHandle = (prefix: string) => `${prefix}${uniqueToken(8)}`.toLowerCase();

/** The newest invitation mail to `email` of the brand named `company`, from the SMTP catcher, and its link. */
async function invitationMailedTo(
  email: string,
  company: string,
): Promise<{ mail: CaughtMail; link: string }> {
  const mail = await waitForMail(email, {
    matching: (caught) => caught.text.includes('/join/team?') && caught.subject.includes(company),
  });
  const link = /https?:\/\/\S+\/join\/team\?\S+/.exec(mail.text)?.[0];
  assert.ok(link, `no invitation link in the mail: ${mail.text}`);
  return { mail, link };
}

describe('brand teams in the browser', () => {
  test('when the admin invites a teammate by e-mail, then the teammate joins from the mailed link with a handle, sees the offers, and a new application shows live to both', async () => {
    // Arrange: an onboarded brand with an open offer, its admin's tab on the dashboard.
    const admin = await aSignedInBrand(suite.product.bffUrl);
    for (const step of ['terms', 'brand'])
      await callBff('POST', '/me/onboarding', admin.accessToken, { step });
    const offer = await callBff<OfferRecord>('POST', '/offers', admin.accessToken, anOffer());
    const adminContext = await suite.browser.newContext();
    const adminTab = await liveTab(adminContext, suite.product.webUrl, admin, '/dashboard');
    const adminPage = adminTab.page;
    const adminHandle = aHandle('admin');
    const { firstName, lastName, email, password } = brandRegistration({ firstName: 'Sam' });
    const teammate = { firstName, lastName, email, password, handle: aHandle('mate') };

    // Act: the admin opens the team from the dashboard, chooses a handle and invites.
    await adminPage.getByRole('link', { name: 'Your team' }).click();
    await adminPage.waitForURL(url('/brand/team'));
    await seeTitle(adminPage, 'Team - Raly');
    await seeText(adminPage, messages.handleRequired + ' Your team sees you by your handle only.');
    const handleForm = adminPage.getByRole('form', { name: 'Choose your handle' });
    await handleForm.getByLabel('Handle', { exact: true }).fill(adminHandle);
    await handleForm.getByRole('button', { name: 'Save handle' }).click();
    await seeToast(adminPage, messages.handleSaved);
    const members = adminPage.getByRole('list', { name: 'Members' });
    await members.getByText(`${adminHandle} (you)`).waitFor();
    const inviteForm = adminPage.getByRole('form', { name: 'Invite a member' });
    await inviteForm.getByLabel('Email', { exact: true }).fill(teammate.email);
    await inviteForm.getByRole('button', { name: 'Send invitation' }).click();
    await seeToast(adminPage, messages.invitationSent);
    await adminPage
      .getByRole('list', { name: 'Pending invitations' })
      .getByText(teammate.email, { exact: true })
      .waitFor();

    // Act: the teammate opens the mailed link in another browser and registers with a handle.
    const { mail, link } = await invitationMailedTo(teammate.email, admin.company);
    assert.equal(new URL(link).origin, suite.product.webUrl);
    for (const inviter of [admin.email, admin.lastName, adminHandle])
      assert.ok(!mail.text.includes(inviter), `the invitation names the inviter: ${inviter}`);
    const teammateContext = await suite.browser.newContext();
    const joining = await openPage(teammateContext);
    const joiningPage = joining.page;
    await joiningPage.goto(link, { waitUntil: 'domcontentloaded' });
    await joiningPage
      .getByTestId('invitation-preview')
      .filter({ hasText: `${admin.company} invites ${teammate.email} to join its team on Raly.` })
      .waitFor();
    await joiningPage.getByLabel('First name', { exact: true }).fill(teammate.firstName);
    await joiningPage.getByLabel('Last name', { exact: true }).fill(teammate.lastName);
    await joiningPage.getByLabel('Handle', { exact: true }).fill(teammate.handle);
    assert.equal(
      await joiningPage.getByLabel('Email', { exact: true }).inputValue(),
      teammate.email,
    );
    await joiningPage.getByLabel('Password', { exact: true }).fill(teammate.password);
    await joiningPage.getByLabel('Confirm password', { exact: true }).fill(teammate.password);
    await joiningPage.getByLabel('I agree to the terms and conditions').check();
    await joiningPage.getByRole('button', { name: 'Join the team' }).click();

    // Assert: signed in, the teammate has the terms left (the brand step is the brand's), then the dashboard.
    await joiningPage.waitForURL(url('/onboarding'));
    await joiningPage.getByRole('region', { name: 'Terms of service' }).waitFor();
    await joiningPage.getByLabel('I agree to the terms above').check();
    await joiningPage.getByRole('button', { name: /^(Next|Done)$/ }).click();
    await joiningPage.waitForURL(url('/dashboard'));
    await joiningPage.getByTestId('open-offers').filter({ hasText: '1' }).waitFor();

    // Assert: the admin's open team page shows the teammate by handle, as a member, live.
    const teammateRow = members.getByRole('listitem').filter({ hasText: teammate.handle });
    await teammateRow.waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });
    await teammateRow.getByText('Member', { exact: true }).waitFor();
    const teamText = (await adminPage.locator('main').textContent()) ?? '';
    for (const hidden of [teammate.firstName, teammate.lastName])
      assert.ok(!teamText.includes(hidden), `the team page shows the teammate's ${hidden}`);

    // Assert: the teammate sees the brand's offers and opens the open one.
    await joiningPage.goto(url('/brand/offers'));
    await seeTitle(joiningPage, 'Brand offers - Raly');
    await joiningPage.getByRole('link', { name: offer.title }).click();
    await joiningPage.waitForURL(url(`/brand/offers/${offer.id}`));
    await joiningPage.getByTestId('offer-status').filter({ hasText: 'Open' }).waitFor();

    // Arrange: both members on the offer's page, their live sockets joined.
    const teammateTab = await anotherLiveTab(teammateContext, url(`/brand/offers/${offer.id}`));
    const adminOfferTab = await anotherLiveTab(adminContext, url(`/brand/offers/${offer.id}`));
    const tabs = [adminOfferTab.page, teammateTab.page];
    const marks = await Promise.all(tabs.map(markPage));

    // Act: a creator applies to the offer (through the API, as from another device).
    const creator = await aSignedInCreator(suite.product.bffUrl, { onboarded: true });
    const pitch = `I film honest reviews every week for twenty thousand players. ${uniqueToken(6)}`;
    const application = await callBff<{ id: string }>(
      'POST',
      `/offers/${offer.id}/applications`,
      creator.tokenSet.accessToken,
      { pitch },
    );

    // Assert: the application shows in both members' tabs, with its pitch, without a reload.
    for (const page of tabs) {
      const card = page.getByRole('article', { name: `Application of ${creator.username}` });
      await card.waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });
      await card.getByText(pitch).waitFor();
    }
    assert.deepEqual(await Promise.all(tabs.map(markOf)), marks, 'a tab was reloaded');

    // Act: the teammate accepts, opens the collaboration and writes in it.
    await teammateTab.page
      .getByRole('article', { name: `Application of ${creator.username}` })
      .getByRole('button', { name: 'Accept' })
      .click();
    await seeToast(teammateTab.page, messages.applicationAccepted);
    const collaboration = await collaborationOf(
      suite.product.bffUrl,
      creator.tokenSet.accessToken,
      application.id,
    );
    const conversation = url(`/collaborations/${collaboration.id}`);
    const text = `Welcome aboard, the brief is attached. ${uniqueToken(6)}`;
    await teammateTab.page.goto(conversation);
    await teammateTab.page.getByLabel('Message', { exact: true }).fill(text);
    await teammateTab.page.getByRole('button', { name: 'Send', exact: true }).click();

    // Assert: the teammate reads it as theirs, the admin under the teammate's handle, and the
    // creator as the brand with the teammate's handle; nobody sees the teammate's name.
    const creatorContext = await suite.browser.newContext();
    const creatorTab = await liveTab(
      creatorContext,
      suite.product.webUrl,
      creator,
      `/collaborations/${collaboration.id}`,
    );
    await adminOfferTab.page.goto(conversation);
    /** Waits until the message shows with exactly `sender` as its author's name. */
    const seeSender = (page: Page, sender: string) =>
      page
        .getByRole('log', { name: 'Messages' })
        .locator('li[data-sequence]')
        .filter({ hasText: text })
        .locator('p > span')
        .first()
        .filter({ hasText: new RegExp(`^${sender.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })
        // Pages just loaded: their code and the history arrive first.
        .waitFor({ timeout: 2 * STEP_TIMEOUT_MS });
    await seeSender(teammateTab.page, 'You');
    await seeSender(adminOfferTab.page, teammate.handle);
    await seeSender(creatorTab.page, `${collaboration.brand.username} · ${teammate.handle}`);
    const creatorText = (await creatorTab.page.locator('main').textContent()) ?? '';
    for (const hidden of [teammate.firstName, teammate.lastName, teammate.email])
      assert.ok(!creatorText.includes(hidden), `the creator sees the teammate's ${hidden}`);
    assert.deepEqual(creatorTab.problems, []);
    await creatorContext.close();
    assert.deepEqual(
      [
        ...adminTab.problems,
        ...joining.problems,
        ...teammateTab.problems,
        ...adminOfferTab.problems,
      ],
      [],
    );
    await teammateContext.close();
    await adminContext.close();
  });
});
