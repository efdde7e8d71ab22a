/**
 * Reports through the BFF (docs/console.md "Reports", docs/api.md "Reports" and § Console),
 * against the real Keycloak, identity-profile, brand, offers, collaborations and moderation
 * services: a signed-in person reports an offer, a profile or a message of their collaboration,
 * the BFF finds the item's label and accused itself, and reads their own reports; staff read the queue and resolve reports through the console, a
 * suspension outcome suspending the accused first. Every resolution is in the audit log.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { AuditPage } from '@raly/contracts/audit';
import type {
  CollaborationMessageRecord,
  CollaborationRecord,
} from '@raly/contracts/collaborations';
import { messages } from '@raly/contracts/messages';
import type { ApplicationRecord, OfferRecord } from '@raly/contracts/offers';
import type { BrandRecord } from '@raly/contracts/records';
import type { ReportPage, ReportRecord, ReporterReport } from '@raly/contracts/reports';
import type { RunningBff } from '../src/app';
import { anApplicationForm, anOfferForm } from './support/offers-suite';
import {
  consoleSignIn,
  createStaffUser,
  deleteStaffUser,
  ensureStaffRealm,
  eventually,
  type StaffUser,
} from '@raly/test-support';
import { callBff, startTestBff } from '@raly/test-support/bff';
import {
  type RalySystem,
  registeredBrand,
  registeredCreator,
  startSystem,
} from '@raly/test-support/system';

/** A person signed in to the product: their user id and access token. */
interface Person {
  userId: string;
  accessToken: string;
}

describe('reports', () => {
  let system: RalySystem;
  let bff: RunningBff;
  let tightBff: RunningBff;
  const staff: StaffUser[] = [];
  const tokens = { moderator: '', nonStaff: '' };

  beforeAll(async () => {
    system = await startSystem({ offers: true, collaborations: true, moderation: true });
    await ensureStaffRealm(system.stack);
    const services = {
      IDENTITY_URL: system.identityUrl,
      BRAND_URL: system.brandUrl,
      OFFERS_URL: system.offersUrl,
      COLLABORATIONS_URL: system.collaborationsUrl,
      MODERATION_URL: system.moderationUrl,
    };
    bff = await startTestBff(system.stack, services);
    tightBff = await startTestBff(system.stack, {
      ...services,
      RATE_LIMIT_REPORTS_PER_USER: { points: 2, durationSeconds: 3600 },
    });
    for (const role of ['raly-moderator', undefined] as const) {
      const user = await createStaffUser(system.stack, role);
      staff.push(user);
      tokens[role ? 'moderator' : 'nonStaff'] = (
        await consoleSignIn(system.stack, user)
      ).access_token;
    }
  });

  afterAll(async () => {
    await tightBff?.stop();
    await bff?.stop();
    await system?.stop();
    for (const user of staff) await deleteStaffUser(system.stack, user);
  });

  const aCreator = (): Promise<Person> => registeredCreator(system);
  const aBrand = () => registeredBrand(system);
  async function anOffer(brand: Person): Promise<OfferRecord> {
    const answer = await callBff<OfferRecord>(bff, 'POST', '/api/offers', {
      token: brand.accessToken,
      body: { ...anOfferForm(), open: true },
    });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body.data;
  }
  /** A fresh creator who finished onboarding through the BFF (so they may apply to offers). */
  async function anOnboardedCreator(): Promise<Person> {
    const creator = await aCreator();
    const interests = await callBff(bff, 'PUT', '/api/me/interests', {
      token: creator.accessToken,
      body: { interests: ['Gaming'] },
    });
    assert.equal(interests.status, 200, JSON.stringify(interests.body));
    for (const step of ['terms', 'connects', 'wallet']) {
      const answer = await callBff(bff, 'POST', '/api/me/onboarding', {
        token: creator.accessToken,
        body: { step },
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
    }
    return creator;
  }
  /**
   * A collaboration of a fresh brand and a fresh creator, opened the way people open one: the
   * creator applies to the brand's open offer and the brand accepts.
   */
  async function aCollaboration() {
    const [creator, brand] = await Promise.all([anOnboardedCreator(), aBrand()]);
    const offer = await anOffer(brand);
    const applied = await callBff<ApplicationRecord>(
      bff,
      'POST',
      `/api/offers/${offer.id}/applications`,
      { token: creator.accessToken, body: anApplicationForm },
    );
    assert.equal(applied.status, 201, JSON.stringify(applied.body));
    const accepted = await callBff(
      bff,
      'POST',
      `/api/applications/${applied.body.data.id}/accept`,
      {
        token: brand.accessToken,
      },
    );
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    const collaboration = await eventually('the collaboration', async () => {
      const list = await callBff<CollaborationRecord[]>(bff, 'GET', '/api/collaborations', {
        token: creator.accessToken,
      });
      return list.body.data?.find((record) => record.applicationId === applied.body.data.id);
    });
    return { creator, brand, collaboration };
  }
  /** Sends a message in the collaboration as `sender` through the BFF. @returns the stored message */
  async function aMessageOf(sender: Person, collaborationId: string, body: string) {
    const answer = await callBff<CollaborationMessageRecord>(
      bff,
      'POST',
      `/api/collaborations/${collaborationId}/messages`,
      { token: sender.accessToken, body: { clientId: randomUUID(), body } },
    );
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body.data;
  }
  const report = (reporter: Person | undefined, body: unknown, on = bff) =>
    callBff<ReporterReport>(on, 'POST', '/api/reports', {
      ...(reporter ? { token: reporter.accessToken } : {}),
      body,
    });
  const mine = (reporter: Person) =>
    callBff<{ reports: ReporterReport[]; nextBefore: string | null }>(
      bff,
      'GET',
      '/api/reports/mine',
      { token: reporter.accessToken },
    );
  const consoleCall = <T>(method: string, path: string, body?: unknown, token = tokens.moderator) =>
    callBff<T>(bff, method, `/api/console${path}`, { token, body });
  /** A creator's fresh report of a fresh brand's open offer: the report, the brand and the offer. */
  async function anOfferReport() {
    const [reporter, brand] = await Promise.all([aCreator(), aBrand()]);
    const offer = await anOffer(brand);
    const opened = await report(reporter, {
      item: { kind: 'offer', id: offer.id },
      reason: 'scam-or-fraud',
      note: 'Asks for a deposit first.',
    });
    assert.equal(opened.status, 201, JSON.stringify(opened.body));
    return { reporter, brand, offer, report: opened.body.data };
  }

  test("when a creator reports an offer, then it answers 201 with the offer's title as the label and no accused, moderation accuses its brand, and the same report again answers 409 'You have already reported this.'", async () => {
    // Arrange
    const [reporter, brand] = await Promise.all([aCreator(), aBrand()]);
    const offer = await anOffer(brand);
    const body = { item: { kind: 'offer', id: offer.id }, reason: 'spam', note: '  Posted daily ' };

    // Act
    const opened = await report(reporter, body);
    const again = await report(reporter, body);

    // Assert
    assert.equal(opened.status, 201, JSON.stringify(opened.body));
    const data = opened.body.data;
    assert.deepEqual(data.item, { kind: 'offer', id: offer.id, label: offer.title });
    assert.equal(data.status, 'open');
    assert.equal(data.note, 'Posted daily');
    assert.equal(data.resolution, null);
    assert.deepEqual(Object.keys(data).sort(), [
      'created',
      'id',
      'item',
      'note',
      'reason',
      'resolution',
      'status',
    ]);
    const record = await consoleCall<ReportRecord>('GET', `/reports/${data.id}`);
    assert.equal(record.status, 200, JSON.stringify(record.body));
    assert.deepEqual(record.body.data.accused, { kind: 'brand', id: brand.brandId });
    assert.equal(record.body.data.reporterUserId, reporter.userId);
    assert.equal(again.status, 409);
    assert.equal(again.body.error.message, messages.alreadyReported);
  });

  test("when a creator reports a creator's or a brand's profile, then the label is the @username or the company and the accused is that creator or brand", async () => {
    // Arrange
    const [reporter, accused, brand] = await Promise.all([
      registeredCreator(system),
      registeredCreator(system),
      aBrand(),
    ]);
    const username = accused.registration.username.toLowerCase();
    const company = await eventually('the brand in the read model', async () => {
      const answer = await report(reporter, {
        item: { kind: 'brand', id: brand.brandId },
        reason: 'impersonation',
      });
      return answer.status === 201 ? answer : undefined;
    });

    // Act
    const creatorReport = await report(reporter, {
      item: { kind: 'creator', id: accused.userId },
      reason: 'harassment',
    });

    // Assert
    assert.equal(creatorReport.status, 201, JSON.stringify(creatorReport.body));
    assert.equal(creatorReport.body.data.item.label.toLowerCase(), `@${username}`);
    const creatorRecord = await consoleCall<ReportRecord>(
      'GET',
      `/reports/${creatorReport.body.data.id}`,
    );
    assert.deepEqual(creatorRecord.body.data.accused, { kind: 'creator', id: accused.userId });
    assert.equal(company.body.data.item.label, brand.registration.company);
    const brandRecord = await consoleCall<ReportRecord>('GET', `/reports/${company.body.data.id}`);
    assert.deepEqual(brandRecord.body.data.accused, { kind: 'brand', id: brand.brandId });
  });

  test("when someone reports themselves, their own brand or its offer, then it answers 400 'You cannot report yourself or your own brand.' and nothing is opened", async () => {
    // Arrange
    const [creator, brand] = await Promise.all([aCreator(), aBrand()]);
    const offer = await anOffer(brand);
    const before = (await mine(creator)).body.data.reports.length;

    // Act
    const answers = [
      await report(creator, { item: { kind: 'creator', id: creator.userId }, reason: 'spam' }),
      await report(brand, { item: { kind: 'brand', id: brand.brandId }, reason: 'spam' }),
      await report(brand, { item: { kind: 'offer', id: offer.id }, reason: 'spam' }),
    ];

    // Assert
    for (const answer of answers) {
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.equal(answer.body.error.message, messages.cannotReportYourself);
    }
    assert.equal((await mine(creator)).body.data.reports.length, before);
    assert.equal((await mine(brand)).body.data.reports.length, 0);
  });

  test("when a party reports the other side's message, then the label is an excerpt of its body and the accused its sender: the brand for a member's message, the creator for the creator's; the same message again answers 409", async () => {
    // Arrange
    const { creator, brand, collaboration } = await aCollaboration();
    const long = `Pay me outside Raly and I will post twice. ${'Really, it is cheaper. '.repeat(12)}`;
    const fromBrand = await aMessageOf(brand, collaboration.id, `  ${long}  `);
    const fromCreator = await aMessageOf(creator, collaboration.id, 'Send me your phone number.');
    const body = (id: string) => ({
      item: { kind: 'message', id },
      reason: 'off-platform-contact',
      note: 'Asks to deal outside Raly.',
    });

    // Act
    const byCreator = await report(creator, body(fromBrand.id));
    const byBrand = await report(brand, body(fromCreator.id));
    const again = await report(creator, body(fromBrand.id));

    // Assert
    assert.equal(byCreator.status, 201, JSON.stringify(byCreator.body));
    assert.deepEqual(byCreator.body.data.item, {
      kind: 'message',
      id: fromBrand.id,
      label: long.trim().slice(0, 200).trim(),
    });
    assert.equal(byBrand.status, 201, JSON.stringify(byBrand.body));
    assert.deepEqual(byBrand.body.data.item, {
      kind: 'message',
      id: fromCreator.id,
      label: 'Send me your phone number.',
    });
    const brandAccused = await consoleCall<ReportRecord>(
      'GET',
      `/reports/${byCreator.body.data.id}`,
    );
    assert.equal(brandAccused.status, 200, JSON.stringify(brandAccused.body));
    assert.deepEqual(brandAccused.body.data.item, byCreator.body.data.item);
    assert.deepEqual(brandAccused.body.data.accused, { kind: 'brand', id: brand.brandId });
    assert.equal(brandAccused.body.data.reporterUserId, creator.userId);
    const creatorAccused = await consoleCall<ReportRecord>(
      'GET',
      `/reports/${byBrand.body.data.id}`,
    );
    assert.deepEqual(creatorAccused.body.data.accused, { kind: 'creator', id: creator.userId });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.message, messages.alreadyReported);
  });

  test("when a party reports their own side's message, then 400 'You cannot report yourself or your own brand.'; someone who is no party, or an unknown message, gets 404", async () => {
    // Arrange
    const { creator, brand, collaboration } = await aCollaboration();
    const stranger = await aCreator();
    const fromBrand = await aMessageOf(brand, collaboration.id, 'Here is the brief.');
    const fromCreator = await aMessageOf(creator, collaboration.id, 'Thanks, reading it now.');
    const aReport = (reporter: Person, id: string) =>
      report(reporter, { item: { kind: 'message', id }, reason: 'spam' });

    // Act
    const own = [await aReport(creator, fromCreator.id), await aReport(brand, fromBrand.id)];
    const notFound = [
      await aReport(stranger, fromBrand.id),
      await aReport(creator, randomUUID()),
      await aReport(creator, 'not-a-message-id'),
    ];

    // Assert
    for (const answer of own) {
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.equal(answer.body.error.message, messages.cannotReportYourself);
    }
    for (const answer of notFound) {
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.equal(answer.body.error.message, messages.reportedItemNotFound);
    }
    assert.equal((await mine(creator)).body.data.reports.length, 0);
    assert.equal((await mine(brand)).body.data.reports.length, 0);
    assert.equal((await mine(stranger)).body.data.reports.length, 0);
  });

  test("when the form is wrong, then it answers 400 with the form's words: no reason, no note for 'other', an unknown field", async () => {
    // Arrange
    const [reporter, brand] = await Promise.all([aCreator(), aBrand()]);
    const offer = await anOffer(brand);
    const item = { kind: 'offer', id: offer.id };

    // Act
    const noReason = await report(reporter, { item });
    const noNote = await report(reporter, { item, reason: 'other', note: '   ' });
    const unknownField = await report(reporter, { item, reason: 'spam', accused: 'x' });

    // Assert
    assert.equal(noReason.status, 400);
    assert.equal(noReason.body.error.message, messages.reportReasonRequired);
    assert.equal(noNote.status, 400);
    assert.equal(noNote.body.error.message, messages.reportNoteRequired);
    assert.equal(unknownField.status, 400);
    assert.equal(unknownField.body.error.message, messages.requestProblem);
    assert.equal((await mine(reporter)).body.data.reports.length, 0);
  });

  test('when the item does not exist, then it answers 404 with a clear message; without a token, 401', async () => {
    // Arrange
    const reporter = await aCreator();

    // Act
    const answers = await Promise.all(
      (['offer', 'creator', 'brand'] as const).map((kind) =>
        report(reporter, { item: { kind, id: randomUUID() }, reason: 'spam' }),
      ),
    );
    const anonymous = await report(undefined, {
      item: { kind: 'creator', id: reporter.userId },
      reason: 'spam',
    });
    const anonymousMine = await callBff(bff, 'GET', '/api/reports/mine');

    // Assert
    for (const answer of answers) {
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.equal(answer.body.error.message, messages.reportedItemNotFound);
    }
    assert.equal(anonymous.status, 401);
    assert.equal(anonymousMine.status, 401);
  });

  test('when a person reports more than RATE_LIMIT_REPORTS_PER_USER allows, then the next answers 429 with Retry-After', async () => {
    // Arrange
    const reporter = await aCreator();
    const body = { item: { kind: 'creator', id: randomUUID() }, reason: 'spam' };

    // Act
    const statuses = [];
    for (let attempt = 0; attempt < 3; attempt += 1)
      statuses.push((await report(reporter, body, tightBff)).status);
    const refused = await report(reporter, body, tightBff);

    // Assert
    assert.deepEqual(statuses, [404, 404, 429]);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'resource-exhausted');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
  });

  test("when the reporter reads their reports, then the report is there, newest first, in the reporter's view", async () => {
    // Arrange
    const { reporter, report: opened } = await anOfferReport();

    // Act
    const answer = await mine(reporter);

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.data.reports, [opened]);
    assert.equal(answer.body.data.nextBefore, null);
  });

  test("when two people report the same offer, then each one's reports hold their own report only", async () => {
    // Arrange: a first report of an offer, and a second creator's report of the same offer
    const { reporter, offer, report: first } = await anOfferReport();
    const other = await aCreator();
    const second = await report(other, {
      item: { kind: 'offer', id: offer.id },
      reason: 'spam',
      note: 'Posted in every channel.',
    });
    assert.equal(second.status, 201, JSON.stringify(second.body));

    // Act
    const [firstMine, otherMine] = await Promise.all([mine(reporter), mine(other)]);

    // Assert
    assert.deepEqual(firstMine.body.data.reports, [first]);
    assert.deepEqual(otherMine.body.data.reports, [second.body.data]);
  });

  test("when the console's report routes are called without a token, with a product token or without a staff role, then they answer 401, 401 and 403", async () => {
    // Arrange
    const product = await aCreator();
    const decision = { outcome: 'no-action', note: 'Fine' };
    const routes = [
      ['GET', '/reports', undefined],
      ['GET', `/reports/${randomUUID()}`, undefined],
      ['PUT', `/reports/${randomUUID()}/resolution`, decision],
    ] as const;

    for (const [method, path, body] of routes) {
      // Act
      const none = await callBff(bff, method, `/api/console${path}`, { body });
      const asProduct = await consoleCall(method, path, body, product.accessToken);
      const asNonStaff = await consoleCall(method, path, body, tokens.nonStaff);

      // Assert
      assert.equal(none.status, 401, `${method} ${path}`);
      assert.equal(asProduct.status, 401, `${method} ${path}`);
      assert.equal(asNonStaff.status, 403, `${method} ${path}`);
    }
  });

  test("when a moderator reads the queue and resolves a report with no action, then the queue lists it open with its accused and reporter, and after the resolution the reporter's own reports show the outcome without the staff member", async () => {
    // Arrange
    const { reporter, brand, report: opened } = await anOfferReport();

    // Act
    const queue = await consoleCall<ReportPage>('GET', '/reports?status=open');
    const resolved = await consoleCall<ReportRecord>('PUT', `/reports/${opened.id}/resolution`, {
      outcome: 'no-action',
      note: ' The offer is genuine. ',
    });
    const resolvedQueue = await consoleCall<ReportPage>('GET', '/reports?status=resolved');

    // Assert
    assert.equal(queue.status, 200, JSON.stringify(queue.body));
    const queued = queue.body.data.reports.find((each) => each.id === opened.id);
    assert.ok(queued, 'the report is in the open queue');
    assert.equal(queued.reporterUserId, reporter.userId);
    assert.deepEqual(queued.accused, { kind: 'brand', id: brand.brandId });
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    assert.equal(resolved.body.data.status, 'resolved');
    assert.equal(resolved.body.data.resolution?.outcome, 'no-action');
    assert.equal(resolved.body.data.resolution?.staff.email, staff[0]!.email);
    assert.ok(resolvedQueue.body.data.reports.some((each) => each.id === opened.id));
    const reporterView = (await mine(reporter)).body.data.reports[0]!;
    assert.equal(reporterView.status, 'resolved');
    assert.deepEqual(Object.keys(reporterView.resolution ?? {}).sort(), ['at', 'note', 'outcome']);
    assert.equal(reporterView.resolution?.outcome, 'no-action');
    assert.equal(reporterView.resolution?.note, 'The offer is genuine.');
    const brandStill = await callBff(bff, 'GET', '/api/me', { token: brand.accessToken });
    assert.equal(brandStill.status, 200);
  });

  test("when a moderator resolves a brand's report with a suspension, then the brand is suspended (its member's token is refused), the report is resolved and the resolution is in the audit log", async () => {
    // Arrange
    const { reporter, brand, report: opened } = await anOfferReport();
    const note = `Confirmed fraud. ${'Evidence attached. '.repeat(40)}`.trim();

    // Act
    const resolved = await consoleCall<ReportRecord>('PUT', `/reports/${opened.id}/resolution`, {
      outcome: 'suspension',
      note,
    });

    // Assert
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    assert.equal(resolved.body.data.resolution?.outcome, 'suspension');
    assert.equal(resolved.body.data.resolution?.note, note);
    const member = await callBff(bff, 'GET', '/api/me', { token: brand.accessToken });
    assert.equal(member.status, 401);
    const { rows } = await system.sql.brand.query<{ is_suspended: boolean }>(
      'SELECT is_suspended FROM brands WHERE id = $1',
      [brand.brandId],
    );
    assert.equal(rows[0]?.is_suspended, true);
    const reporterView = (await mine(reporter)).body.data.reports[0]!;
    assert.equal(reporterView.resolution?.outcome, 'suspension');
    const audit = await consoleCall<AuditPage>('GET', '/audit?action=report.resolve');
    assert.equal(audit.status, 200, JSON.stringify(audit.body));
    const entry = audit.body.data.entries.find((each) => each.target.id === opened.id);
    assert.ok(entry, 'the resolution is in the audit log');
    assert.equal(entry.reason, note);
    assert.equal(entry.staff.email, staff[0]!.email);
  });

  test("when a moderator resolves a creator's report with a suspension, then the creator's token is refused and the suspension is the moderator's, with the note as its reason, in the audit log", async () => {
    // Arrange
    const [reporter, accused] = await Promise.all([aCreator(), aCreator()]);
    const opened = await report(reporter, {
      item: { kind: 'creator', id: accused.userId },
      reason: 'off-platform-contact',
    });
    assert.equal(opened.status, 201, JSON.stringify(opened.body));

    // Act
    const resolved = await consoleCall<ReportRecord>(
      'PUT',
      `/reports/${opened.body.data.id}/resolution`,
      { outcome: 'suspension', note: 'Asked for payment outside Raly.' },
    );

    // Assert
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    assert.equal(resolved.body.data.status, 'resolved');
    assert.equal(
      (await callBff(bff, 'GET', '/api/me', { token: accused.accessToken })).status,
      401,
    );
    const suspension = await eventually('the suspension in the audit log', async () => {
      const page = await consoleCall<AuditPage>('GET', '/audit?action=creator.suspend');
      return page.body.data?.entries.find((each) => each.target.id === accused.userId);
    });
    assert.equal(suspension.reason, 'Asked for payment outside Raly.');
    assert.equal(suspension.staff.email, staff[0]!.email);
  });

  test('when a report is resolved again with another outcome, or an unknown report is resolved, then it answers 409 and 404 and nobody is suspended', async () => {
    // Arrange
    const { brand, report: opened } = await anOfferReport();
    const first = await consoleCall('PUT', `/reports/${opened.id}/resolution`, {
      outcome: 'warning',
      note: 'Warned by e-mail.',
    });
    assert.equal(first.status, 200, JSON.stringify(first.body));

    // Act
    const again = await consoleCall('PUT', `/reports/${opened.id}/resolution`, {
      outcome: 'suspension',
      note: 'Changed my mind.',
    });
    const unknown = await consoleCall('PUT', `/reports/${randomUUID()}/resolution`, {
      outcome: 'suspension',
      note: 'Nobody.',
    });
    const mineRoute = await consoleCall('GET', '/reports/mine');
    const noOutcome = await consoleCall('PUT', `/reports/${opened.id}/resolution`, { note: 'x' });

    // Assert
    assert.equal(again.status, 409);
    assert.equal(again.body.error.message, messages.reportAlreadyResolved);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.message, messages.reportNotFound);
    assert.equal(mineRoute.status, 404);
    assert.equal(noOutcome.status, 400);
    assert.equal(noOutcome.body.error.message, messages.reportOutcomeRequired);
    const member = await callBff<{ brand: BrandRecord }>(bff, 'GET', '/api/me', {
      token: brand.accessToken,
    });
    assert.equal(member.status, 200);
    assert.equal(member.body.data.brand.permissions.isSuspended, false);
  });
});
