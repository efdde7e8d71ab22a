/**
 * The signed-in user's profile state in a real browser against the real
 * product (spec §4, §8), for rules docs/spec-coverage.md listed as gaps: a
 * failed account or brand profile save shows the text the BFF returned
 * (B5); for a brand user the profile stays loading until the brand record is
 * there too (C12); sign-out clears the cached profile, so the next user of
 * the tab never sees the previous user's records (C15).
 *
 * Needs the native stack (`npm run stack -- up`).
 */
import { describe, test } from 'vitest';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Page, Route } from 'playwright-core';
import { messages } from '@raly/contracts/messages';
import { browserSuite } from './harness/suite.ts';
import {
  accessTokenOf,
  registerBrand,
  registerCreator,
  renameBrand,
} from './harness/bff-client.ts';
import { brandRegistration, creatorRegistration, type BrandRegistration } from '@raly/test-support';
import {
  fieldHas,
  logIn,
  openPage,
  seeText,
  seeToast,
  signedInPage as signedInPageAt,
  waitUntilSignedIn,
} from './harness/pages.ts';

/** How long a held-back state is watched to stay as it is (ms). */
const STEADY_MS = 1500;

const suite = browserSuite();
const { url } = suite;

const signedInPage = (person: { email: string; password: string }, path: string) =>
  signedInPageAt(suite.browser, suite.product.webUrl, person, path);

async function aRegisteredBrand(): Promise<BrandRegistration> {
  const contact = brandRegistration();
  await registerBrand(suite.product.bffUrl, contact);
  return contact;
}

/** Makes every `method` request to the BFF path `path` fail with 500 and `message` in the error body. */
async function failRequests(page: Page, method: string, path: string, message: string) {
  await page.route(`**/api${path}`, (route: Route) =>
    route.request().method() === method
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'internal', message } }),
        })
      : route.fallback(),
  );
}

/**
 * Opens the desktop user menu and waits for its items; opens it again when a
 * navigation closed it in between (the menu closes on every route change).
 */
async function openUserMenu(page: Page): Promise<void> {
  const button = page.getByRole('button', { name: 'Open user menu' });
  const logout = page.getByRole('menuitem', { name: 'Logout' });
  for (let attempt = 0; attempt < 20 && !(await logout.isVisible()); attempt++) {
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
    await page.waitForTimeout(250);
  }
  await logout.waitFor();
}

/** Waits `ms`, then asserts the page still shows 'Loading' and none of `absent`. */
async function staysLoadingWithout(page: Page, absent: string[], ms = STEADY_MS): Promise<void> {
  await page.waitForTimeout(ms);
  assert.equal(await page.getByText('Loading', { exact: true }).isVisible(), true, 'Loading');
  for (const label of absent)
    assert.equal(await page.getByLabel(label, { exact: true }).count(), 0, `no ${label} field`);
  assert.equal(await page.getByText(messages.genericProblem).count(), 0, 'no problem text');
}

describe('profile state of spec §4 and §8', () => {
  test('when an account save fails, then the notification shows the text the BFF returned', async () => {
    // Arrange
    const contact = await aRegisteredBrand();
    const { context, page, problems } = await signedInPage(contact, '/settings/account');
    await fieldHas(page, 'First name', contact.firstName);
    const returnedText = `Account not saved ${randomUUID()}`;
    await failRequests(page, 'PATCH', '/me', returnedText);
    await page.getByLabel('First name', { exact: true }).fill(`${contact.firstName}x`);

    // Act
    await page.getByRole('button', { name: 'Save' }).click();

    // Assert
    await seeToast(page, returnedText, 'alert');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when a brand profile save fails, then the notification shows the text the BFF returned', async () => {
    // Arrange
    const contact = await aRegisteredBrand();
    const { context, page, problems } = await signedInPage(contact, '/settings/brand');
    await fieldHas(page, 'Company', contact.company);
    const returnedText = `Brand profile not saved ${randomUUID()}`;
    await failRequests(page, 'PATCH', '/brand', returnedText);
    await page.getByLabel('Company', { exact: true }).fill(`Renamed ${randomUUID().slice(0, 8)}`);

    // Act
    await page.getByRole('button', { name: 'Save' }).click();

    // Assert
    await seeToast(page, returnedText, 'alert');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test("when a brand user's record arrives without their brand record, then 'Loading' stays until the brand record arrives", async () => {
    // Arrange: every GET /api/me answers the real user record with the brand held back
    const contact = await aRegisteredBrand();
    const context = await suite.browser.newContext();
    const { page, problems } = await openPage(context);
    await logIn(page, suite.product.webUrl, contact.email, contact.password);
    await waitUntilSignedIn(page);
    await page.route('**/api/me', async (route: Route) => {
      if (route.request().method() !== 'GET') return route.fallback();
      const answer = await route.fetch();
      const body = (await answer.json()) as { data: { brand: unknown } };
      return route.fulfill({
        status: answer.status(),
        json: { data: { ...body.data, brand: null } },
      });
    });
    // …and so is the brand snapshot the BFF sends as the socket joins (docs/adr/0007),
    // over socket.io's long-polling or, once upgraded, its WebSocket.
    let holdBrand = true;
    await page.route('**/live/**', async (route: Route) => {
      if (!holdBrand || route.request().method() !== 'GET') return route.fallback();
      const answer = await route.fetch();
      const packets = (await answer.text()).split('\x1e');
      const kept = packets.filter((packet) => !packet.includes('"brand.updated"'));
      // An engine.io poll answer is never empty: a noop packet ('6') stands in.
      return route.fulfill({ response: answer, body: kept.join('\x1e') || '6' });
    });
    await page.routeWebSocket(/\/live\//, (socket) => {
      const server = socket.connectToServer();
      server.onMessage((message) => {
        if (!(holdBrand && String(message).includes('"brand.updated"'))) socket.send(message);
      });
    });

    // Act
    await page.goto(url('/settings/brand'));

    // Assert: the user record alone does not end the loading
    await seeText(page, 'Loading');
    await staysLoadingWithout(page, ['Company']);

    // Act: the brand record arrives (the live brand.updated push of a change made elsewhere)
    const company = `Arrived ${randomUUID().slice(0, 8)}`;
    holdBrand = false;
    await renameBrand(
      suite.product.bffUrl,
      await accessTokenOf(suite.product.bffUrl, contact),
      company,
    );

    // Assert
    await fieldHas(page, 'Company', company);
    assert.equal(await page.getByText('Loading', { exact: true }).count(), 0);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test("when a user signs out and another signs in in the same tab, then none of the first user's records show while the second's load", async () => {
    // Arrange: the first user's records are cached in the tab
    const first = creatorRegistration();
    const second = creatorRegistration();
    await Promise.all([
      registerCreator(suite.product.bffUrl, first),
      registerCreator(suite.product.bffUrl, second),
    ]);
    const { context, page, problems } = await signedInPage(first, '/settings/account');
    await fieldHas(page, 'Username', first.username);
    await openUserMenu(page);
    await seeText(page, first.email);

    // Act: sign out, then sign in as the second user without reloading the page,
    // with the second user's GET /api/me held back
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(url('/'));
    let releaseMe: () => void = () => undefined;
    const meReleased = new Promise<void>((resolve) => {
      releaseMe = resolve;
    });
    await page.route('**/api/me', async (route: Route) => {
      await meReleased;
      await route.fallback();
    });
    await page.getByRole('link', { name: 'Login', exact: true }).click();
    await page.getByLabel('Email', { exact: true }).fill(second.email);
    await page.getByLabel('Password', { exact: true }).fill(second.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await waitUntilSignedIn(page);
    await page.waitForTimeout(STEADY_MS);
    await openUserMenu(page);

    // Assert: nothing of the first user is left in the page (the open menu shows the cached user)
    const html = await page.content();
    assert.ok(!html.includes(first.email), "the first user's e-mail is gone");
    assert.ok(!html.includes(first.username), "the first user's username is gone");

    // Act: the second user's record arrives
    releaseMe();

    // Assert: the record's arrival may redirect (onboarding), which closes the menu: reopen it
    // until the second user's e-mail shows there (bounded).
    const secondEmail = page
      .getByText(second.email, { exact: true })
      .filter({ visible: true })
      .first();
    for (let attempt = 0; attempt < 40 && !(await secondEmail.isVisible()); attempt += 1) {
      await openUserMenu(page);
      await page.waitForTimeout(250);
    }
    await secondEmail.waitFor();
    assert.deepEqual(problems, []);
    await context.close();
  });
});
