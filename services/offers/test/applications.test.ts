/**
 * Applications: who may apply, one application per creator and
 * offer (also under concurrency), withdraw / accept / decline and their
 * conflicts, places filled under the offer's row lock (concurrent accepts
 * never fill more places than the offer has), the lists, and the events
 * on `offers.application.v1` and `offers.offer.v1`.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test, beforeAll } from 'vitest';
import { eventTypes } from '@raly/contracts/events';
import { messages } from '@raly/contracts/messages';
import type { ApplicationRecord, OfferRecord } from '@raly/contracts/offers';
import {
  callApi,
  dataOf,
  envelopeOf,
  eventually,
  type TopicListener,
  uniqueToken,
} from '@raly/test-support';
import { type RalySystem, registeredBrand, registeredCreator } from '@raly/test-support/system';
import {
  anApplicationForm,
  anOfferForm,
  asUser,
  onboardedCreator,
  suspendUser,
  useOffersSystem,
} from './support';

const harness = useOffersSystem();
let system: RalySystem;
let offerEvents: TopicListener;
let applicationEvents: TopicListener;
let brand: Awaited<ReturnType<typeof registeredBrand>>;
let otherBrand: Awaited<ReturnType<typeof registeredBrand>>;
let creator: Awaited<ReturnType<typeof registeredCreator>>;

beforeAll(async () => {
  ({ system, offerEvents, applicationEvents } = harness);
  [brand, otherBrand, creator] = await Promise.all([
    registeredBrand(system),
    registeredBrand(system),
    onboardedCreator(system, ['AI', 'Gaming']),
  ]);
});

const asBrand = () => asUser(system, brand.accessToken);
const asCreator = () => asUser(system, creator.accessToken);

async function openOffer(overrides: Parameters<typeof anOfferForm>[0] = {}) {
  const answer = await asBrand()<OfferRecord>(
    'POST',
    '/offers',
    anOfferForm({ open: true, ...overrides }),
  );
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body.data!;
}

async function applied(offerId: string, token = creator.accessToken) {
  const answer = await asUser(system, token)<ApplicationRecord>(
    'POST',
    `/offers/${offerId}/applications`,
    anApplicationForm(),
  );
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body.data!;
}

describe('applying', () => {
  test('when an onboarded creator applies to an open offer, then a pending application naming the offer, its brand and the creator’s public profile is answered 201 and published', async () => {
    // Arrange
    const offer = await openOffer();
    const form = anApplicationForm();

    // Act
    const answer = await asCreator()<ApplicationRecord>(
      'POST',
      `/offers/${offer.id}/applications`,
      form,
    );

    // Assert
    assert.equal(answer.status, 201);
    const application = answer.body.data!;
    assert.equal(application.status, 'pending');
    assert.equal(application.version, 1);
    assert.equal(application.pitch, form.pitch);
    assert.deepEqual(application.proposedRate, form.proposedRate);
    assert.deepEqual(application.offer, {
      id: offer.id,
      title: offer.title,
      brand: offer.brand,
      deliverables: offer.deliverables,
      compensation: offer.compensation,
    });
    assert.equal(application.brandId, brand.brandId);
    assert.equal(application.creatorId, creator.userId);
    assert.equal(application.creator.username, creator.registration.username.toLowerCase());
    assert.deepEqual(application.creator.interests, ['AI', 'Gaming']);
    assert.equal(application.decidedAt, null);
    const event = envelopeOf<ApplicationRecord>(
      await applicationEvents.waitFor((message) => message.key?.toString() === application.id),
    );
    assert.equal(event.type, eventTypes.applicationCreated);
    assert.deepEqual(event.data, application);
  });

  test('when a creator applies twice, also at the same time, then one application exists and the others answer 409 alreadyApplied', async () => {
    // Arrange
    const offer = await openOffer();
    const racer = await onboardedCreator(system);
    const asRacer = asUser(system, racer.accessToken);

    // Act
    const first = await asCreator()(
      'POST',
      `/offers/${offer.id}/applications`,
      anApplicationForm(),
    );
    const second = await asCreator()(
      'POST',
      `/offers/${offer.id}/applications`,
      anApplicationForm(),
    );
    const raced = await Promise.all(
      Array.from({ length: 5 }, () =>
        asRacer('POST', `/offers/${offer.id}/applications`, anApplicationForm()),
      ),
    );

    // Assert
    assert.equal(first.status, 201);
    assert.equal(second.status, 409);
    assert.equal(second.body.error?.message, messages.alreadyApplied);
    assert.deepEqual(raced.map((answer) => answer.status).sort(), [201, 409, 409, 409, 409]);
    const { rows } = await system.sql.offers!.query(
      'SELECT creator_id FROM applications WHERE offer_id = $1',
      [offer.id],
    );
    assert.equal(rows.length, 2);
  });

  test('when a creator has not finished onboarding, then 403 onboardingRequired; once onboarded, the application goes through', async () => {
    // Arrange
    const offer = await openOffer();
    const newcomer = await registeredCreator(system);
    const asNewcomer = asUser(system, newcomer.accessToken);

    // Act
    const refused = await asNewcomer(
      'POST',
      `/offers/${offer.id}/applications`,
      anApplicationForm(),
    );
    const token = newcomer.accessToken;
    await dataOf(system.identityUrl, 'PUT', '/users/me/interests', {
      token,
      body: { interests: ['AI'] },
    });
    for (const step of ['terms', 'connects', 'wallet'])
      await dataOf(system.identityUrl, 'PATCH', '/users/me/onboarding', {
        token,
        body: { step, value: true },
      });
    const accepted = await asNewcomer(
      'POST',
      `/offers/${offer.id}/applications`,
      anApplicationForm(),
    );

    // Assert
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error?.code, 'permission-denied');
    assert.equal(refused.body.error?.message, messages.onboardingRequired);
    assert.equal(accepted.status, 201);
  });

  test('when a brand user applies, then 403 brandUsersCannotApply', async () => {
    // Arrange
    const offer = await openOffer();

    // Act
    const own = await asBrand()('POST', `/offers/${offer.id}/applications`, anApplicationForm());
    const other = await asUser(system, otherBrand.accessToken)(
      'POST',
      `/offers/${offer.id}/applications`,
      anApplicationForm(),
    );

    // Assert
    for (const answer of [own, other]) {
      assert.equal(answer.status, 403);
      assert.equal(answer.body.error?.message, messages.brandUsersCannotApply);
    }
  });

  test('when a suspended creator applies, then 403 creatorSuspended', async () => {
    // Arrange
    const offer = await openOffer();
    const suspended = await onboardedCreator(system);
    await suspendUser(system, suspended);

    // Act
    const answer = await asUser(system, suspended.accessToken)(
      'POST',
      `/offers/${offer.id}/applications`,
      anApplicationForm(),
    );

    // Assert
    assert.equal(answer.status, 403);
    assert.equal(answer.body.error?.message, messages.creatorSuspended);
  });

  test('when the offer is a draft, unknown, closed or past its apply-by date (before any sweep), then 404 or 409 offerNotOpen', async () => {
    // Arrange
    const draft = (await asBrand()<OfferRecord>('POST', '/offers', anOfferForm())).body.data!;
    const closed = await openOffer();
    await asBrand()('POST', `/offers/${closed.id}/close`);
    const expired = await openOffer();
    await system.sql.offers!.query(
      `UPDATE offers SET apply_by = now() - interval '1 second' WHERE id = $1`,
      [expired.id],
    );

    // Act
    const answers = await Promise.all(
      [draft.id, randomUUID(), closed.id, expired.id].map((id) =>
        asCreator()('POST', `/offers/${id}/applications`, anApplicationForm()),
      ),
    );

    // Assert
    assert.deepEqual(
      answers.map((answer) => [answer.status, answer.body.error?.message]),
      [
        [404, messages.offerNotFound],
        [404, messages.offerNotFound],
        [409, messages.offerNotOpen],
        [409, messages.offerNotOpen],
      ],
    );
    const { rows } = await system.sql.offers!.query('SELECT status FROM offers WHERE id = $1', [
      expired.id,
    ]);
    assert.equal(rows[0].status, 'open', 'the sweep has not run: the refusal came from the date');
  });

  test('when the form is invalid or has unknown keys, then 400 with the field’s message', async () => {
    // Arrange
    const offer = await openOffer();

    // Act
    const short = await asCreator()('POST', `/offers/${offer.id}/applications`, { pitch: 'hi' });
    const extra = await asCreator()('POST', `/offers/${offer.id}/applications`, {
      ...anApplicationForm(),
      status: 'accepted',
    });
    const noToken = await asUser(system)(
      'POST',
      `/offers/${offer.id}/applications`,
      anApplicationForm(),
    );

    // Assert
    assert.equal(short.status, 400);
    assert.deepEqual(short.body.error?.fields, { pitch: messages.pitchTooShort });
    assert.equal(extra.status, 400);
    assert.equal(noToken.status, 401);
  });
});

describe('deciding', () => {
  test('when a member accepts and another declines, then each is decided with decidedAt, and a decided application answers 409 applicationDecided', async () => {
    // Arrange
    const offer = await openOffer({ creatorsWanted: 5 });
    const other = await onboardedCreator(system);
    const first = await applied(offer.id);
    const second = await applied(offer.id, other.accessToken);

    // Act
    const accepted = await asBrand()<ApplicationRecord>('POST', `/applications/${first.id}/accept`);
    const declined = await asBrand()<ApplicationRecord>(
      'POST',
      `/applications/${second.id}/decline`,
    );
    const again = await Promise.all([
      asBrand()('POST', `/applications/${first.id}/decline`),
      asBrand()('POST', `/applications/${second.id}/accept`),
      asCreator()('POST', `/applications/${first.id}/withdraw`),
    ]);

    // Assert
    assert.equal(accepted.status, 200);
    assert.equal(accepted.body.data?.status, 'accepted');
    assert.ok(accepted.body.data?.decidedAt);
    assert.equal(accepted.body.data?.version, 2);
    assert.equal(declined.body.data?.status, 'declined');
    for (const answer of again) {
      assert.equal(answer.status, 409);
      assert.equal(answer.body.error?.message, messages.applicationDecided);
    }
    const offerNow = (await asBrand()<OfferRecord>('GET', `/offers/${offer.id}`)).body.data!;
    assert.equal(offerNow.placesFilled, 1);
    assert.equal(offerNow.status, 'open');
  });

  test('when a member with a handle accepts and one without declines, then only the accept carries the handle (answer, event, table, the brand’s list), and the applicant’s list never does', async () => {
    // Arrange: a brand whose founder chose a handle, and the shared brand's founder without one.
    const decider = await registeredBrand(system);
    const handle = `m${uniqueToken(8)}`;
    const chosen = await callApi(
      system.brandUrl,
      'PUT',
      `/brands/${decider.brandId}/members/me/handle`,
      { token: decider.accessToken, body: { handle } },
    );
    assert.equal(chosen.status, 200, JSON.stringify(chosen.body));
    const asDecider = asUser(system, decider.accessToken);
    const deciderOffer = (
      await asDecider<OfferRecord>('POST', '/offers', anOfferForm({ open: true }))
    ).body.data!;
    const toAccept = await applied(deciderOffer.id);
    const toDecline = await applied((await openOffer()).id);

    // Act
    const accepted = await asDecider<ApplicationRecord>(
      'POST',
      `/applications/${toAccept.id}/accept`,
    );
    const declined = await asBrand()<ApplicationRecord>(
      'POST',
      `/applications/${toDecline.id}/decline`,
    );
    const brandList = await asDecider<ApplicationRecord[]>(
      'GET',
      `/offers/${deciderOffer.id}/applications`,
    );
    const mine = await asCreator()<ApplicationRecord[]>('GET', '/applications/mine');

    // Assert
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.equal(declined.status, 200, JSON.stringify(declined.body));
    const decidedBy = { memberHandle: handle.toLowerCase() };
    assert.deepEqual(accepted.body.data!.decidedBy, decidedBy);
    assert.equal(declined.body.data!.status, 'declined');
    assert.equal('decidedBy' in declined.body.data!, false);
    const published = envelopeOf<ApplicationRecord>(
      await applicationEvents.waitFor(
        (message) =>
          message.key?.toString() === toAccept.id &&
          envelopeOf<ApplicationRecord>(message).data.status === 'accepted',
      ),
    );
    assert.deepEqual(published.data, accepted.body.data);
    const { rows } = await system.sql.offers!.query<{ id: string; decided_by_handle: unknown }>(
      'SELECT id, decided_by_handle FROM applications WHERE id = ANY($1) ORDER BY id = $2 DESC',
      [[toAccept.id, toDecline.id], toAccept.id],
    );
    assert.deepEqual(
      rows.map((row) => row.decided_by_handle),
      [handle.toLowerCase(), null],
    );
    assert.deepEqual(
      brandList.body.data!.find((application) => application.id === toAccept.id)?.decidedBy,
      decidedBy,
    );
    const applicantView = mine.body.data!.find((application) => application.id === toAccept.id);
    assert.equal(applicantView?.status, 'accepted');
    assert.equal('decidedBy' in applicantView!, false);
  });

  test('when someone outside the brand accepts or declines, then 403 notABrandMember; an unknown application answers 404', async () => {
    // Arrange
    const offer = await openOffer();
    const application = await applied(offer.id);

    // Act
    const answers = await Promise.all([
      asUser(system, otherBrand.accessToken)('POST', `/applications/${application.id}/accept`),
      asCreator()('POST', `/applications/${application.id}/accept`),
      asCreator()('POST', `/applications/${application.id}/decline`),
      asBrand()('POST', `/applications/${randomUUID()}/accept`),
      asBrand()('POST', '/applications/nope/decline'),
      asCreator()('POST', `/applications/${randomUUID()}/withdraw`),
    ]);

    // Assert
    assert.deepEqual(
      answers.map((answer) => [answer.status, answer.body.error?.message]),
      [
        [403, messages.notABrandMember],
        [403, messages.notABrandMember],
        [403, messages.notABrandMember],
        [404, messages.applicationNotFound],
        [404, messages.applicationNotFound],
        [404, messages.applicationNotFound],
      ],
    );
  });

  test('when the applicant withdraws a pending application, then it is withdrawn; nobody else can withdraw it', async () => {
    // Arrange
    const offer = await openOffer();
    const application = await applied(offer.id);

    // Act
    const byBrand = await asBrand()('POST', `/applications/${application.id}/withdraw`);
    const withdrawn = await asCreator()<ApplicationRecord>(
      'POST',
      `/applications/${application.id}/withdraw`,
    );
    const accept = await asBrand()('POST', `/applications/${application.id}/accept`);

    // Assert
    assert.equal(byBrand.status, 404);
    assert.equal(withdrawn.status, 200);
    assert.equal(withdrawn.body.data?.status, 'withdrawn');
    assert.equal(accept.status, 409);
    assert.equal(accept.body.error?.message, messages.applicationDecided);
  });

  test('when N+1 pending applications of an offer with N places are accepted at the same time, then exactly N are accepted, the rest answer 409 offerFull, and the offer closes as filled', async () => {
    // Arrange
    const places = 3;
    const offer = await openOffer({ creatorsWanted: places });
    const applicants = await Promise.all(
      Array.from({ length: places + 1 }, () => onboardedCreator(system)),
    );
    const applications = await Promise.all(
      applicants.map((applicant) => applied(offer.id, applicant.accessToken)),
    );

    // Act
    const answers = await Promise.all(
      applications.map((application) =>
        asBrand()<ApplicationRecord>('POST', `/applications/${application.id}/accept`),
      ),
    );

    // Assert
    const statuses = answers.map((answer) => answer.status).sort();
    assert.deepEqual(statuses, [200, 200, 200, 409]);
    const refused = answers.find((answer) => answer.status === 409)!;
    assert.equal(refused.body.error?.message, messages.offerFull);
    const { rows } = await system.sql.offers!.query(
      `SELECT places_filled, status, closed_reason,
              (SELECT count(*)::int FROM applications WHERE offer_id = $1 AND status = 'accepted') AS accepted
         FROM offers WHERE id = $1`,
      [offer.id],
    );
    assert.deepEqual(rows[0], {
      places_filled: places,
      status: 'closed',
      closed_reason: 'filled',
      accepted: places,
    });
    const pending = applications.find((_, index) => answers[index]!.status === 409)!;
    const declined = await asBrand()('POST', `/applications/${pending.id}/decline`);
    assert.equal(declined.status, 200, 'declining is still allowed on a full offer');
    const late = await asUser(system, (await onboardedCreator(system)).accessToken)(
      'POST',
      `/offers/${offer.id}/applications`,
      anApplicationForm(),
    );
    assert.equal(late.status, 409, 'a full (closed) offer takes no more applications');
    assert.equal(late.body.error?.message, messages.offerNotOpen);
  });

  test('when an accept fills the last place, then both the application’s snapshot (with its offer’s deliverables and compensation) and the offer’s are published', async () => {
    // Arrange
    const offer = await openOffer({ creatorsWanted: 1 });
    const application = await applied(offer.id);

    // Act
    const accepted = await asBrand()<ApplicationRecord>(
      'POST',
      `/applications/${application.id}/accept`,
    );

    // Assert
    assert.equal(accepted.status, 200);
    assert.equal(accepted.body.data!.offer.deliverables, offer.deliverables);
    assert.deepEqual(accepted.body.data!.offer.compensation, offer.compensation);
    const applicationEvent = await applicationEvents.waitFor(
      (message) =>
        message.key?.toString() === application.id &&
        envelopeOf(message).type === eventTypes.applicationUpdated,
    );
    assert.deepEqual(envelopeOf(applicationEvent).data, accepted.body.data);
    const offerEvent = envelopeOf<OfferRecord>(
      await offerEvents.waitFor(
        (message) =>
          message.key?.toString() === offer.id &&
          envelopeOf<OfferRecord>(message).data.status === 'closed',
      ),
    );
    assert.equal(offerEvent.type, eventTypes.offerUpdated);
    assert.equal(offerEvent.data.closedReason, 'filled');
    assert.equal(offerEvent.data.placesFilled, 1);
    assert.equal(offerEvent.version, 2);
  });
});

describe('listing applications', () => {
  test('when a member lists an offer’s applications, then they come newest first with each creator’s current public profile; others get 403, a draft of another brand 404', async () => {
    // Arrange
    const offer = await openOffer();
    const other = await onboardedCreator(system, ['Sports']);
    const older = await applied(offer.id);
    const newer = await applied(offer.id, other.accessToken);
    await dataOf(system.identityUrl, 'PUT', '/users/me/interests', {
      token: other.accessToken,
      body: { interests: ['Sports', 'Crypto'] },
    });
    const draft = (await asBrand()<OfferRecord>('POST', '/offers', anOfferForm())).body.data!;

    // Act
    // The new interests reach offers through identity.user.updated.
    const list = await eventually('the applicant’s new interests in the list', async () => {
      const answer = await asBrand()<ApplicationRecord[]>(
        'GET',
        `/offers/${offer.id}/applications`,
      );
      return answer.body.data?.[0]?.creator.interests.includes('Crypto') && answer;
    });
    const byCreator = await asCreator()('GET', `/offers/${offer.id}/applications`);
    const byOtherBrand = await asUser(system, otherBrand.accessToken)(
      'GET',
      `/offers/${draft.id}/applications`,
    );

    // Assert
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.data!.map((application) => application.id),
      [newer.id, older.id],
    );
    assert.deepEqual(list.body.data![0]!.creator.interests, ['Sports', 'Crypto']);
    assert.equal(byCreator.status, 403);
    assert.equal(byCreator.body.error?.message, messages.notABrandMember);
    assert.equal(byOtherBrand.status, 404);
  });

  test('when a creator lists their applications, then only theirs come, newest first', async () => {
    // Arrange
    const loner = await onboardedCreator(system);
    const first = await openOffer();
    const second = await openOffer();
    const older = await applied(first.id, loner.accessToken);
    const newer = await applied(second.id, loner.accessToken);
    await applied(second.id);

    // Act
    const mine = await asUser(system, loner.accessToken)<ApplicationRecord[]>(
      'GET',
      '/applications/mine',
    );

    // Assert
    assert.equal(mine.status, 200);
    assert.deepEqual(
      mine.body.data!.map((application) => application.id),
      [newer.id, older.id],
    );
  });
});
