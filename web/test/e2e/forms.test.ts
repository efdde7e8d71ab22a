/**
 * Forms and pages of spec §2, §5 and §8 in a real browser against the real
 * product, for the rules docs/spec-coverage.md listed as gaps: the join and
 * login pages' texts and links, the login form's messages, busy submit
 * buttons, the scroll to the top on failed validation, a failed
 * registration's message, no GET /api/me on a navigation (docs/adr/0007),
 * the settings side menu, the ten interests of onboarding, and axe-core on
 * the brand pages, the Verify Password dialog and the later onboarding steps.
 *
 * Needs the native stack (`npm run stack -- up`).
 */
import { describe, test } from 'vitest';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { BrowserContextOptions, Page, Route } from 'playwright-core';
import { messages } from '@raly/contracts/messages';
import { browserSuite } from './harness/suite.ts';
import { registerBrand, registerCreator } from './harness/bff-client.ts';
import { brandRegistration, creatorRegistration } from '@raly/test-support';
import {
  countMeReads,
  logIn,
  openPage,
  seeText,
  seeToast,
  signedInPage as signedInPageAt,
  waitUntilSignedIn,
} from './harness/pages.ts';
import { seriousAxeViolations } from './harness/axe.ts';

const PHONE = { width: 390, height: 844 };

/** How long after a navigation a GET /api/me would have been sent (ms). */
const ME_REREAD_WINDOW_MS = 1500;

/** The privacy promise /join/creator shows (spec §2: personal info is never disclosed). */
const PRIVACY_PROMISE =
  'Your personal info (name and e-mail) is never disclosed to brands or other members.';

/** Spec §3, in the spec's order: the interests a creator can pick. */
const SPEC_INTERESTS = [
  'AI',
  'NFTs',
  'Gaming',
  'Fashion',
  'Gambling',
  'Memecoins',
  'Sports',
  'Business',
  'Crypto',
  'Other',
];

const suite = browserSuite();
const { url } = suite;

const newPage = async (options: BrowserContextOptions = {}) => {
  const context = await suite.browser.newContext(options);
  return { context, ...(await openPage(context)) };
};

/** Signed in through the login form; axe-core is injected as a script, so the page's CSP is bypassed. */
const signedInPage = (person: { email: string; password: string }, path: string) =>
  signedInPageAt(suite.browser, suite.product.webUrl, person, path, { bypassCSP: true });

/**
 * Holds back the next request matching `pattern` until `release` is called.
 * @returns `routed` (resolves once the request is held) and `release(answer)`
 */
async function holdRequest(page: Page, pattern: string) {
  let held: (route: Route) => void = () => undefined;
  const routed = new Promise<Route>((resolve) => {
    held = resolve;
  });
  await page.route(pattern, (route) => held(route), { times: 1 });
  return { routed };
}

/** Asserts that the submit button named `name` is disabled, aria-busy and shows its spinner. */
async function assertBusy(page: Page, name: string): Promise<void> {
  const button = page.getByRole('button', { name, exact: true });
  assert.equal(await button.isDisabled(), true, `${name} is disabled`);
  assert.equal(await button.getAttribute('aria-busy'), 'true', `${name} is aria-busy`);
  assert.equal(await button.locator('.animate-spin').count(), 1, `${name} shows a spinner`);
}

/** Asserts that the submit button named `name` is enabled again, without a spinner. */
async function assertIdle(page: Page, name: string): Promise<void> {
  const button = page.getByRole('button', { name, exact: true });
  await page.waitForFunction(
    (label) =>
      [...document.querySelectorAll('button')].some(
        (element) => element.textContent === label && !element.disabled,
      ),
    name,
  );
  assert.equal(await button.getAttribute('aria-busy'), null);
  assert.equal(await button.locator('.animate-spin').count(), 0);
}

const noSeriousViolations = async (page: Page, where: string) =>
  assert.deepEqual(await seriousAxeViolations(page), [], `axe-core on ${where}`);

describe('forms and pages of spec §2, §5 and §8', () => {
  test('when /join/creator opens, then it states that personal info is never disclosed', async () => {
    const { context, page, problems } = await newPage();

    await page.goto(url('/join/creator'));

    await page.getByRole('heading', { name: 'Join as a creator', exact: true }).waitFor();
    await seeText(page, PRIVACY_PROMISE);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when /join/brand opens, then the heading reads "Join as a brand" above the brand form', async () => {
    const { context, page, problems } = await newPage();

    await page.goto(url('/join/brand'));

    const heading = page.getByRole('heading', { name: 'Join as a brand', exact: true });
    await heading.waitFor();
    assert.equal(await heading.evaluate((element) => element.tagName), 'H1');
    await page.getByLabel('Company', { exact: true }).waitFor();
    await page.getByLabel('Website', { exact: true }).waitFor();
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when /login opens, then it links to joining as a creator and as a brand', async () => {
    const { context, page, problems } = await newPage();
    await page.goto(url('/login'));

    await page.getByRole('link', { name: 'as a creator', exact: true }).click();
    await page.waitForURL(url('/join/creator'));
    await page.getByRole('heading', { name: 'Join as a creator', exact: true }).waitFor();
    await page.goBack();
    await page.getByRole('link', { name: 'as a brand', exact: true }).click();
    await page.waitForURL(url('/join/brand'));
    await page.getByRole('heading', { name: 'Join as a brand', exact: true }).waitFor();

    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when the login form is sent empty or with a malformed e-mail, then the §5 messages show and nothing is sent', async () => {
    // Arrange
    const { context, page, problems } = await newPage();
    const loginCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/auth/login') loginCalls.push(request.url());
    });
    await page.goto(url('/login'));

    // Act: empty
    await page.getByRole('button', { name: 'Log in' }).click();

    // Assert
    await seeText(page, messages.emailRequired);
    await seeText(page, messages.passwordRequired);

    // Act: a malformed e-mail with a password
    await page.getByLabel('Email', { exact: true }).fill(`not-an-email-${randomUUID()}`);
    await page.getByLabel('Password', { exact: true }).fill(randomUUID());
    await page.getByRole('button', { name: 'Log in' }).click();

    // Assert
    await seeText(page, messages.emailInvalid);
    assert.equal(await page.getByText(messages.passwordRequired, { exact: true }).count(), 0);
    assert.deepEqual(loginCalls, [], 'no sign-in request for an invalid form');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when a login is being sent, then Log in is disabled with a spinner until the answer comes', async () => {
    // Arrange
    const { context, page, problems } = await newPage();
    await page.goto(url('/login'));
    const { routed } = await holdRequest(page, '**/api/auth/login');
    await page.getByLabel('Email', { exact: true }).fill(`${randomUUID()}@example.test`);
    await page.getByLabel('Password', { exact: true }).fill(randomUUID());

    // Act
    await page.getByRole('button', { name: 'Log in' }).click();
    const route = await routed;

    // Assert: busy while held
    await assertBusy(page, 'Log in');

    // Act: the answer comes
    await route.fulfill({
      status: 401,
      contentType: 'application/json',
      body: JSON.stringify({
        error: { code: 'unauthenticated', message: messages.incorrectLogin },
      }),
    });

    // Assert
    await seeText(page, messages.incorrectLogin);
    await assertIdle(page, 'Log in');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when a registration fails, then Join is busy while it is sent and the returned error text shows', async () => {
    // Arrange
    const { context, page, problems } = await newPage();
    const creator = creatorRegistration();
    const returnedText = `Registration refused ${randomUUID()}`;
    await page.goto(url('/join/creator'));
    const { routed } = await holdRequest(page, '**/api/accounts');
    await page.getByLabel('Username', { exact: true }).fill(creator.username);
    await page.getByLabel('Email', { exact: true }).fill(creator.email);
    await page.getByLabel('Password', { exact: true }).fill(creator.password);
    await page.getByLabel('Confirm password', { exact: true }).fill(creator.password);
    await page.getByLabel('I agree to the terms and conditions').check();

    // Act
    await page.getByRole('button', { name: 'Join as a creator' }).click();
    const route = await routed;

    // Assert: busy while held
    await assertBusy(page, 'Join as a creator');

    // Act: the BFF answers 500 with its error body
    await route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'internal', message: returnedText } }),
    });

    // Assert
    const toast = page.getByRole('alert').filter({ hasText: 'Registration failed' });
    await toast.filter({ hasText: returnedText }).waitFor();
    await seeToast(page, returnedText, 'alert');
    await assertIdle(page, 'Join as a creator');
    assert.equal(new URL(page.url()).pathname, '/join/creator');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when the long registration form fails validation at 390 px, then the window scrolls back to the top', async () => {
    // Arrange
    const { context, page, problems } = await newPage({ viewport: PHONE });
    await page.goto(url('/join/brand'));
    await page.getByRole('button', { name: 'Join as a brand' }).waitFor();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const scrolledTo = await page.evaluate(() => window.scrollY);
    assert.ok(scrolledTo > 0, `the form is longer than the screen (scrolled to ${scrolledTo})`);

    // Act
    await page.getByRole('button', { name: 'Join as a brand' }).click();

    // Assert
    await seeText(page, messages.firstNameRequired);
    await page.waitForFunction(() => window.scrollY === 0);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when a brand user moves between the settings pages, then the user store is not read again and axe-core finds nothing serious', async () => {
    // Arrange
    const contact = brandRegistration();
    await registerBrand(suite.product.bffUrl, contact);
    const context = await suite.browser.newContext({ bypassCSP: true });
    const { page, problems } = await openPage(context);
    await logIn(page, suite.product.webUrl, contact.email, contact.password);
    await waitUntilSignedIn(page);
    await page.getByRole('region', { name: 'Terms of service' }).waitFor();
    await noSeriousViolations(page, 'brand onboarding');
    await page.goto(url('/settings/brand'));
    await page.getByLabel('Company', { exact: true }).waitFor();
    await noSeriousViolations(page, '/settings/brand');
    const sideMenu = page.getByRole('navigation', { name: 'Settings' });

    const reads = countMeReads(page);

    // Act: to Account through the side menu
    await sideMenu.getByRole('link', { name: 'Account', exact: true }).click();

    // Assert: the form is filled from the cached record
    await page.waitForURL(url('/settings/account'));
    await page.getByLabel('First name', { exact: true }).waitFor();
    await noSeriousViolations(page, "the brand user's account form");

    // Act: back to Brand Profile
    await sideMenu.getByRole('link', { name: 'Brand Profile', exact: true }).click();

    // Assert
    await page.waitForURL(url('/settings/brand'));
    await page.getByLabel('Company', { exact: true }).waitFor();
    await page.waitForTimeout(ME_REREAD_WINDOW_MS);
    assert.equal(reads.count, 0, 'no GET /api/me on a navigation');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when a creator opens Settings, then the side menu has Account, and the Verify Password dialog passes axe-core', async () => {
    // Arrange
    const creator = creatorRegistration();
    await registerCreator(suite.product.bffUrl, creator);
    const { context, page, problems } = await signedInPage(creator, '/settings/account');
    const account = page
      .getByRole('navigation', { name: 'Settings' })
      .getByRole('link', { name: 'Account', exact: true });

    // Assert: the side menu
    await account.waitFor();
    assert.equal(await account.getAttribute('href'), '/settings/account');

    // Act: an e-mail change asks for the password
    await page.getByLabel('AI', { exact: true }).check();
    await page.getByLabel('Email', { exact: true }).fill(creatorRegistration().email);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('dialog', { name: 'Verify Password' }).waitFor();

    // Assert
    await noSeriousViolations(page, 'the Verify Password dialog');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when a creator reaches the onboarding interests, then exactly the ten spec interests show, and each later step passes axe-core', async () => {
    // Arrange
    const creator = creatorRegistration();
    await registerCreator(suite.product.bffUrl, creator);
    const { context, page, problems } = await signedInPage(creator, '/onboarding');
    await page.getByLabel('I agree to the terms above').check();
    await page.getByRole('button', { name: 'Next' }).click();
    const interests = page.getByRole('group', { name: 'Interests' });
    await interests.waitFor();

    // Assert: the ten options, in the spec's order
    const labels = await interests
      .getByRole('checkbox')
      .evaluateAll((boxes) =>
        boxes.map((box) => (box as HTMLInputElement).labels?.[0]?.textContent?.trim()),
      );
    assert.deepEqual(labels, SPEC_INTERESTS);
    await noSeriousViolations(page, 'the interests step');

    // Act + Assert: connects, then wallet
    await page.getByLabel('Sports', { exact: true }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Connect your socials' }).waitFor();
    await noSeriousViolations(page, 'the connects step');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Create your wallet' }).waitFor();
    await noSeriousViolations(page, 'the wallet step');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
