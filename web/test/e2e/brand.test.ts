/**
 * Brands and images in a real browser against the real product (spec §2,
 * §3, §5, §6, §8, §9): joining as a brand, the brand profile form at
 * /settings/brand with its rules, and the profile and cover image pickers,
 * whose uploads show live in every open tab and in the header avatar (the
 * record's push, no reload).
 *
 * Needs the native stack (`npm run stack -- up`).
 */
import { describe, test } from 'vitest';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { IMAGE_MAX_BYTES } from '@raly/contracts/constants';
import { messages } from '@raly/contracts/messages';
import { browserSuite } from './harness/suite.ts';
import { registerBrand, registerCreator } from './harness/bff-client.ts';
import {
  brandRegistration,
  creatorRegistration,
  type BrandRegistration,
  type CreatorRegistration,
} from '@raly/test-support';
import {
  fieldHas,
  openPage,
  seeText,
  seeTitle,
  seeToast,
  signedInPage as signedInPageAt,
  STEP_TIMEOUT_MS,
} from './harness/pages.ts';

/** How soon a change made in one tab must show in another (ms): upload → S3 → Kafka → service → BFF → socket. */
const LIVE_UPDATE_WINDOW_MS = 5000;

/** How soon the backend's default picture of a new brand must show (ms): brand created → media → brand → BFF. */
const DEFAULT_PICTURE_WINDOW_MS = 30_000;

/** A 1×1 PNG: real PNG bytes, which media checks against the declared type. */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

// The product and Chromium, started once for this file (hooks at the file's top level).
const suite = browserSuite();
const { url } = suite;

/** A browser context signed in as `person` (through the login form), on `path`. */
const signedInPage = (person: CreatorRegistration, path: string) =>
  signedInPageAt(suite.browser, suite.product.webUrl, person, path);

/** A second tab of the same browser (same session, same origin storage) on `path`. */
async function secondTab(context: BrowserContext, path: string) {
  const opened = await openPage(context);
  await opened.page.goto(url(path));
  return opened;
}

/** The download URL of an image stored at `<ownerType>/<kind>-img/<id>.<extension>` (spec §7). */
const stored = (ownerType: 'user' | 'brand', kind: 'profile' | 'cover', extension: string) =>
  `/files/${ownerType}/${kind}-img/[^/?]+\\.${extension}\\?v=`;

/** Waits until an image matching `selector` has loaded a picture from a URL matching the pattern `source`. */
const imageShows = (page: Page, selector: string, source: string, timeout = STEP_TIMEOUT_MS) =>
  page.waitForFunction(
    ({ selector, source }) =>
      [...document.querySelectorAll<HTMLImageElement>(selector)].some(
        (image) => new RegExp(source).test(image.src) && image.complete && image.naturalWidth > 0,
      ),
    { selector, source },
    { timeout },
  );

const profileImage = 'img[alt="Profile image"]';
const coverImage = 'img[alt="Cover image"]';
/** The header's avatar, in the user menu button. */
const headerAvatar = 'button[aria-label="Open user menu"] img';

/** Chooses a file (by default a 1×1 PNG) with the picker button labelled `buttonName`. */
async function chooseImage(
  page: Page,
  buttonName: string,
  {
    name,
    mimeType = 'image/png',
    buffer = PNG_1X1,
  }: { name: string; mimeType?: string; buffer?: Buffer },
) {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: buttonName }).click(),
  ]);
  await chooser.setFiles({ name, mimeType, buffer });
}

/** Marks the page so that a reload (which would clear the mark) can be detected. */
async function markPage(page: Page): Promise<string> {
  const mark = randomUUID();
  await page.evaluate(
    (value) => ((window as unknown as { ralyTestMark: string }).ralyTestMark = value),
    mark,
  );
  return mark;
}
const markOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { ralyTestMark?: string }).ralyTestMark);

/** Records the requests of `page` whose path starts with `prefix`. */
function recordRequests(page: Page, prefix: string): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith(prefix))
      seen.push(`${request.method()} ${request.url()}`);
  });
  return seen;
}

async function aRegisteredBrand(): Promise<BrandRegistration> {
  const contact = brandRegistration();
  await registerBrand(suite.product.bffUrl, contact);
  return contact;
}

describe('brands and images in the browser', () => {
  test('when a visitor joins at /join/brand, then they are signed in on the brand onboarding, the account page has names and no username, and Brand Profile is in the menu', async () => {
    const contact = brandRegistration();
    const context = await suite.browser.newContext();
    const { page, problems } = await openPage(context);
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

    // Registration goes to the dashboard, which sends a user who is not onboarded to onboarding.
    await page.waitForURL(url('/onboarding'));
    await page.getByRole('region', { name: 'Terms of service' }).waitFor();

    await page.goto(url('/settings/account'));
    await fieldHas(page, 'First name', contact.firstName);
    await fieldHas(page, 'Last name', contact.lastName);
    assert.equal(await page.getByLabel('Username', { exact: true }).count(), 0);
    await page.getByRole('link', { name: 'Brand Profile' }).click();

    await page.waitForURL(url('/settings/brand'));
    await seeTitle(page, 'Brand Profile - Raly');
    await fieldHas(page, 'Username', contact.username);
    await fieldHas(page, 'Company', contact.company);
    await fieldHas(page, 'Website', contact.website);
    await seeText(page, '/brand/');
    // The backend's default picture: the company's initials, stored at the brand's profile key.
    await imageShows(
      page,
      profileImage,
      stored('brand', 'profile', 'svg'),
      DEFAULT_PICTURE_WINDOW_MS,
    );
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when a brand saves its profile and uploads a cover image in one tab, then a second tab shows both live without reload', async () => {
    const contact = await aRegisteredBrand();
    const { context, page: first, problems } = await signedInPage(contact, '/settings/brand');
    await fieldHas(first, 'Company', contact.company);
    const second = await secondTab(context, '/settings/brand');
    await fieldHas(second.page, 'Company', contact.company);
    const mark = await markPage(second.page);
    const company = `Renamed ${randomUUID().slice(0, 8)}`;
    const bio = `We make widgets for creators, ${randomUUID()}.`;
    const x = `https://x.com/${randomUUID().slice(0, 8)}`;

    await first.getByLabel('Company', { exact: true }).fill(company);
    await first.getByLabel('Bio', { exact: true }).fill(bio);
    await first.getByLabel('X', { exact: true }).fill(x);
    await first.getByRole('button', { name: 'Save' }).click();
    await seeToast(first, messages.brandProfileUpdated);

    await fieldHas(second.page, 'Company', company, LIVE_UPDATE_WINDOW_MS);
    await fieldHas(second.page, 'Bio', bio, LIVE_UPDATE_WINDOW_MS);
    await fieldHas(second.page, 'X', x, LIVE_UPDATE_WINDOW_MS);
    await seeText(second.page, `${bio.length}/280`);

    await chooseImage(first, 'Change cover image', { name: 'cover.png' });
    await seeToast(first, messages.coverImageUpdated);

    await imageShows(first, coverImage, stored('brand', 'cover', 'png'), LIVE_UPDATE_WINDOW_MS);
    await imageShows(
      second.page,
      coverImage,
      stored('brand', 'cover', 'png'),
      LIVE_UPDATE_WINDOW_MS,
    );
    assert.equal(await markOf(second.page), mark, 'the second tab was reloaded');
    assert.deepEqual([...problems, ...second.problems], []);
    await context.close();
  });

  test('when the brand profile form breaks the rules, then the spec messages show and nothing is sent', async () => {
    const contact = await aRegisteredBrand();
    const { context, page, problems } = await signedInPage(contact, '/settings/brand');
    await fieldHas(page, 'Company', contact.company);
    const saves = recordRequests(page, '/api/brand');

    await page.getByLabel('Company', { exact: true }).fill('');
    await page.getByLabel('Website', { exact: true }).fill('not a url');
    await page.getByLabel('Bio', { exact: true }).fill('Too short a bio.');
    await page.getByLabel('X', { exact: true }).fill('x.com/no-scheme');
    await page.getByLabel('Discord', { exact: true }).fill('ftp://discord.gg/abc');
    await page.getByRole('button', { name: 'Save' }).click();

    await seeText(page, messages.companyRequired);
    await seeText(page, messages.urlHttpOrHttps);
    await seeText(page, messages.bioTooShort);
    assert.equal(await page.getByText(messages.urlHttps, { exact: true }).count(), 2);
    await seeText(page, '16/280');

    await page.getByLabel('Bio', { exact: true }).fill('b'.repeat(281));
    await page.getByRole('button', { name: 'Save' }).click();
    await seeText(page, messages.bioTooLong);
    await seeText(page, '281/280');

    await page.getByLabel('Username', { exact: true }).fill('ab');
    await page.getByRole('button', { name: 'Save' }).click();
    await seeText(page, messages.usernameTooShort);
    assert.deepEqual(saves, []);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when a brand takes a username that is already taken, then "Username is already taken" shows; an unchanged one is not checked', async () => {
    const creator = creatorRegistration();
    await registerCreator(suite.product.bffUrl, creator);
    const contact = await aRegisteredBrand();
    const { context, page, problems } = await signedInPage(contact, '/settings/brand');
    await fieldHas(page, 'Company', contact.company);
    const checks = recordRequests(page, '/api/callable/checkUsernameExists');

    await page
      .getByLabel('Bio', { exact: true })
      .fill(`A bio that is long enough to be kept, ${randomUUID()}`);
    await page.getByRole('button', { name: 'Save' }).click();
    await seeToast(page, messages.brandProfileUpdated);
    assert.deepEqual(checks, [], 'an unchanged username was checked');

    await page.getByLabel('Username', { exact: true }).fill(creator.username);
    await page.getByRole('button', { name: 'Save' }).click();
    await seeText(page, messages.usernameTaken);
    assert.equal(checks.length, 1);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when a creator opens /settings/brand, then they land on /settings/account without a Brand Profile link', async () => {
    const creator = creatorRegistration();
    await registerCreator(suite.product.bffUrl, creator);
    const { context, page, problems } = await signedInPage(creator, '/settings/brand');

    await page.waitForURL(url('/settings/account'));
    await fieldHas(page, 'Username', creator.username);
    await seeText(page, '/user/');
    assert.equal(await page.getByRole('link', { name: 'Brand Profile' }).count(), 0);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when an image over 5 MB is chosen, then "Image size must be < 5MB" shows and nothing is uploaded', async () => {
    const creator = creatorRegistration();
    await registerCreator(suite.product.bffUrl, creator);
    const { context, page, problems } = await signedInPage(creator, '/settings/account');
    await fieldHas(page, 'Username', creator.username);
    const uploads = recordRequests(page, '/api/images');
    const oversize = Buffer.concat([PNG_1X1, Buffer.alloc(IMAGE_MAX_BYTES + 1 - PNG_1X1.length)]);

    await chooseImage(page, 'Change profile image', {
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: oversize,
    });

    await seeToast(page, messages.imageTooLarge, 'alert');
    assert.deepEqual(uploads, []);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when a creator uploads a profile image, then the page and the header avatar of every open tab show it without reload', async () => {
    const creator = creatorRegistration();
    await registerCreator(suite.product.bffUrl, creator);
    const { context, page: first, problems } = await signedInPage(creator, '/settings/account');
    await fieldHas(first, 'Username', creator.username);
    const second = await secondTab(context, '/');
    await second.page.getByRole('button', { name: 'Open user menu' }).waitFor();
    const mark = await markPage(second.page);

    await chooseImage(first, 'Change profile image', { name: 'me.png' });
    await seeToast(first, messages.profileImageUpdated);

    await imageShows(first, profileImage, stored('user', 'profile', 'png'), LIVE_UPDATE_WINDOW_MS);
    await imageShows(first, headerAvatar, stored('user', 'profile', 'png'), LIVE_UPDATE_WINDOW_MS);
    await imageShows(
      second.page,
      headerAvatar,
      stored('user', 'profile', 'png'),
      LIVE_UPDATE_WINDOW_MS,
    );
    assert.equal(await markOf(second.page), mark, 'the second tab was reloaded');
    assert.deepEqual([...problems, ...second.problems], []);
    await context.close();
  });

  test('when a brand uploads its profile image on the brand page, then "Profile image updated!" shows and the brand picture changes', async () => {
    const contact = await aRegisteredBrand();
    const { context, page, problems } = await signedInPage(contact, '/settings/brand');
    await fieldHas(page, 'Company', contact.company);

    await chooseImage(page, 'Change profile image', { name: 'logo.png' });
    await seeToast(page, messages.profileImageUpdated);

    await imageShows(page, profileImage, stored('brand', 'profile', 'png'), LIVE_UPDATE_WINDOW_MS);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
