/**
 * The staff console in a real browser against the real product and Keycloak (docs/console.md):
 * a moderator opens /console, signs in on Keycloak's login page (password, then a TOTP code
 * computed with otplib as @raly/test-stack's staff helpers do), finds a brand, verifies it, the
 * Verified badge shows on the brand's public page and the audit log's tab shows the decision with
 * who made it and why; after signing out, /console asks for sign-in again. A moderator suspends a brand: its open offer leaves a creator's feed live, the
 * brand's open tab loses its live socket (the next handshake is refused) and signs out without a
 * reload, and its sign-in answers 403 'This account is suspended.', which its login form shows;
 * after the lift it signs in again. A creator reports an offer: the report reaches a moderator's
 * open queue live, the moderator resolves it, the creator's bell counts the outcome live and its
 * inbox item opens Settings → Reports with the outcome. A creator's product session does not open the console, and a
 * creator's credentials on its login page do not reach the console's tools.
 *
 * Needs the native stack (`npm run stack -- up`).
 */
import { afterAll, beforeAll, describe, test } from 'vitest';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { messages } from '@raly/contracts/messages';
import { reportOutcomeWords, reportReasonWords } from '@raly/contracts/reports';
import { ScureBase32Plugin } from 'otplib';
import {
  brandRegistration,
  consoleSignIn,
  createStaffUser,
  creatorRegistration,
  deleteStaffUser,
  ensureStaffRealm,
  nextTotpCode,
  sleep,
  type StaffUser,
} from '@raly/test-support';
import { browserSuite } from './harness/suite.ts';
import { registerBrand, registerCreator } from './harness/bff-client.ts';
import { aBrandWithAnOpenOffer, LIVE_UPDATE_WINDOW_MS } from './harness/collaboration-parties.ts';
import { liveTab } from './harness/live.ts';
import {
  logIn,
  openPage,
  seeText,
  seeToast,
  signedInPage,
  STEP_TIMEOUT_MS,
  waitUntilSignedIn,
} from './harness/pages.ts';
import { aSignedInCreator } from './harness/shell-users.ts';

/** How long the badge may take to reach the public page (brand.brand.updated → the BFF's read model). */
const BADGE_WINDOW_MS = 30_000;
/** How long a decision's audit entry may take to reach the log (brand's outbox → Kafka → moderation). */
const AUDIT_WINDOW_MS = 30_000;

describe('the staff console', () => {
  const suite = browserSuite();
  const { url } = suite;
  let moderator: StaffUser | undefined;

  beforeAll(async () => {
    const { stack, webUrl } = suite.product;
    await ensureStaffRealm(stack, { redirectUris: [`${webUrl}/console/*`] });
    moderator = await createStaffUser(stack, 'raly-moderator');
    // The first sign-in sets up the account's TOTP (CONFIGURE_TOTP); the browser then types codes.
    await consoleSignIn(stack, moderator, `${webUrl}/console/`);
  });

  afterAll(async () => {
    if (moderator) await deleteStaffUser(suite.product.stack, moderator);
  });

  /** Keycloak's login page of the console client, in this page. */
  const onKeycloakLogin = async (page: Page) => {
    await page.locator('#kc-form-login').waitFor();
    assert.equal(new URL(page.url()).origin, new URL(suite.product.stack.keycloakPublicUrl).origin);
    assert.equal(new URL(page.url()).searchParams.get('client_id'), 'raly-console');
  };

  /** Types `email` and `password` into Keycloak's login form. */
  const typePassword = async (page: Page, email: string, password: string) => {
    await page.locator('#username').fill(email);
    await page.locator('#password').fill(password);
    await page.locator('#kc-login').click();
  };

  /**
   * Opens /console in `page` and signs `staff` in on Keycloak's login page: password, then a TOTP
   * code Keycloak has not accepted yet. Resolves back on the web app.
   */
  const signInToConsole = async (page: Page, staff: StaffUser) => {
    await page.goto(url('/console'));
    await onKeycloakLogin(page);
    await typePassword(page, staff.email, staff.password);
    await page.locator('#otp').waitFor();
    const code = await nextTotpCode(staff);
    await page.locator('#otp').fill(code);
    await page.locator('#kc-login').click();
    staff.lastCode = code;
    await page.waitForURL((address) => address.origin === suite.product.webUrl);
  };

  /** Finds the brand of `company` in the console and @returns its row. */
  const findBrand = async (page: Page, company: string) => {
    await page.getByLabel('Username or company').fill(company.toLowerCase());
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.getByRole('listitem', { name: company });
    await row.waitFor();
    return row;
  };

  test('when a moderator signs in with password and TOTP, then they find a brand, verify it, its public page shows the badge, the audit log shows who verified it and why, and after signing out /console asks for sign-in again', async () => {
    // Arrange
    const brand = brandRegistration();
    await registerBrand(suite.product.bffUrl, brand);
    const context = await suite.browser.newContext();
    const { page, problems } = await openPage(context);

    // Act: sign in
    await signInToConsole(page, moderator!);

    // Assert: the console, with the staff member's account
    assert.match(new URL(page.url()).pathname, /^\/console\/?$/);
    await page.getByRole('heading', { name: 'Brands' }).waitFor();
    await seeText(page, moderator!.email);

    // Act: find the brand and verify it
    const row = await findBrand(page, brand.company);
    await page.getByLabel('Reason for a decision').fill('Company documents checked');
    await row.getByRole('button', { name: 'Verify' }).click();

    // Assert: the row is updated in place
    await row.getByRole('button', { name: 'Remove verification' }).waitFor();
    await row.getByText('Verified', { exact: true }).waitFor();

    // Assert: the brand's public page shows the badge (another tab of the same browser)
    const publicTab = await openPage(context);
    const deadline = Date.now() + BADGE_WINDOW_MS;
    await publicTab.page.goto(url(`/brand/${brand.username}`));
    await publicTab.page.getByRole('heading', { name: brand.company }).waitFor();
    while (!(await publicTab.page.getByText('Verified', { exact: true }).isVisible())) {
      assert.ok(Date.now() < deadline, 'the public page never showed the Verified badge');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await publicTab.page.reload();
      await publicTab.page.getByRole('heading', { name: brand.company }).waitFor();
    }

    // Assert: the audit log's tab shows the decision: who, what, on whom and why. The entry
    // reaches the log a moment after the decision, so the search is repeated until it shows.
    await page.getByRole('tab', { name: 'Audit log' }).click();
    await page.getByLabel('Staff e-mail, brand or creator').fill(brand.company);
    const entry = page
      .getByRole('table', { name: 'Staff actions' })
      .getByRole('row')
      .filter({ hasText: 'Verified a brand' });
    const auditDeadline = Date.now() + AUDIT_WINDOW_MS;
    for (;;) {
      await page.getByRole('button', { name: 'Search' }).click();
      if (
        await entry.waitFor({ timeout: 2000 }).then(
          () => true,
          () => false,
        )
      )
        break;
      assert.ok(Date.now() < auditDeadline, 'the audit log never showed the verification');
    }
    for (const text of [brand.company, moderator!.email, 'Company documents checked'])
      await entry.getByText(text, { exact: true }).waitFor();
    assert.equal(await entry.count(), 1);

    // Act: sign out
    await page.getByRole('button', { name: 'Sign out' }).click();

    // Assert: the Keycloak session ended, so /console asks for sign-in again
    await onKeycloakLogin(page);
    await page.goto(url('/console'));
    await onKeycloakLogin(page);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test("when a moderator suspends a brand, then its open offer leaves a creator's feed live, the brand's open tab is signed out and its sign-in is refused; after the lift it signs in again", async () => {
    // Arrange: a brand with an open offer on its own offers tab, a creator's feed showing the offer.
    const { bffUrl, webUrl } = suite.product;
    const { brand, offer } = await aBrandWithAnOpenOffer(bffUrl);
    const creator = await aSignedInCreator(bffUrl, { onboarded: true });
    const creatorContext = await suite.browser.newContext();
    const feed = await liveTab(creatorContext, webUrl, creator, '/offers');
    const card = feed.page.locator('[data-testid="offer-card"]').filter({ hasText: offer.title });
    await card.waitFor();
    let feedLoads = 0;
    feed.page.on('load', () => (feedLoads += 1));
    const brandContext = await suite.browser.newContext();
    const brandTab = await liveTab(brandContext, webUrl, brand, '/brand/offers');
    let brandLoads = 0;
    brandTab.page.on('load', () => (brandLoads += 1));
    const consoleContext = await suite.browser.newContext();
    const { page, problems } = await openPage(consoleContext);
    await signInToConsole(page, moderator!);
    const row = await findBrand(page, brand.company);
    await page.getByLabel('Reason for a decision').fill('Fake giveaways reported by creators');

    // Act: suspend the brand
    await row.getByRole('button', { name: 'Suspend' }).click();

    // Assert: the row shows the suspension as the BFF answered it
    await row.getByRole('button', { name: 'Lift suspension' }).waitFor();
    await row.getByText('Suspended', { exact: true }).waitFor();

    // Assert: the offer closed and left the creator's feed without a reload
    await card.waitFor({ state: 'detached', timeout: LIVE_UPDATE_WINDOW_MS });
    assert.equal(feedLoads, 0, "the creator's feed was reloaded");

    // Assert: the BFF closed the brand's live socket, and its new handshake is refused
    const refusedHandshake = () =>
      brandTab.packets.some(
        (packet) => packet.startsWith('44') && packet.includes('unauthenticated'),
      );
    const socketDeadline = Date.now() + LIVE_UPDATE_WINDOW_MS;
    while (!refusedHandshake()) {
      assert.ok(Date.now() < socketDeadline, "the brand's live socket was not refused");
      await sleep(250);
    }

    // Assert: the brand's tab checked its session, found it over and signed out, without a reload
    await brandTab.page.waitForURL(url('/'));
    await brandTab.page.getByRole('link', { name: 'Login' }).first().waitFor();
    assert.equal(brandLoads, 0, "the brand's tab was reloaded");

    // Assert: its sign-in is refused: the BFF answers 403 'This account is suspended.', and the
    // login form says so
    const refusedLogin = brandTab.page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/auth/login',
    );
    await logIn(brandTab.page, webUrl, brand.email, brand.password);
    const refusal = await refusedLogin;
    assert.equal(refusal.status(), 403);
    assert.equal(
      ((await refusal.json()) as { error: { message: string } }).error.message,
      messages.accountSuspended,
    );
    assert.equal(new URL(brandTab.page.url()).pathname, '/login');
    await brandTab.page.getByRole('alert').filter({ hasText: messages.accountSuspended }).waitFor();

    // Act: lift the suspension
    await page.getByLabel('Reason for a decision').fill('Giveaways checked with the brand');
    await row.getByRole('button', { name: 'Lift suspension' }).click();

    // Assert: the row shows it lifted, and the brand signs in again
    await row.getByRole('button', { name: 'Suspend' }).waitFor();
    assert.equal(await row.getByText('Suspended', { exact: true }).count(), 0);
    await logIn(brandTab.page, webUrl, brand.email, brand.password);
    await waitUntilSignedIn(brandTab.page);
    assert.deepEqual([...problems, ...feed.problems], []);
    await Promise.all([creatorContext, brandContext, consoleContext].map((each) => each.close()));
  });

  test("when a creator reports a brand's offer, then it reaches a moderator's open queue live; the moderator resolves it with a warning, the creator's bell counts the outcome live and its item opens Settings → Reports", async () => {
    // Arrange: a brand's open offer, a creator on its page, a moderator on the open queue.
    const { bffUrl, webUrl } = suite.product;
    const { offer } = await aBrandWithAnOpenOffer(bffUrl);
    const creator = await aSignedInCreator(bffUrl, { onboarded: true });
    const consoleContext = await suite.browser.newContext();
    const { page, problems } = await openPage(consoleContext);
    await signInToConsole(page, moderator!);
    await page.getByRole('heading', { name: 'Brands' }).waitFor();
    await page.getByRole('tab', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: 'Reports' }).waitFor();
    const queued = page.getByRole('list', { name: 'Reports' }).getByRole('listitem', {
      name: offer.title,
    });
    assert.equal(await queued.count(), 0, 'the offer is in the queue before anyone reported it');
    let consoleLoads = 0;
    page.on('load', () => (consoleLoads += 1));
    const creatorContext = await suite.browser.newContext();
    const creatorTab = await liveTab(creatorContext, webUrl, creator, `/offers/${offer.id}`);
    await creatorTab.page.getByRole('heading', { name: offer.title }).waitFor();

    // Act: the creator reports the offer
    await creatorTab.page.getByRole('button', { name: 'Report', exact: true }).click();
    const dialog = creatorTab.page.getByRole('dialog', { name: 'Report this offer' });
    await dialog.getByRole('radio', { name: reportReasonWords['scam-or-fraud'].label }).check();
    await dialog.getByLabel('Note').fill('Asks for a deposit before the work starts.');
    await dialog.getByRole('button', { name: 'Submit' }).click();

    // Assert: thanked, and the report reaches the open queue without a reload
    await seeToast(creatorTab.page, messages.reportThanks);
    await queued.waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });
    assert.equal(consoleLoads, 0, 'the console was reloaded');
    await queued.getByText('Asks for a deposit before the work starts.').waitFor();

    // Act: the moderator resolves it with a warning
    await queued.getByRole('radio', { name: 'Warning' }).check();
    await queued.getByLabel('Resolution note').fill('The brand was told deposits break our rules.');
    await queued.getByRole('button', { name: 'Resolve' }).click();

    // Assert: the report leaves the open queue live, and the resolved reports show its outcome
    // and who resolved it
    await queued.waitFor({ state: 'detached', timeout: LIVE_UPDATE_WINDOW_MS });
    await page.getByLabel('Show').selectOption('resolved');
    const resolved = page.getByRole('list', { name: 'Reports' }).getByRole('listitem', {
      name: offer.title,
    });
    await resolved.getByText(moderator!.email, { exact: false }).waitFor();
    await resolved.getByText('The brand was told deposits break our rules.').waitFor();
    assert.equal(await resolved.getByRole('button', { name: 'Resolve' }).count(), 0);

    // Assert: the creator's bell counts the outcome live; its item leads to Settings → Reports,
    // which shows the outcome and the note without the moderator
    const nav = creatorTab.page.getByRole('navigation', { name: 'Main' });
    await nav
      .getByTestId('notifications-badge')
      .filter({ hasText: '1' })
      .waitFor({ timeout: LIVE_UPDATE_WINDOW_MS });
    await nav.getByTestId('notifications-bell').click();
    await creatorTab.page.waitForURL(url('/notifications'));
    const outcome = creatorTab.page
      .getByRole('list', { name: 'Notifications' })
      .getByRole('listitem')
      .filter({ hasText: `Your report of “${offer.title}” was reviewed` });
    await outcome.getByText(reportOutcomeWords.warning).waitFor();
    await outcome.getByRole('link').click();
    await creatorTab.page.waitForURL(url('/settings/reports'));
    const mine = creatorTab.page.getByRole('region', { name: 'Reports' });
    await mine.getByText(offer.title).waitFor();
    await mine.getByText(reportOutcomeWords.warning).waitFor();
    await mine.getByText('The brand was told deposits break our rules.').waitFor();
    assert.ok(
      !((await creatorTab.page.locator('body').textContent()) ?? '').includes(moderator!.email),
      "the reporter's page names the moderator",
    );
    assert.deepEqual([...problems, ...creatorTab.problems], []);
    await Promise.all([consoleContext, creatorContext].map((each) => each.close()));
  });

  test("when a creator signed in to the product opens /console, or types their credentials on the console's login page, then the console's tools do not open", async () => {
    // Arrange
    const creator = creatorRegistration();
    await registerCreator(suite.product.bffUrl, creator);
    const { context, page } = await signedInPage(
      suite.browser,
      suite.product.webUrl,
      creator,
      '/console',
    );

    // Act + Assert: the product's session does not open the console
    await onKeycloakLogin(page);

    // Act: the creator's own credentials on the console's login page
    await typePassword(page, creator.email, creator.password);

    // Assert: Keycloak asks for a second factor the creator never set up; no console
    await page.locator('#kc-totp-settings-form').waitFor({ timeout: STEP_TIMEOUT_MS });
    assert.notEqual(new URL(page.url()).origin, suite.product.webUrl);

    // Act: even with TOTP set up, the account has no staff role
    const secret = await page.locator('input[name="totpSecret"]').inputValue();
    const creatorAsStaff: StaffUser = {
      id: '',
      email: creator.email,
      password: creator.password,
      role: 'raly-moderator',
      totpSecret: base32(secret),
    };
    await page.locator('#totp').fill(await nextTotpCode(creatorAsStaff));
    await page.locator('#userLabel').fill('phone');
    await page.locator('#kc-totp-settings-form [type="submit"]').first().click();

    // Assert
    await page.waitForURL((address) => address.origin === suite.product.webUrl);
    await seeText(page, 'This account has no staff role.');
    assert.equal(await page.getByRole('heading', { name: 'Brands' }).count(), 0);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await context.close();
  });
});

/** Keycloak's TOTP secret as authenticator apps read it: Base32 of its bytes (as staff.ts does). */
const base32 = (secret: string) => new ScureBase32Plugin().encode(new TextEncoder().encode(secret));
