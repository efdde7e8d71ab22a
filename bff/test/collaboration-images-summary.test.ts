/**
 * Through the BFF in front of the real services (media included): a
 * submission's image — uploaded by the creator, read by both parties, and
 * by nobody else (another creator, another brand's member, a visitor) — and
 * each side's collaborations summary, counting only the side's own.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'vitest';
import type { CollaborationsSummary } from '@raly/contracts/collaboration-summary';
import type { DeliverableImage } from '@raly/contracts/collaboration-work';
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import { messages } from '@raly/contracts/messages';
import type { BffBody } from '@raly/test-support/bff';
import { eventually } from '@raly/test-support';
import { aMessage, anOpenedCollaboration, sent } from './support/collaborations';
import { offersSuite } from './support/offers-suite';

const suite = offersSuite({ collaborations: true, media: true });
const { api, aBrand, onboardedCreator, seen } = suite;

/** The smallest valid PNG (1×1). */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5b0e1a10000000049454e44ae426082',
  'hex',
);

/** Uploads a submission image through the BFF (multipart, as the web app sends it). */
async function uploadImage(
  collaborationId: string,
  token: string,
  file = { bytes: PNG, name: 'cut.png', mimeType: 'image/png' },
) {
  const form = new FormData();
  form.set('name', file.name);
  form.set('mimeType', file.mimeType);
  form.set('file', new Blob([new Uint8Array(file.bytes)], { type: file.mimeType }), file.name);
  const response = await fetch(`${suite.bff.url}/api/collaborations/${collaborationId}/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const body = (await response.json()) as BffBody<DeliverableImage>;
  seen.push({ what: `upload → ${response.status}`, body });
  return { status: response.status, body };
}

/** Reads a submission image through the BFF as the holder of `token` (none: a visitor). */
const readImage = (collaborationId: string, imageId: string, token?: string) =>
  fetch(`${suite.bff.url}/api/collaborations/${collaborationId}/images/${imageId}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

const summaryOf = (token?: string) =>
  api<CollaborationsSummary>('GET', '/api/collaborations/summary', { token });

/** A collaboration of a new brand and creator, and a creator and a brand who are no party of it. */
async function aCollaborationAndStrangers() {
  const [brand, creator, otherCreator, otherBrand] = await Promise.all([
    aBrand(),
    onboardedCreator(['Gaming']),
    onboardedCreator(['Gaming']),
    aBrand(),
  ]);
  const collaboration = await anOpenedCollaboration(suite, { brand, creator });
  return { brand, creator, otherCreator, otherBrand, collaboration };
}

describe('a submission image', () => {
  test('when the creator uploads an image and hands it in, then both parties read it and nobody else does', async () => {
    // Arrange
    const { brand, creator, otherCreator, otherBrand, collaboration } =
      await aCollaborationAndStrangers();
    const deliverableId = collaboration.deliverables[0]!.id;

    // Act
    const uploaded = await uploadImage(collaboration.id, creator.accessToken);
    assert.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
    const { imageId } = uploaded.body.data;
    const submitted = await api<CollaborationRecord>(
      'POST',
      `/api/collaborations/${collaboration.id}/deliverables/${deliverableId}/submissions`,
      {
        token: creator.accessToken,
        body: { link: `https://video.example/${randomUUID()}`, note: 'With a still.', imageId },
      },
    );
    const byBrand = await readImage(collaboration.id, imageId, brand.accessToken);
    const byCreator = await readImage(collaboration.id, imageId, creator.accessToken);
    const byOtherCreator = await readImage(collaboration.id, imageId, otherCreator.accessToken);
    const byOtherBrand = await readImage(collaboration.id, imageId, otherBrand.accessToken);
    const byVisitor = await readImage(collaboration.id, imageId);

    // Assert
    assert.equal(submitted.status, 201, JSON.stringify(submitted.body));
    assert.equal(submitted.body.data.deliverables[0]!.submissions[0]!.imageId, imageId);
    assert.equal(byBrand.status, 200);
    assert.equal(byBrand.headers.get('content-type'), 'image/png');
    assert.equal(byBrand.headers.get('x-content-type-options'), 'nosniff');
    assert.match(byBrand.headers.get('cache-control') ?? '', /^private/);
    assert.deepEqual(Buffer.from(await byBrand.arrayBuffer()), PNG);
    assert.equal(byCreator.status, 200);
    assert.equal(byOtherCreator.status, 404);
    assert.equal(byOtherBrand.status, 404);
    assert.equal(byVisitor.status, 401);
  });

  test('when a file that is not an image, or a body that is not multipart, is sent, then it is refused with the upload messages', async () => {
    // Arrange
    const { creator, collaboration } = await aCollaborationAndStrangers();

    // Act
    const notAnImage = await uploadImage(collaboration.id, creator.accessToken, {
      bytes: Buffer.from('plain text'),
      name: 'cut.png',
      mimeType: 'image/png',
    });
    const notMultipart = await api('POST', `/api/collaborations/${collaboration.id}/images`, {
      token: creator.accessToken,
      body: { imageId: 'x' },
    });

    // Assert
    assert.equal(notAnImage.status, 400);
    assert.equal(notAnImage.body.error?.message, messages.genericProblem);
    assert.equal(notAnImage.body.error?.fields?.file, 'The file content is not the declared type');
    assert.equal(notMultipart.status, 415);
  });

  test('when another creator or another brand uploads to the collaboration, then it is refused as not found', async () => {
    // Arrange
    const { otherCreator, otherBrand, collaboration } = await aCollaborationAndStrangers();

    // Act
    const byOtherCreator = await uploadImage(collaboration.id, otherCreator.accessToken);
    const byOtherBrand = await uploadImage(collaboration.id, otherBrand.accessToken);

    // Assert
    assert.equal(byOtherCreator.status, 404);
    assert.equal(byOtherCreator.body.error?.message, messages.collaborationNotFound);
    assert.equal(byOtherBrand.status, 404);
  });
});

describe('the collaborations summary', () => {
  test("when the creator hands work in and writes, then the brand's summary counts a submission to review and an unread message, and strangers' stay empty", async () => {
    // Arrange
    const { brand, creator, otherCreator, otherBrand, collaboration } =
      await aCollaborationAndStrangers();

    // Act
    const submitted = await api<CollaborationRecord>(
      'POST',
      `/api/collaborations/${collaboration.id}/deliverables/${collaboration.deliverables[0]!.id}/submissions`,
      {
        token: creator.accessToken,
        body: { link: `https://video.example/${randomUUID()}`, note: '' },
      },
    );
    await sent(suite, creator.accessToken, collaboration.id, aMessage());
    const brandSummary = await eventually('the unread message counted', async () => {
      const answer = await summaryOf(brand.accessToken);
      return answer.body.data?.unreadMessages === 1 ? answer.body.data : undefined;
    });
    const creatorSummary = await summaryOf(creator.accessToken);
    const otherCreatorSummary = await summaryOf(otherCreator.accessToken);
    const otherBrandSummary = await summaryOf(otherBrand.accessToken);
    const visitor = await summaryOf();

    // Assert
    assert.equal(submitted.status, 201, JSON.stringify(submitted.body));
    assert.deepEqual(brandSummary, {
      active: 1,
      waitingForYou: 1,
      paymentDue: 0,
      paymentOverdue: 0,
      completed: 0,
      cancelled: 0,
      unreadMessages: 1,
    });
    assert.equal(creatorSummary.status, 200);
    assert.equal(creatorSummary.body.data.active, 1);
    assert.equal(creatorSummary.body.data.waitingForYou, 0);
    assert.equal(creatorSummary.body.data.unreadMessages, 0);
    assert.equal(otherCreatorSummary.body.data.active, 0);
    assert.equal(otherBrandSummary.body.data.active, 0);
    assert.equal(otherBrandSummary.body.data.unreadMessages, 0);
    assert.equal(visitor.status, 401);
  });

  test('when the brand asks for changes, then the creator waits on one deliverable', async () => {
    // Arrange
    const { brand, creator, collaboration } = await aCollaborationAndStrangers();
    const deliverable = `/api/collaborations/${collaboration.id}/deliverables/${collaboration.deliverables[0]!.id}`;
    await api('POST', `${deliverable}/submissions`, {
      token: creator.accessToken,
      body: { link: `https://video.example/${randomUUID()}` },
    });

    // Act
    const reviewed = await api('POST', `${deliverable}/review`, {
      token: brand.accessToken,
      body: { decision: 'request_changes', comment: 'Shorter, please.' },
    });
    const creatorSummary = await summaryOf(creator.accessToken);
    const brandSummary = await summaryOf(brand.accessToken);

    // Assert
    assert.equal(reviewed.status, 200, JSON.stringify(reviewed.body));
    assert.equal(creatorSummary.body.data.waitingForYou, 1);
    assert.equal(brandSummary.body.data.waitingForYou, 0);
  });
});

describe('privacy', () => {
  test('when every answer of this file is read, then none carries a first name, last name or e-mail', () => {
    suite.assertNothingPrivateSeen(15);
  });
});
