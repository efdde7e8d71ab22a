/**
 * A submission's optional image: the creator uploads it through media (the
 * same checks and messages as every image upload), hands it in with the
 * link and note, and only the collaboration's parties can read it — never
 * another creator, another brand's member, a visitor, nor `GET /files/*`.
 */
import assert from 'node:assert/strict';
import { beforeAll, describe, test } from 'vitest';
import {
  DELIVERABLE_IMAGE_ID_PATTERN,
  deliverableImageKey,
  type DeliverableImage,
} from '@raly/contracts/collaboration-work';
import { IMAGE_MAX_BYTES } from '@raly/contracts/constants';
import { messages } from '@raly/contracts/messages';
import type { RalySystem } from '@raly/test-support/system';
import { useCollaborationsSystem } from './support';
import {
  accepted,
  aSubmission,
  assertRefused,
  freshCollaboration,
  registeredWorkUsers,
  workAs,
  type WorkUsers,
} from './work-support';

/** The smallest valid PNG (1×1). */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5b0e1a10000000049454e44ae426082',
  'hex',
);

const harness = useCollaborationsSystem({ media: true });
let system: RalySystem;
let users: WorkUsers;

beforeAll(async () => {
  system = harness.system;
  users = await registeredWorkUsers(system);
});

interface MediaAnswer {
  status: number;
  body: {
    data?: DeliverableImage;
    error?: { message: string; fields?: Record<string, string> };
  };
}

const imagesPath = (collaborationId: string) =>
  `/collaborations/${collaborationId}/deliverable-images`;

/** Uploads a file to media as the holder of `token` (multipart, as the web app sends it). */
async function uploadImage(
  collaborationId: string,
  token: string | undefined,
  file: { bytes: Buffer; name: string; mimeType: string } = {
    bytes: PNG,
    name: 'cut.png',
    mimeType: 'image/png',
  },
): Promise<MediaAnswer> {
  const form = new FormData();
  form.set('name', file.name);
  form.set('mimeType', file.mimeType);
  form.set('file', new Blob([new Uint8Array(file.bytes)], { type: file.mimeType }), file.name);
  const response = await fetch(`${system.mediaUrl}${imagesPath(collaborationId)}`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  return { status: response.status, body: (await response.json()) as MediaAnswer['body'] };
}

/** Reads a submission image from media as the holder of `token` (none: a visitor). */
const readImage = (collaborationId: string, imageId: string, token?: string) =>
  fetch(`${system.mediaUrl}${imagesPath(collaborationId)}/${imageId}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

describe('a submission with an image', () => {
  test('when the creator uploads an image and hands it in, then the submission carries its id and both parties read the bytes', async () => {
    // Arrange
    const collaboration = await freshCollaboration(system, users);
    const [deliverable] = collaboration.deliverables;

    // Act
    const uploaded = await uploadImage(collaboration.id, users.creator.accessToken);
    assert.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
    const { imageId } = uploaded.body.data!;
    const beforeSubmitting = await readImage(collaboration.id, imageId, users.brand.accessToken);
    const submitted = accepted(
      await workAs(system, users.creator.accessToken).submit(collaboration.id, deliverable!.id, {
        ...aSubmission(),
        imageId,
      }),
      201,
    );
    const byBrand = await readImage(collaboration.id, imageId, users.brand.accessToken);
    const byCreator = await readImage(collaboration.id, imageId, users.creator.accessToken);

    // Assert
    assert.match(imageId, DELIVERABLE_IMAGE_ID_PATTERN);
    assert.equal(uploaded.body.data!.contentType, 'image/png');
    assert.equal(beforeSubmitting.status, 404);
    assert.equal(submitted.deliverables[0]!.submissions[0]!.imageId, imageId);
    assert.equal(byBrand.status, 200);
    assert.equal(byBrand.headers.get('content-type'), 'image/png');
    assert.match(byBrand.headers.get('cache-control') ?? '', /^private/);
    assert.deepEqual(Buffer.from(await byBrand.arrayBuffer()), PNG);
    assert.equal(byCreator.status, 200);
  });

  test('when anyone but the parties asks for the image, then it is not found, also at the public files route', async () => {
    // Arrange
    const collaboration = await freshCollaboration(system, users);
    const { imageId } = (await uploadImage(collaboration.id, users.creator.accessToken)).body.data!;
    accepted(
      await workAs(system, users.creator.accessToken).submit(
        collaboration.id,
        collaboration.deliverables[0]!.id,
        { ...aSubmission(), imageId },
      ),
      201,
    );

    // Act
    const byOtherCreator = await readImage(
      collaboration.id,
      imageId,
      users.otherCreator.accessToken,
    );
    const byOtherBrand = await readImage(collaboration.id, imageId, users.otherBrand.accessToken);
    const byVisitor = await readImage(collaboration.id, imageId);
    const publicFile = await fetch(
      `${system.mediaUrl}/files/${deliverableImageKey(collaboration.id, imageId)}`,
    );
    const listed = await workAs(system, users.otherCreator.accessToken).submit(
      collaboration.id,
      collaboration.deliverables[0]!.id,
    );

    // Assert
    assert.equal(byOtherCreator.status, 404);
    assert.equal(byOtherBrand.status, 404);
    assert.equal(byVisitor.status, 401);
    assert.equal(publicFile.status, 404);
    assertRefused(listed, 404, messages.collaborationNotFound);
  });

  test('when the image is handed in with another collaboration, then its parties cannot read it there', async () => {
    // Arrange
    const first = await freshCollaboration(system, users);
    const second = await freshCollaboration(system, users);
    const { imageId } = (await uploadImage(first.id, users.creator.accessToken)).body.data!;

    // Act
    accepted(
      await workAs(system, users.creator.accessToken).submit(
        second.id,
        second.deliverables[0]!.id,
        { ...aSubmission(), imageId },
      ),
      201,
    );
    const read = await readImage(second.id, imageId, users.brand.accessToken);

    // Assert: the bytes live under the first collaboration only.
    assert.equal(read.status, 404);
  });
});

describe('refused images', () => {
  test("when the file is not an image, then media refuses it with the upload's message", async () => {
    // Arrange
    const collaboration = await freshCollaboration(system, users);

    // Act
    const answer = await uploadImage(collaboration.id, users.creator.accessToken, {
      bytes: Buffer.from('just some text, not a picture'),
      name: 'notes.png',
      mimeType: 'image/png',
    });

    // Assert
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error?.message, messages.genericProblem);
    assert.equal(answer.body.error?.fields?.file, 'The file content is not the declared type');
  });

  test("when the file is over 5 MB, then media answers 413 'Image size must be < 5MB'", async () => {
    // Arrange
    const collaboration = await freshCollaboration(system, users);

    // Act
    const answer = await uploadImage(collaboration.id, users.creator.accessToken, {
      bytes: Buffer.concat([PNG, Buffer.alloc(IMAGE_MAX_BYTES, 0)]),
      name: 'big.png',
      mimeType: 'image/png',
    });

    // Assert
    assert.equal(answer.status, 413);
    assert.equal(answer.body.error?.message, messages.imageTooLarge);
  });

  test('when the brand or a stranger uploads for the collaboration, then it is refused before the body is read', async () => {
    // Arrange
    const collaboration = await freshCollaboration(system, users);

    // Act
    const byBrand = await uploadImage(collaboration.id, users.brand.accessToken);
    const byStranger = await uploadImage(collaboration.id, users.otherCreator.accessToken);

    // Assert
    assert.equal(byBrand.status, 403);
    assert.equal(byBrand.body.error?.message, messages.onlyTheCreatorCan);
    assert.equal(byStranger.status, 404);
    assert.equal(byStranger.body.error?.message, messages.collaborationNotFound);
  });

  test('when a submission names a malformed image id, then it is refused as a bad request', async () => {
    // Arrange
    const collaboration = await freshCollaboration(system, users);

    // Act
    const answer = await workAs(system, users.creator.accessToken).submit(
      collaboration.id,
      collaboration.deliverables[0]!.id,
      { ...aSubmission(), imageId: '../../user/profile-img/someone.png' },
    );

    // Assert
    assertRefused(answer, 400, messages.requestProblem, 'imageId');
  });
});
