import assert from 'node:assert/strict';
import { File as NodeFile } from 'node:buffer';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, test, vi } from 'vitest';
import { IMAGE_MAX_BYTES } from '@raly/contracts/constants';
import { messages } from '@raly/contracts/messages';
import { DeliverablesPanel } from '@/features/collaborations/components/deliverables-panel';
import { aCollaborationRecord, aDeliverable } from '../support/collaboration-records';
import { jsonAnswer, renderInApp } from './render';

const IMAGE_ID = '0b6a3c5e-2f4d-4e7a-9c1b-8d2e3f4a5b6c.png';

/** A call to the BFF: method, path and, for a multipart body, its `name` field; else its JSON. */
interface Call {
  method: string;
  path: string;
  body: unknown;
  fileName?: string;
}

/** Answers every fetch with `answer(call)`, reading multipart and JSON bodies. */
function answerCalls(answer: (call: Call) => Response): Call[] {
  const calls: Call[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const request = input as Request;
    const { pathname } = new URL(request.url);
    const multipart = request.headers.get('content-type')?.startsWith('multipart/form-data');
    let call: Call;
    if (multipart) {
      const form = await request.formData();
      assert.ok(form.get('file'), 'a multipart body without its file');
      const fileName = form.get('name') as string;
      call = { method: request.method, path: pathname, body: undefined, fileName };
    } else {
      const text = await request.text();
      call = { method: request.method, path: pathname, body: text ? JSON.parse(text) : undefined };
    }
    calls.push(call);
    return answer(call);
  });
  return calls;
}

beforeEach(async () => {
  // jsdom has no object URLs; a browser makes one per file or blob.
  URL.createObjectURL = vi.fn(() => `blob:http://localhost/${Math.random()}`);
  URL.revokeObjectURL = vi.fn();
  // fetch's Request is Node's, which reads only Node's own FormData and File (jsdom's are
  // strangers to it): the form and the file the test makes are Node's, as in a browser they are
  // the browser's own.
  const nodeFormData = (
    await new Response('', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }).formData()
  ).constructor as typeof FormData;
  vi.stubGlobal('FormData', nodeFormData);
  vi.stubGlobal('File', NodeFile);
});
afterEach(() => vi.unstubAllGlobals());
afterEach(() => vi.restoreAllMocks());

const png = (name = 'still.png', size = 64) =>
  new File([new Uint8Array(size)], name, { type: 'image/png' });

describe('the hand-in form with an image', () => {
  test('when an image is chosen, then it is previewed, uploaded when the form is sent and handed in by its id', async () => {
    const collaboration = aCollaborationRecord();
    const deliverable = collaboration.deliverables[0]!;
    const calls = answerCalls((call) =>
      call.path.endsWith('/images')
        ? jsonAnswer(201, {
            data: { imageId: IMAGE_ID, contentType: 'image/png', sizeBytes: 64 },
          })
        : jsonAnswer(201, { data: { ...collaboration, version: 2 } }),
    );
    renderInApp(<DeliverablesPanel collaboration={collaboration} side="creator" />);
    const form = within(screen.getByRole('form', { name: `Hand in ${deliverable.title}` }));

    await userEvent.type(form.getByLabelText('Link to the work'), 'https://video.example/cut');
    await userEvent.upload(form.getByLabelText('Image (optional)'), png());
    form.getByRole('img', { name: 'Preview of still.png' });
    assert.equal(calls.length, 0);
    await userEvent.click(form.getByRole('button', { name: 'Hand in' }));

    await waitFor(() => assert.equal(calls.length, 2));
    assert.deepEqual(calls[0], {
      method: 'POST',
      path: `/api/collaborations/${collaboration.id}/images`,
      body: undefined,
      fileName: 'still.png',
    });
    assert.deepEqual(calls[1], {
      method: 'POST',
      path: `/api/collaborations/${collaboration.id}/deliverables/${deliverable.id}/submissions`,
      body: { link: 'https://video.example/cut', note: '', imageId: IMAGE_ID },
    });
  });

  test("when the chosen file is over 5 MB, then 'Image size must be < 5MB' shows and nothing is sent", async () => {
    const calls = answerCalls(() => jsonAnswer(500, {}));
    renderInApp(<DeliverablesPanel collaboration={aCollaborationRecord()} side="creator" />);

    await userEvent.upload(
      screen.getByLabelText('Image (optional)'),
      png('big.png', IMAGE_MAX_BYTES + 1),
    );

    within(screen.getByRole('form')).getByText(messages.imageTooLarge);
    assert.equal(screen.queryByRole('img'), null);
    assert.equal(calls.length, 0);
  });

  test('when media refuses the file, then its message shows under the image and nothing is handed in', async () => {
    const calls = answerCalls(() =>
      jsonAnswer(400, {
        error: {
          code: 'invalid-argument',
          message: messages.genericProblem,
          fields: { file: 'The file content is not the declared type' },
        },
      }),
    );
    renderInApp(<DeliverablesPanel collaboration={aCollaborationRecord()} side="creator" />);

    await userEvent.type(screen.getByLabelText('Link to the work'), 'https://video.example/cut');
    await userEvent.upload(screen.getByLabelText('Image (optional)'), png());
    await userEvent.click(screen.getByRole('button', { name: 'Hand in' }));

    await screen.findByText(messages.genericProblem);
    assert.equal(calls.length, 1);
    assert.match(calls[0]!.path, /\/images$/);
  });

  test('when the chosen image is removed, then the form hands in the link alone', async () => {
    const collaboration = aCollaborationRecord();
    const calls = answerCalls(() => jsonAnswer(201, { data: { ...collaboration, version: 2 } }));
    renderInApp(<DeliverablesPanel collaboration={collaboration} side="creator" />);

    await userEvent.type(screen.getByLabelText('Link to the work'), 'https://video.example/cut');
    await userEvent.upload(screen.getByLabelText('Image (optional)'), png());
    await userEvent.click(screen.getByRole('button', { name: 'Remove image' }));
    await userEvent.click(screen.getByRole('button', { name: 'Hand in' }));

    await waitFor(() => assert.equal(calls.length, 1));
    assert.deepEqual(calls[0]!.body, {
      link: 'https://video.example/cut',
      note: '',
      imageId: null,
    });
  });
});

describe('a handed-in image', () => {
  test('when a submission carries an image, then the brand sees it, read from the collaboration', async () => {
    const collaboration = aCollaborationRecord({
      deliverables: [
        aDeliverable({
          title: 'Launch video',
          status: 'submitted',
          submissions: [
            {
              round: 1,
              link: 'https://video.example/cut',
              note: '',
              imageId: IMAGE_ID,
              submittedAt: '2026-11-20T10:00:00Z',
            },
          ],
        }),
      ],
    });
    const calls = answerCalls(
      () =>
        new Response(new Uint8Array([137, 80, 78, 71]), {
          headers: { 'content-type': 'image/png' },
        }),
    );

    renderInApp(<DeliverablesPanel collaboration={collaboration} side="brand" />);

    const image = await screen.findByRole('img', { name: 'Image handed in with round 1' });
    assert.match(image.getAttribute('src') ?? '', /^blob:/);
    assert.deepEqual(
      calls.map(({ method, path }) => ({ method, path })),
      [{ method: 'GET', path: `/api/collaborations/${collaboration.id}/images/${IMAGE_ID}` }],
    );
  });

  test('when the image cannot be read, then a note says so instead', async () => {
    const collaboration = aCollaborationRecord({
      deliverables: [
        aDeliverable({
          status: 'submitted',
          submissions: [
            {
              round: 1,
              link: 'https://video.example/cut',
              note: '',
              imageId: IMAGE_ID,
              submittedAt: '2026-11-20T10:00:00Z',
            },
          ],
        }),
      ],
    });
    answerCalls(() => jsonAnswer(404, {}));

    renderInApp(<DeliverablesPanel collaboration={collaboration} side="brand" />);

    await screen.findByText('The image of round 1 could not be loaded.');
    assert.equal(screen.queryByRole('img'), null);
  });
});
