/**
 * Accounts and identity in a real browser against the real product (spec
 * §2, §4, §5, §8): forgot-password and the e-mailed reset link (read from
 * the SMTP catcher), /auth/action, creator onboarding, and the account form
 * with the Verify Password dialog and live updates across tabs.
 *
 * Needs the native stack (`npm run stack -- up`).
 */
import { describe, test, beforeAll, afterAll } from 'vitest';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import {
  RESET_REDIRECT_DELAY_MS,
  ONBOARDING_TERMS_DELAY_MS,
  TERMS_BOX_HEIGHT_PX,
} from '@raly/contracts/constants';
import { messages } from '@raly/contracts/messages';
import { launchBrowser } from './harness/browser.ts';
import { startProduct, type RunningProduct } from './harness/product.ts';
import {
  accessTokenOf,
  registerBrand,
  registerCreator,
  userRecordOf,
} from './harness/bff-client.ts';
import {
  brandRegistration,
  creatorRegistration,
  type CreatorRegistration,
} from '@raly/test-support';
import {
  fieldHas,
  logIn,
  openPage,
  seeText,
  seeTitle,
  seeToast,
  signedInPage as signedInPageAt,
  waitUntilSignedIn,
} from './harness/pages.ts';
import { step, waitForMail } from '@raly/test-support';

/** How soon a change made in another tab must show on an open page (ms). */
const LIVE_UPDATE_WINDOW_MS = 2000;

let product: RunningProduct;
let browser: Browser;

const url = (path: string) => `${product.webUrl}${path}`;
const signedInPage = (person: CreatorRegistration, path: string) =>
  signedInPageAt(browser, product.webUrl, person, path);

/** The reset link of the newest reset e-mail to `email`. */
async function resetLinkMailedTo(email: string): Promise<string> {
  const mail = await waitForMail(email, {
    matching: (candidate) => candidate.text.includes('/auth/action?'),
  });
  const link = /https?:\/\/\S+\/auth\/action\?\S+/.exec(mail.text)?.[0];
  assert.ok(link, `no reset link in the mail: ${mail.text}`);
  return link;
}

describe('accounts and identity in the browser', () => {
  beforeAll(async () => {
    product = await startProduct();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  test('when a user forgets their password, then the e-mailed link resets it once and only the new password signs in', async () => {
    const creator = creatorRegistration();
    await registerCreator(product.bffUrl, creator);
    const context = await browser.newContext();
    const { page, problems } = await openPage(context);
    const newPassword = `new-${creator.password}`;
    let link = '';

    await step(
      'when "Forgot Password?" is followed from /login, then /forgot-password opens',
      async () => {
        await page.goto(url('/login'));
        await page.getByRole('link', { name: 'Forgot Password?' }).click();
        await page.waitForURL(url('/forgot-password'));
        await seeTitle(page, 'Forgot Password - Raly');
      },
    );

    await step(
      'when the e-mail is empty or malformed, then the e-mail rules of §5 answer',
      async () => {
        await page.getByRole('button', { name: 'Send reset link' }).click();
        await seeText(page, messages.emailRequired);
        await page.getByLabel('Email', { exact: true }).fill('not-an-email');
        await page.getByRole('button', { name: 'Send reset link' }).click();
        await seeText(page, messages.emailInvalid);
      },
    );

    await step(
      'when no account has the e-mail, then "There is no account associated with this email" shows',
      async () => {
        await page.getByLabel('Email', { exact: true }).fill(creatorRegistration().email);
        await page.getByRole('button', { name: 'Send reset link' }).click();
        await seeText(page, messages.emailUnknown);
      },
    );

    await step(
      'when the account exists, then the link is mailed, the message shows and the field is cleared',
      async () => {
        await page.getByLabel('Email', { exact: true }).fill(creator.email);
        await page.getByRole('button', { name: 'Send reset link' }).click();
        await seeText(page, messages.resetLinkSent);
        assert.equal(await page.getByLabel('Email', { exact: true }).inputValue(), '');
        link = await resetLinkMailedTo(creator.email);
        assert.ok(link.startsWith(url('/auth/action?')), link);
      },
    );

    await step('when Go Back is clicked, then /login opens', async () => {
      await page.getByRole('link', { name: 'Go Back' }).click();
      await page.waitForURL(url('/login'));
    });

    await step(
      'when the link opens, then "Create a new password" shows with the password rules of §5',
      async () => {
        await page.goto(link);
        await page.getByRole('heading', { name: 'Create a new password' }).waitFor();
        await page.getByRole('button', { name: 'Update password' }).click();
        await seeText(page, messages.passwordRequired);
        await seeText(page, messages.passwordConfirmationRequired);
        await page.getByLabel('New password', { exact: true }).fill('short');
        await page.getByLabel('Confirm new password', { exact: true }).fill('other');
        await page.getByRole('button', { name: 'Update password' }).click();
        await seeText(page, messages.passwordTooShort);
        await seeText(page, messages.passwordMismatch);
      },
    );

    await step(
      'when a valid new password is sent, then "Password updated! Redirecting now.." shows and /login opens about 3 s later',
      async () => {
        await page.getByLabel('New password', { exact: true }).fill(newPassword);
        await page.getByLabel('Confirm new password', { exact: true }).fill(newPassword);
        await page.getByRole('button', { name: 'Update password' }).click();
        await seeText(page, messages.passwordUpdated);
        const shownAt = Date.now();
        await page.waitForURL(url('/login'));
        const waited = Date.now() - shownAt;
        assert.ok(
          waited >= RESET_REDIRECT_DELAY_MS - 500 && waited < RESET_REDIRECT_DELAY_MS + 2000,
          `redirected after ${waited} ms`,
        );
      },
    );

    await step('when the old password is used, then "Incorrect login" shows', async () => {
      await logIn(page, product.webUrl, creator.email, creator.password);
      await seeText(page, messages.incorrectLogin);
    });

    await step('when the new password is used, then the user is signed in', async () => {
      await logIn(page, product.webUrl, creator.email, newPassword);
      await waitUntilSignedIn(page);
    });

    await step(
      'when the same link is used again, then "There was a problem with your request." shows',
      async () => {
        const other = await browser.newContext();
        const second = await openPage(other);
        await second.page.goto(link);
        await second.page.getByLabel('New password', { exact: true }).fill(`again-${newPassword}`);
        await second.page
          .getByLabel('Confirm new password', { exact: true })
          .fill(`again-${newPassword}`);
        await second.page.getByRole('button', { name: 'Update password' }).click();
        await seeText(second.page, messages.requestProblem);
        assert.equal(second.page.url(), link);
        await other.close();
      },
    );

    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when /auth/action lacks apiKey, mode or oobCode, then the visitor is sent home; another mode shows nothing', async () => {
    const context = await browser.newContext();
    const { page } = await openPage(context);
    const full = { apiKey: 'key', mode: 'resetPassword', oobCode: 'code' };

    for (const missing of Object.keys(full)) {
      const query = new URLSearchParams(Object.entries(full).filter(([name]) => name !== missing));
      await page.goto(url(`/auth/action?${query}`));
      await page.waitForURL(url('/'));
    }
    await page.goto(url('/auth/action?apiKey=key&mode=verifyEmail&oobCode=code'));
    await seeTitle(page, 'Create a new password - Raly');
    assert.equal(await page.getByRole('heading', { name: 'Create a new password' }).count(), 0);
    assert.equal(await page.getByLabel('New password').count(), 0);
    assert.equal(page.url(), url('/auth/action?apiKey=key&mode=verifyEmail&oobCode=code'));
    await context.close();
  });

  test('when a new creator goes through onboarding, then each step shows in order with Next/Done and ends on the dashboard', async () => {
    const creator = creatorRegistration();
    await registerCreator(product.bffUrl, creator);
    const { context, page, problems } = await signedInPage(creator, '/onboarding');

    await step(
      'when onboarding opens, then the terms step shows a 170 px scrollable terms box and Next',
      async () => {
        const terms = page.getByRole('region', { name: 'Terms of service' });
        await terms.waitFor();
        const box = await terms.evaluate((element) => ({
          height: element.getBoundingClientRect().height,
          scrolls: element.scrollHeight > element.clientHeight,
        }));
        assert.deepEqual(box, { height: TERMS_BOX_HEIGHT_PX, scrolls: true });
        await page.getByRole('button', { name: 'Next' }).waitFor();
      },
    );

    await step(
      'when Next is clicked without agreeing, then "You must agree to the terms above" shows',
      async () => {
        await page.getByRole('button', { name: 'Next' }).click();
        await seeText(page, messages.agreeTermsOnboarding);
      },
    );

    await step(
      'when the terms are accepted, then the step is marked after about 0.5 s and interests show',
      async () => {
        await page.getByLabel('I agree to the terms above').check();
        const clickedAt = Date.now();
        await page.getByRole('button', { name: 'Next' }).click();
        await page.getByRole('group', { name: 'Interests' }).waitFor();
        assert.ok(
          Date.now() - clickedAt >= ONBOARDING_TERMS_DELAY_MS - 50,
          `marked after ${Date.now() - clickedAt} ms`,
        );
      },
    );

    await step(
      'when Next is clicked with no interest, then "You must select at least one interest" shows',
      async () => {
        await page.getByRole('button', { name: 'Next' }).click();
        await seeText(page, messages.interestsRequired);
      },
    );

    await step(
      'when interests are picked, then they are saved and the connects placeholder shows with Next',
      async () => {
        await page.getByLabel('Gaming', { exact: true }).check();
        await page.getByLabel('Crypto', { exact: true }).check();
        await page.getByRole('button', { name: 'Next' }).click();
        await page.getByRole('heading', { name: 'Connect your socials' }).waitFor();
        await page.getByRole('button', { name: 'Next' }).waitFor();
      },
    );

    await step(
      'when marking a step fails, then "Hmm, there was a problem. Try again." shows in a toast',
      async () => {
        await page.route('**/api/me/onboarding', (route) =>
          route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: '{"error":{"code":"internal","message":"down"}}',
          }),
        );
        await page.getByRole('button', { name: 'Next' }).click();
        await seeToast(page, messages.genericProblem, 'alert');
        await page.unroute('**/api/me/onboarding');
      },
    );

    await step(
      'when connects is done, then the wallet step, the last one, reads Done',
      async () => {
        await page.getByRole('button', { name: 'Next' }).click();
        await page.getByRole('heading', { name: 'Create your wallet' }).waitFor();
        await page.getByRole('button', { name: 'Done' }).waitFor();
      },
    );

    await step('when Done is clicked, then the dashboard opens and every flag is set', async () => {
      await page.getByRole('button', { name: 'Done' }).click();
      await page.waitForURL(url('/dashboard'));
      const record = await userRecordOf(
        product.bffUrl,
        await accessTokenOf(product.bffUrl, creator),
      );
      assert.deepEqual(record.onboarding, {
        terms: true,
        interests: true,
        connects: true,
        wallet: true,
      });
      assert.deepEqual([...record.interests].sort(), ['Crypto', 'Gaming']);
    });

    await step('when an onboarded user opens /onboarding, then the dashboard opens', async () => {
      await page.goto(url('/onboarding'));
      await page.waitForURL(url('/dashboard'));
    });

    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when a creator edits the account, then the rules, the Verify Password dialog and the new e-mail work', async () => {
    const creator = creatorRegistration();
    const existing = creatorRegistration();
    await Promise.all([
      registerCreator(product.bffUrl, creator),
      registerCreator(product.bffUrl, existing),
    ]);
    const { context, page, problems } = await signedInPage(creator, '/settings/account');
    const save = () => page.getByRole('button', { name: 'Save' }).click();
    const dialog = page.getByRole('dialog', { name: 'Verify Password' });
    const newEmail = creatorRegistration().email;

    await step(
      'when the page opens, then Settings shows the creator fields and no Brand Profile link',
      async () => {
        await page.getByRole('heading', { name: 'Settings' }).waitFor();
        await fieldHas(page, 'Username', creator.username);
        await page.getByRole('group', { name: 'Interests' }).waitFor();
        await page.getByLabel('Offers', { exact: true }).waitFor();
        await page.getByLabel('Marketing', { exact: true }).waitFor();
        assert.equal(await page.getByRole('link', { name: 'Brand Profile' }).count(), 0);
      },
    );

    await step(
      'when saved with no interest, then "You must select at least one interest" shows',
      async () => {
        await save();
        await seeText(page, messages.interestsRequired);
      },
    );

    await step(
      'when a taken username is saved, then "Username is already taken" shows',
      async () => {
        await page.getByLabel('AI', { exact: true }).check();
        await page.getByLabel('Username', { exact: true }).fill(existing.username);
        await save();
        await seeText(page, messages.usernameTaken);
        await page.getByLabel('Username', { exact: true }).fill(creator.username);
      },
    );

    await step(
      'when interests, phone and notifications are saved, then "Profile updated!" shows and the record has them',
      async () => {
        await page.getByLabel('Phone number', { exact: true }).fill('+1 555 0100');
        await page.getByLabel('Offers', { exact: true }).uncheck();
        await save();
        await seeToast(page, messages.profileUpdated);
        const record = await userRecordOf(
          product.bffUrl,
          await accessTokenOf(product.bffUrl, creator),
        );
        assert.deepEqual(
          {
            interests: record.interests,
            phoneNumber: record.phoneNumber,
            notifications: record.notifications,
          },
          {
            interests: ['AI'],
            phoneNumber: '+1 555 0100',
            notifications: { offers: false, marketing: true },
          },
        );
      },
    );

    await step(
      'when the e-mail changes, then "Verify Password" opens and an empty password says "Please enter a password."',
      async () => {
        await page.getByLabel('Email', { exact: true }).fill(newEmail);
        await save();
        await dialog.waitFor();
        await dialog.getByRole('button', { name: 'Verify' }).click();
        await seeText(page, messages.verifyPasswordRequired);
      },
    );

    await step('when the password is wrong, then "Incorrect password" shows', async () => {
      await dialog.getByLabel('Password', { exact: true }).fill(`${creator.password}-wrong`);
      await dialog.getByRole('button', { name: 'Verify' }).click();
      await seeText(page, messages.incorrectPassword);
    });

    await step('when Cancel is clicked, then the dialog closes and nothing changed', async () => {
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const record = await userRecordOf(
        product.bffUrl,
        await accessTokenOf(product.bffUrl, creator),
      );
      assert.equal(record.email, creator.email);
    });

    await step(
      'when the right password is given, then the e-mail changes and "Profile updated!" shows',
      async () => {
        await save();
        await dialog.waitFor();
        await dialog.getByLabel('Password', { exact: true }).fill(creator.password);
        await dialog.getByRole('button', { name: 'Verify' }).click();
        await seeToast(page, messages.profileUpdated);
        await dialog.waitFor({ state: 'hidden' });
        await fieldHas(page, 'Email', newEmail);
      },
    );

    await step('when signing in with the new e-mail, then it works', async () => {
      const fresh = await browser.newContext();
      const other = await openPage(fresh);
      await logIn(other.page, product.webUrl, newEmail, creator.password);
      await waitUntilSignedIn(other.page);
      await fresh.close();
    });

    assert.deepEqual(problems, []);
    await context.close();
  });

  test('when the account changes in a second tab, then the first tab shows it live without reload', async () => {
    const creator = creatorRegistration();
    await registerCreator(product.bffUrl, creator);
    const { context, page: first, problems } = await signedInPage(creator, '/settings/account');
    await fieldHas(first, 'Username', creator.username);
    const second = await openPage(context);
    await second.page.goto(url('/settings/account'));
    await fieldHas(second.page, 'Username', creator.username);
    const renamed = creatorRegistration().username;

    await second.page.getByLabel('Username', { exact: true }).fill(renamed);
    await second.page.getByLabel('Phone number', { exact: true }).fill('+44 20 7946 0000');
    await second.page.getByLabel('Sports', { exact: true }).check();
    await second.page.getByRole('button', { name: 'Save' }).click();
    await seeToast(second.page, messages.profileUpdated);

    await fieldHas(first, 'Username', renamed, LIVE_UPDATE_WINDOW_MS);
    await fieldHas(first, 'Phone number', '+44 20 7946 0000', LIVE_UPDATE_WINDOW_MS);
    assert.equal(await first.getByLabel('Sports', { exact: true }).isChecked(), true);
    assert.deepEqual([...problems, ...second.problems], []);
    await context.close();
  });

  test('when a brand user edits the account, then there is no username, interests or offers, and names are required', async () => {
    const contact = brandRegistration({ firstName: 'Grace', lastName: 'Hopper' });
    await registerBrand(product.bffUrl, contact);
    const { context, page, problems } = await signedInPage(contact, '/settings/account');

    await fieldHas(page, 'First name', contact.firstName);
    await page.getByRole('link', { name: 'Brand Profile' }).waitFor();
    assert.equal(await page.getByLabel('Username').count(), 0);
    assert.equal(await page.getByRole('group', { name: 'Interests' }).count(), 0);
    assert.equal(await page.getByLabel('Offers', { exact: true }).count(), 0);

    await page.getByLabel('First name', { exact: true }).fill('');
    await page.getByLabel('Last name', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await seeText(page, messages.firstNameRequired);
    await seeText(page, messages.lastNameRequired);

    await page.getByLabel('First name', { exact: true }).fill('Ada');
    await page.getByLabel('Last name', { exact: true }).fill('Lovelace');
    await page.getByLabel('Marketing', { exact: true }).uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await seeToast(page, messages.profileUpdated);
    const record = await userRecordOf(product.bffUrl, await accessTokenOf(product.bffUrl, contact));
    assert.deepEqual(
      {
        firstName: record.firstName,
        lastName: record.lastName,
        marketing: record.notifications.marketing,
      },
      { firstName: 'Ada', lastName: 'Lovelace', marketing: false },
    );
    assert.deepEqual(problems, []);
    await context.close();
  });
});
