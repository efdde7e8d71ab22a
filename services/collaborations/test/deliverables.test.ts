/**
 * The deliverables of a collaboration: the brand splits the work before
 * anything is handed in, the creator hands each in with a link and a note,
 * the brand approves or asks for changes in at most three rounds, then may
 * only approve or open a dispute. Every refusal with its status and message.
 */
import assert from 'node:assert/strict';
import { beforeAll, describe, test } from 'vitest';
import { REVIEW_WINDOW_HOURS_DEFAULT } from '@raly/contracts/collaboration-work';
import { messages } from '@raly/contracts/messages';
import type { RalySystem } from '@raly/test-support/system';
import { useCollaborationsSystem } from './support';
import {
  accepted,
  approve,
  aSubmission,
  assertRefused,
  dispute,
  freshCollaboration,
  registeredWorkUsers,
  requestChanges,
  workAs,
  type WorkUsers,
} from './work-support';

const harness = useCollaborationsSystem();
let system: RalySystem;
let users: WorkUsers;
const brandWork = () => workAs(system, users.brand.accessToken);
const creatorWork = () => workAs(system, users.creator.accessToken);

beforeAll(async () => {
  system = harness.system;
  users = await registeredWorkUsers(system);
});

describe('splitting the work', () => {
  test('when the brand sets the deliverables before any submission, then they replace the list with new ids', async () => {
    // Arrange
    const collaboration = await freshCollaboration(system, users);
    const dueAt = '2031-05-01T12:00:00+02:00';

    // Act
    const changed = accepted(
      await brandWork().setDeliverables(collaboration.id, {
        items: [{ title: '  Teaser video  ', dueAt }, { title: 'Launch post' }],
      }),
    );

    // Assert
    assert.deepEqual(
      changed.deliverables.map(({ title, dueAt: due, status, submissions }) => ({
        title,
        dueAt: due,
        status,
        submissions,
      })),
      [
        {
          title: 'Teaser video',
          dueAt: '2031-05-01T10:00:00.000Z',
          status: 'pending',
          submissions: [],
        },
        { title: 'Launch post', dueAt: null, status: 'pending', submissions: [] },
      ],
    );
    assert.ok(!changed.deliverables.some(({ id }) => id === collaboration.deliverables[0]!.id));
    assert.equal(changed.version, collaboration.version + 1);
    assert.deepEqual(
      changed.timeline.map(({ kind, party }) => [kind, party]),
      [
        ['opened', null],
        ['deliverables_set', 'brand'],
      ],
    );
  });

  test('when the form breaks a rule, then 400 with the rule’s message on its field', async () => {
    const collaboration = await freshCollaboration(system, users);
    for (const [items, message, field] of [
      [[], messages.deliverablesRequired, 'items'],
      [[{ title: '   ' }], messages.deliverableTitleRequired, 'items.0.title'],
      [[{ title: 'x'.repeat(201) }], messages.deliverableTitleTooLong, 'items.0.title'],
      [
        Array.from({ length: 21 }, (_, index) => ({ title: `Post ${index}` })),
        messages.deliverablesTooMany,
        'items',
      ],
      [[{ title: 'Video', dueAt: 'next week' }], messages.dueDateInvalid, 'items.0.dueAt'],
    ] as const) {
      // Act
      const answer = await brandWork().setDeliverables(collaboration.id, { items });

      // Assert
      assertRefused(answer, 400, message, field);
    }
  });

  test('when the creator sets the deliverables, then 403 onlyTheBrandCan', async () => {
    const collaboration = await freshCollaboration(system, users);

    // Act
    const answer = await creatorWork().setDeliverables(collaboration.id, {
      items: [{ title: 'Teaser' }],
    });

    // Assert
    assertRefused(answer, 403, messages.onlyTheBrandCan);
  });

  test('when work was handed in, then setting the deliverables answers 409 deliverablesLocked', async () => {
    const collaboration = await freshCollaboration(system, users);
    accepted(await creatorWork().submit(collaboration.id, collaboration.deliverables[0]!.id), 201);

    // Act
    const answer = await brandWork().setDeliverables(collaboration.id, {
      items: [{ title: 'Teaser' }],
    });

    // Assert
    assertRefused(answer, 409, messages.deliverablesLocked);
  });
});

describe('handing in', () => {
  test('when the creator submits a pending deliverable, then it waits for review for the review window', async () => {
    const collaboration = await freshCollaboration(system, users);
    const deliverableId = collaboration.deliverables[0]!.id;
    const form = aSubmission();
    const before = Date.now();

    // Act
    const changed = accepted(
      await creatorWork().submit(collaboration.id, deliverableId, form),
      201,
    );

    // Assert
    const deliverable = changed.deliverables[0]!;
    assert.equal(deliverable.status, 'submitted');
    assert.deepEqual(
      deliverable.submissions.map(({ round, link, note }) => ({ round, link, note })),
      [{ round: 1, ...form }],
    );
    const windowMs = REVIEW_WINDOW_HOURS_DEFAULT * 3_600_000;
    const reviewDueAt = Date.parse(deliverable.reviewDueAt!);
    assert.ok(reviewDueAt >= before + windowMs && reviewDueAt <= Date.now() + windowMs);
    assert.deepEqual(changed.timeline.at(-1), {
      kind: 'submitted',
      at: deliverable.submissions[0]!.submittedAt,
      party: 'creator',
      deliverableId,
    });
  });

  test('when the submission breaks a rule, then 400 with the rule’s message on its field', async () => {
    const collaboration = await freshCollaboration(system, users);
    for (const [body, message, field] of [
      [{ link: '  ', note: 'Done' }, messages.submissionLinkRequired, 'link'],
      [{ link: 'ftp://files.example.com/video' }, messages.urlHttpOrHttps, 'link'],
      [
        { link: 'https://example.com', note: 'n'.repeat(1001) },
        messages.submissionNoteTooLong,
        'note',
      ],
    ] as const) {
      // Act
      const answer = await creatorWork().submit(
        collaboration.id,
        collaboration.deliverables[0]!.id,
        body,
      );

      // Assert
      assertRefused(answer, 400, message, field);
    }
  });

  test('when the deliverable already waits for review, or the brand submits, then 409 deliverableNotAwaitingWork and 403 onlyTheCreatorCan', async () => {
    const collaboration = await freshCollaboration(system, users);
    const deliverableId = collaboration.deliverables[0]!.id;
    accepted(await creatorWork().submit(collaboration.id, deliverableId), 201);

    // Act
    const again = await creatorWork().submit(collaboration.id, deliverableId);
    const byBrand = await brandWork().submit(collaboration.id, deliverableId);

    // Assert
    assertRefused(again, 409, messages.deliverableNotAwaitingWork);
    assertRefused(byBrand, 403, messages.onlyTheCreatorCan);
  });

  test('when a deliverable does not exist, then submitting and reviewing answer 404 deliverableNotFound', async () => {
    const collaboration = await freshCollaboration(system, users);
    for (const deliverableId of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      // Act
      const submitted = await creatorWork().submit(collaboration.id, deliverableId);
      const reviewed = await brandWork().review(collaboration.id, deliverableId, approve);

      // Assert
      assertRefused(submitted, 404, messages.deliverableNotFound);
      assertRefused(reviewed, 404, messages.deliverableNotFound);
    }
  });
});

describe('reviewing', () => {
  test('when the brand asks for changes three times, then a fourth request answers 409 noRoundsLeft and a dispute is opened', async () => {
    const collaboration = await freshCollaboration(system, users);
    const deliverableId = collaboration.deliverables[0]!.id;
    for (let round = 1; round <= 3; round++) {
      accepted(await creatorWork().submit(collaboration.id, deliverableId), 201);
      // Before the last round, a dispute is not yet open to the brand.
      assertRefused(
        await brandWork().review(collaboration.id, deliverableId, dispute()),
        409,
        messages.disputeNotYet,
      );
      const changed = accepted(
        await brandWork().review(collaboration.id, deliverableId, requestChanges(`Round ${round}`)),
      );
      assert.equal(changed.deliverables[0]!.status, 'changes_requested');
      assert.equal(changed.deliverables[0]!.changeRequests, round);
    }
    accepted(await creatorWork().submit(collaboration.id, deliverableId), 201);

    // Act
    const fourth = await brandWork().review(collaboration.id, deliverableId, requestChanges());
    const disputed = accepted(await brandWork().review(collaboration.id, deliverableId, dispute()));

    // Assert
    assertRefused(fourth, 409, messages.noRoundsLeft);
    const deliverable = disputed.deliverables[0]!;
    assert.equal(deliverable.status, 'disputed');
    assert.deepEqual(
      deliverable.submissions.map(({ round }) => round),
      [1, 2, 3, 4],
    );
    assert.deepEqual(
      deliverable.reviews.map(({ round, decision, comment }) => [round, decision, comment]),
      [
        [1, 'changes_requested', 'Round 1'],
        [2, 'changes_requested', 'Round 2'],
        [3, 'changes_requested', 'Round 3'],
        [4, 'disputed', 'The video is not what we agreed.'],
      ],
    );
    // Staff resolve a dispute later; the collaboration stays active and nothing is due.
    assert.equal(disputed.status, 'active');
    assert.equal(disputed.payment.status, 'not_due');
    assert.equal(disputed.timeline.at(-1)?.kind, 'disputed');
  });

  test('when nothing waits for review, or the review breaks a rule, then 409 deliverableNotSubmitted and 400 on the comment', async () => {
    const collaboration = await freshCollaboration(system, users);
    const deliverableId = collaboration.deliverables[0]!.id;

    // Act
    const pending = await brandWork().review(collaboration.id, deliverableId, approve);
    accepted(await creatorWork().submit(collaboration.id, deliverableId), 201);
    const noComment = await brandWork().review(collaboration.id, deliverableId, {
      decision: 'request_changes',
    });
    const longComment = await brandWork().review(
      collaboration.id,
      deliverableId,
      requestChanges('c'.repeat(1001)),
    );
    const byCreator = await creatorWork().review(collaboration.id, deliverableId, approve);

    // Assert
    assertRefused(pending, 409, messages.deliverableNotSubmitted);
    assertRefused(noComment, 400, messages.reviewCommentRequired, 'comment');
    assertRefused(longComment, 400, messages.reviewCommentTooLong, 'comment');
    assertRefused(byCreator, 403, messages.onlyTheBrandCan);
  });

  test('when two reviews of one submission arrive at once, then one wins and the other answers 409', async () => {
    const collaboration = await freshCollaboration(system, users);
    const deliverableId = collaboration.deliverables[0]!.id;
    accepted(await creatorWork().submit(collaboration.id, deliverableId), 201);

    // Act
    const answers = await Promise.all([
      brandWork().review(collaboration.id, deliverableId, approve),
      brandWork().review(collaboration.id, deliverableId, requestChanges()),
    ]);

    // Assert
    assert.deepEqual(answers.map(({ status }) => status).sort(), [200, 409]);
    const lost = answers.find(({ status }) => status === 409)!;
    assertRefused(lost, 409, messages.deliverableNotSubmitted);
    const won = answers.find(({ status }) => status === 200)!.body.data!;
    assert.equal(won.deliverables[0]!.reviews.length, 1);
  });
});
