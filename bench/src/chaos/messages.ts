/**
 * Collaboration messages during a chaos run: sent open-loop at a fixed rate
 * between the parties of open collaborations through the BFF behind the load
 * balancer, each retried with the same client-made id when it fails (as the
 * web app's outbox does); then every acknowledged message is looked up in
 * its collaboration's history (exactly once) and in the other party's tabs
 * (pushed live, or else found on catch-up: the history a tab reads when it
 * comes back).
 */
import type { CollaborationMessageRecord, MessagesPage } from '@raly/contracts/collaborations';
import { liveEvents } from '@raly/contracts/live';
import { callApi, sleep } from '@raly/test-support';
import {
  sendMessageRetried,
  type OpenCollaboration,
  type SenderParty,
} from '../open-collaborations';
import type { TrackedSocket } from '../socket-worker';
import type { ChaosUser } from './load';

/** A message the BFF acknowledged (answered 2xx). */
export interface AcknowledgedMessage {
  collaborationId: string;
  clientId: string;
  /** The stored message's id and sequence, as answered. */
  messageId: string;
  sequence: number;
  by: SenderParty;
  /** Epoch ms of the answer. */
  at: number;
}

export interface MessageLoadSettings {
  /** Messages at least, sent at `messages / durationMs`. */
  messages: number;
  durationMs: number;
  /** Asked once `messages` were sent: true sends more at the same rate (up to 3 × messages). */
  continueAfter?: () => boolean;
  /** Sends in flight at most (retries included); a message due while this many are in flight waits. */
  maxInFlight: number;
  /** The BFF's API behind the load balancer: `<entry>/api`. */
  apiUrl: string;
  /** How long a message is retried after its first attempt (ms). */
  retryForMs: number;
}

export interface MessageLoadResult {
  sent: number;
  acknowledged: AcknowledgedMessage[];
  /** Messages never acknowledged, even after their retries, by the last attempt's failure. */
  unacknowledged: Record<string, number>;
  /** Messages that needed more than one attempt, and attempts that failed, by status (`error`: no answer). */
  retried: number;
  failedAttempts: Record<string, number>;
  /** Retries answered with the message an earlier, unanswered attempt had stored. */
  foundStored: number;
}

/**
 * Sends `settings.messages` messages over `settings.durationMs`, one
 * collaboration after the other, by its creator and its brand in turn.
 * @returns what was sent and acknowledged
 */
export async function driveMessages(
  collaborations: OpenCollaboration[],
  settings: MessageLoadSettings,
): Promise<MessageLoadResult> {
  const result: MessageLoadResult = {
    sent: 0,
    acknowledged: [],
    unacknowledged: {},
    retried: 0,
    failedAttempts: {},
    foundStored: 0,
  };
  const intervalMs = settings.durationMs / settings.messages;
  const startedAt = Date.now();
  const inFlight = new Set<Promise<void>>();
  const more = settings.continueAfter ?? (() => false);
  for (
    let index = 0;
    index < settings.messages || (index < 3 * settings.messages && more());
    index += 1
  ) {
    const due = startedAt + index * intervalMs;
    if (due > Date.now()) await sleep(due - Date.now());
    while (inFlight.size >= settings.maxInFlight) await Promise.race(inFlight);
    const collaboration = collaborations[index % collaborations.length]!;
    const round = Math.floor(index / collaborations.length);
    const by: SenderParty = (index + round) % 2 === 0 ? 'creator' : 'brand';
    result.sent += 1;
    const send = sendMessageRetried(
      settings.apiUrl,
      collaboration,
      by,
      `Chaos message ${index} from the ${by}`,
      Date.now() + settings.retryForMs,
    )
      .then((outcome) => {
        if (outcome.attempts > 1) result.retried += 1;
        if (outcome.foundStored) result.foundStored += 1;
        for (const failure of outcome.failures)
          result.failedAttempts[failure] = (result.failedAttempts[failure] ?? 0) + 1;
        if (!outcome.message) {
          const last = outcome.failures.at(-1) ?? 'error';
          result.unacknowledged[last] = (result.unacknowledged[last] ?? 0) + 1;
          return;
        }
        result.acknowledged.push({
          collaborationId: collaboration.id,
          clientId: outcome.clientId,
          messageId: outcome.message.id,
          sequence: outcome.message.sequence,
          by,
          at: Date.now(),
        });
      })
      .finally(() => inFlight.delete(send));
    inFlight.add(send);
  }
  await Promise.all(inFlight);
  return result;
}

/**
 * Every message of a collaboration's history, read page by page (100 a page,
 * newest first) as its creator reads it through the BFF, each page retried a few times.
 * @throws Error when a page cannot be read
 */
export async function readHistory(
  apiUrl: string,
  collaboration: OpenCollaboration,
): Promise<CollaborationMessageRecord[]> {
  const history: CollaborationMessageRecord[] = [];
  let before: number | null | undefined;
  do {
    const query = `limit=100${before ? `&before=${before}` : ''}`;
    let page: MessagesPage | undefined;
    for (let attempt = 1; !page; attempt += 1) {
      const answer = await callApi<MessagesPage>(
        apiUrl,
        'GET',
        `/collaborations/${collaboration.id}/messages?${query}`,
        { token: collaboration.creator.accessToken },
      ).catch(() => undefined);
      if (answer?.status === 200) page = answer.body.data!;
      else if (attempt >= 5)
        throw new Error(`history of ${collaboration.id}: answered ${answer?.status ?? 'nothing'}`);
      else await sleep(1000);
    }
    history.push(...page.items);
    before = page.nextBefore;
  } while (before);
  return history;
}

/** What became of the acknowledged messages. */
export interface MessageCheck {
  acknowledged: number;
  /** Acknowledged, and missing from their collaboration's history. */
  lost: number;
  /** Messages stored more than once for one client id (extra copies), or answered with another id. */
  duplicates: number;
  /** Acknowledged messages every tab of the other party had pushed live. */
  pushedToEveryTab: number;
  /** Acknowledged messages some tab of the other party missed live, found in the history (catch-up). */
  caughtUp: number;
  /** A few of the lost or duplicated, to say what went wrong. */
  examples: string[];
}

/**
 * Checks every acknowledged message against the histories and the other party's tabs.
 * @param histories every collaboration's history, by collaboration id
 * @param sockets every tab's state, in fleet order; `owners` its user (same order)
 */
export function checkMessages(
  collaborations: OpenCollaboration[],
  acknowledged: AcknowledgedMessage[],
  histories: Map<string, CollaborationMessageRecord[]>,
  sockets: TrackedSocket[],
  owners: ChaosUser[],
): MessageCheck {
  const check: MessageCheck = {
    acknowledged: acknowledged.length,
    lost: 0,
    duplicates: 0,
    pushedToEveryTab: 0,
    caughtUp: 0,
    examples: [],
  };
  const note = (line: string) => {
    if (check.examples.length < 5) check.examples.push(line);
  };
  const byClientId = new Map<string, CollaborationMessageRecord[]>();
  for (const [collaborationId, history] of histories)
    for (const message of history) {
      const key = `${collaborationId}:${message.clientId}`;
      byClientId.set(key, [...(byClientId.get(key) ?? []), message]);
    }
  for (const [key, copies] of byClientId)
    if (copies.length > 1) {
      check.duplicates += copies.length - 1;
      note(`client id ${key} stored ${copies.length} times`);
    }
  const collaborationOf = new Map(collaborations.map((each) => [each.id, each]));
  for (const message of acknowledged) {
    const stored = byClientId.get(`${message.collaborationId}:${message.clientId}`) ?? [];
    if (stored.length === 0) {
      check.lost += 1;
      note(`message ${message.messageId} (${message.collaborationId}) missing from the history`);
      continue;
    }
    if (stored.some((copy) => copy.id !== message.messageId)) {
      check.duplicates += 1;
      note(`message ${message.messageId} answered, another id stored for its client id`);
    }
    const collaboration = collaborationOf.get(message.collaborationId)!;
    const otherTabs = sockets.filter((_, index) =>
      message.by === 'creator'
        ? owners[index]!.brandId === collaboration.brand.brandId
        : owners[index]!.userId === collaboration.creator.userId,
    );
    const key = `${liveEvents.message}:${message.messageId}`;
    if (otherTabs.every((socket) => socket.records[key])) check.pushedToEveryTab += 1;
    else check.caughtUp += 1;
  }
  return check;
}

/** The summary table's rows of the messages. */
export function messageRows(load: MessageLoadResult, check: MessageCheck): [string, string][] {
  const counts = (record: Record<string, number>) =>
    Object.entries(record)
      .map(([reason, count]) => `${reason}: ${count}`)
      .join(', ') || '0';
  return [
    [
      'messages sent / acknowledged',
      `${load.sent} / ${load.acknowledged.length} (not acknowledged after retries: ${counts(load.unacknowledged)})`,
    ],
    [
      'messages retried with the same client id',
      `${load.retried} (failed attempts: ${counts(load.failedAttempts)}; answered as already stored: ${load.foundStored})`,
    ],
    ['MESSAGES LOST (acknowledged, not in the history)', String(check.lost)],
    ['MESSAGES DUPLICATED (stored twice for one client id)', String(check.duplicates)],
    [
      "messages pushed to every tab of the other party / a tab's push missed, found on catch-up",
      `${check.pushedToEveryTab} / ${check.caughtUp}`,
    ],
  ];
}
