/**
 * The collaborations pages for the screenshots script (screenshots.ts): a
 * brand accepts a creator's application, both write, the creator hands in
 * the first deliverable twice (the brand asking changes between), and the
 * creator's list, page, contact-details notice and cancel dialog, and the
 * brand's page with its review form are captured.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { brandRegistration, dataOf, sleep } from '@raly/test-support';
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import type { ApplicationRecord, OfferRecord } from '@raly/contracts/offers';
import { accessTokenOf, registerBrand } from '../test/e2e/harness/bff-client.ts';
import { signedInPage } from '../test/e2e/harness/pages.ts';
import type { RunningProduct } from '../test/e2e/harness/product.ts';
import { aSignedInCreator, openSignedIn } from '../test/e2e/harness/shell-users.ts';

/** Saves a screenshot of `page` as `<name>-<width>.png` (screenshots.ts). */
export type Shoot = (page: Page, name: string, width: number) => Promise<void>;

export async function shootCollaborations(
  browser: Browser,
  product: RunningProduct,
  width: number,
  viewport: { width: number; height: number },
  shoot: Shoot,
): Promise<void> {
  const call = <T>(method: string, route: string, token: string, body?: unknown) =>
    dataOf<T>(product.bffUrl, method, `/api${route}`, { body, token });
  const brand = brandRegistration();
  await registerBrand(product.bffUrl, brand);
  const brandToken = await accessTokenOf(product.bffUrl, brand);
  const offer = await call<OfferRecord>('POST', '/offers', brandToken, {
    title: 'Unboxing video for our headset',
    brief: 'Unbox our new headset on stream and tell your audience how it sounds.',
    interests: ['Gaming'],
    platforms: ['x'],
    deliverables: 'One unboxing video of 2 to 4 minutes.\nOne post linking to it.',
    compensation: { kind: 'fixed', amountMinor: 80_000, currency: 'USD' },
    creatorsWanted: 2,
    applyBy: new Date(Date.now() + 14 * 86_400_000).toISOString(),
    open: true,
  });
  const creator = await aSignedInCreator(product.bffUrl, { onboarded: true });
  const creatorToken = creator.tokenSet.accessToken;
  const application = await call<ApplicationRecord>(
    'POST',
    `/offers/${offer.id}/applications`,
    creatorToken,
    {
      pitch: 'I test audio gear every week for an audience of twenty thousand players.',
      proposedRate: { amountMinor: 95_000, currency: 'USD' },
    },
  );
  await call('POST', `/applications/${application.id}/accept`, brandToken);
  let collaboration: CollaborationRecord | undefined;
  while (!collaboration) {
    const list = await call<CollaborationRecord[]>('GET', '/collaborations', creatorToken);
    collaboration = list.find((each) => each.applicationId === application.id);
    if (!collaboration) await sleep(250);
  }
  const conversation = `/collaborations/${collaboration.id}`;
  const send = (token: string, body: string, confirmContactDetails?: boolean) =>
    call('POST', `${conversation}/messages`, token, {
      clientId: randomUUID(),
      body,
      ...(confirmContactDetails ? { confirmContactDetails } : {}),
    });
  await send(brandToken, 'Welcome aboard! The headset ships tomorrow.');
  await send(creatorToken, 'Great, thanks! I will stream the unboxing on Friday at 18:00.');
  await send(brandToken, 'Perfect. Ping us here if anything is unclear.');
  const [first] = collaboration.deliverables;
  if (first) {
    const handIn = (link: string, note: string) =>
      call('POST', `${conversation}/deliverables/${first.id}/submissions`, creatorToken, {
        link,
        note,
      });
    await handIn('https://video.example.org/unboxing-draft', 'First cut, 3 minutes.');
    await call('POST', `${conversation}/deliverables/${first.id}/review`, brandToken, {
      decision: 'request_changes',
      comment: 'Please show the microphone test in the first minute.',
    });
    await handIn('https://video.example.org/unboxing-final', 'Microphone test moved up.');
  }

  const creatorContext = await browser.newContext({ viewport });
  const creatorPage = await creatorContext.newPage();
  await openSignedIn(creatorPage, product.webUrl, creator, '/collaborations');
  await creatorPage.getByRole('link', { name: offer.title }).waitFor();
  await shoot(creatorPage, 'collaborations', width);
  await creatorPage.getByRole('link', { name: offer.title }).click();
  await creatorPage
    .getByRole('log', { name: 'Messages' })
    .getByText('Perfect.', { exact: false })
    .waitFor();
  await shoot(creatorPage, 'collaboration', width);
  await creatorPage.getByLabel('Message', { exact: true }).fill('Or call me on +44 20 7946 0958');
  await creatorPage.getByRole('button', { name: 'Send', exact: true }).click();
  await creatorPage.getByRole('button', { name: 'Send anyway' }).waitFor();
  await shoot(creatorPage, 'collaboration-contact-notice', width);
  await creatorPage.getByRole('button', { name: 'Cancel collaboration' }).click();
  await creatorPage
    .getByRole('dialog')
    .getByRole('button', { name: 'Cancel collaboration' })
    .click();
  await creatorPage.getByRole('dialog').getByText('Give a reason for cancelling').waitFor();
  await shoot(creatorPage, 'collaboration-cancel-dialog', width);
  await creatorContext.close();

  const brandSide = await signedInPage(browser, product.webUrl, brand, conversation, {
    viewport,
  });
  await brandSide.page
    .getByRole('log', { name: 'Messages' })
    .getByText('Perfect.', { exact: false })
    .waitFor();
  await shoot(brandSide.page, 'brand-collaboration', width);
  await brandSide.context.close();
}
