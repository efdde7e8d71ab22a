/**
 * Helpers of the collaborations work tests: the file's users (the two
 * parties, another creator, another brand's member), each work route as a
 * user, forms with unique values, and the check of a refusal.
 */
import assert from 'node:assert/strict';
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import type { ApplicationRecord } from '@raly/contracts/offers';
import { type ApiBody, type JsonAnswer, uniqueToken } from '@raly/test-support';
import { type RalySystem, registeredBrand, registeredCreator } from '@raly/test-support/system';
import { asUser, openedCollaboration } from './support';

type Brand = Awaited<ReturnType<typeof registeredBrand>>;
type Creator = Awaited<ReturnType<typeof registeredCreator>>;

/** A file's users: the parties of its collaborations and two strangers to them. */
export interface WorkUsers {
  brand: Brand;
  creator: Creator;
  otherBrand: Brand;
  otherCreator: Creator;
}

/** Registers a file's users. */
export async function registeredWorkUsers(system: RalySystem): Promise<WorkUsers> {
  const [brand, creator, otherBrand, otherCreator] = await Promise.all([
    registeredBrand(system),
    registeredCreator(system),
    registeredBrand(system),
    registeredCreator(system),
  ]);
  return { brand, creator, otherBrand, otherCreator };
}

/** Opens a fresh collaboration between the file's brand and creator; `overrides` win. */
export const freshCollaboration = (
  system: RalySystem,
  users: WorkUsers,
  overrides: Partial<ApplicationRecord> = {},
) => openedCollaboration(system, users, overrides);

/** A submission form with a unique link. */
export const aSubmission = () => ({
  link: `https://videos.example.com/${uniqueToken(8)}`,
  note: 'First cut, 45 seconds.',
});

/** Every work route as the holder of `token` (none: a visitor); each answers the snapshot. */
export function workAs(system: RalySystem, token: string | undefined) {
  const call = asUser(system, token)<CollaborationRecord>;
  const at = (id: string) => `/collaborations/${id}`;
  return {
    setDeliverables: (id: string, body: unknown) => call('PUT', `${at(id)}/deliverables`, body),
    submit: (id: string, deliverableId: string, body: unknown = aSubmission()) =>
      call('POST', `${at(id)}/deliverables/${deliverableId}/submissions`, body),
    review: (id: string, deliverableId: string, body: unknown) =>
      call('POST', `${at(id)}/deliverables/${deliverableId}/review`, body),
    paid: (id: string, body: unknown = {}) => call('POST', `${at(id)}/payment/paid`, body),
    received: (id: string) => call('POST', `${at(id)}/payment/received`),
    cancel: (id: string, body: unknown = {}) => call('POST', `${at(id)}/cancel`, body),
    leaveReview: (id: string, body: unknown) => call('POST', `${at(id)}/review`, body),
  };
}

/** The answer of a route: its status and body. */
type Answer<Data = CollaborationRecord> = JsonAnswer<ApiBody<Data>>;

/**
 * Asserts a success and answers its snapshot.
 * @param status 200 unless told
 */
export function accepted(answer: Answer, status = 200): CollaborationRecord {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  return answer.body.data!;
}

/** Asserts a refusal: its status, message and (for a field's rule) its field. */
export function assertRefused(
  answer: Answer<unknown>,
  status: number,
  message: string,
  field?: string,
): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.equal(answer.body.error?.message, message);
  if (field) assert.equal(answer.body.error?.fields?.[field], message);
}

/** Approve, request changes and dispute forms. */
export const approve = { decision: 'approve' };
export const requestChanges = (comment = 'Make the logo bigger.') => ({
  decision: 'request_changes',
  comment,
});
export const dispute = (comment = 'The video is not what we agreed.') => ({
  decision: 'dispute',
  comment,
});

/**
 * Hands in every deliverable of a collaboration and approves each, as its parties.
 * @returns the snapshot after the last approval
 */
export async function approvedThroughout(
  system: RalySystem,
  users: WorkUsers,
  collaboration: CollaborationRecord,
): Promise<CollaborationRecord> {
  let latest = collaboration;
  for (const { id } of collaboration.deliverables) {
    accepted(await workAs(system, users.creator.accessToken).submit(latest.id, id), 201);
    latest = accepted(await workAs(system, users.brand.accessToken).review(latest.id, id, approve));
  }
  return latest;
}

/**
 * Opens a collaboration, hands in and approves its work, marks the payment paid and confirms
 * it, as its parties. @returns the completed snapshot
 */
export async function completedCollaboration(
  system: RalySystem,
  users: WorkUsers,
): Promise<CollaborationRecord> {
  const approvedAll = await approvedThroughout(
    system,
    users,
    await freshCollaboration(system, users),
  );
  accepted(await workAs(system, users.brand.accessToken).paid(approvedAll.id));
  return accepted(await workAs(system, users.creator.accessToken).received(approvedAll.id));
}
