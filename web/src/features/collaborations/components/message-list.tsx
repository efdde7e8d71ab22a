/**
 * The messages of a conversation, oldest at the top and the newest at the
 * bottom (a `log` region: screen readers announce what arrives), "Load
 * older" above them while older pages exist, "Seen" under the reader's last
 * message the other side has seen, and the messages still on their way
 * (sending, or failed with Retry). Each message of the other side has a
 * "Report" action (aria-label "Report message") that opens the report dialog
 * on it (docs/console.md "Reports in the browser"); the reader's own side's
 * messages have none.
 */
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type {
  CollaborationMessageRecord,
  CollaborationParty,
} from '@raly/contracts/collaborations';
import { ReportDialog } from '@/components/reports/report-dialog';
import { Button, focusRing } from '@/components/ui/button';
import { senderLabel, type OutgoingMessage } from '@/features/collaborations/utils/conversation';

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export interface MessageListProps {
  messages: readonly CollaborationMessageRecord[];
  outgoing: readonly OutgoingMessage[];
  /** The reader's side: its messages show on the right. */
  side: CollaborationParty;
  /** The reader's handle in their brand's team (null: none, or a creator): a teammate's message names its member. */
  ownHandle: string | null;
  /** The sequence under which "Seen" shows, or null. */
  seenSequence: number | null;
  olderPages: { has: boolean; loading: boolean; load: () => void };
  onRetry: (message: OutgoingMessage) => void;
}

function Bubble({
  own,
  children,
  tone,
}: {
  own: boolean;
  children: ReactNode;
  tone?: 'pending' | 'failed';
}) {
  const colours = !own
    ? 'bg-slate-100 text-slate-900'
    : tone === 'failed'
      ? 'bg-red-50 text-red-900 ring-1 ring-red-200 ring-inset'
      : tone === 'pending'
        ? 'bg-indigo-400 text-white'
        : 'bg-indigo-600 text-white';
  return (
    <div
      className={`max-w-[85%] rounded-2xl px-4 py-2 text-sm break-words whitespace-pre-line sm:max-w-[70%] ${colours}`}
    >
      {children}
    </div>
  );
}

export function MessageList({
  messages,
  outgoing,
  side,
  ownHandle,
  seenSequence,
  olderPages,
  onRetry,
}: MessageListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const newestKey = `${messages.at(-1)?.id ?? ''}/${outgoing.length}`;
  const oldest = messages[0]?.sequence;
  const lastHeight = useRef(0);
  /** The id of the message the report dialog is open on, or null while it is closed. */
  const [reported, setReported] = useState<string | null>(null);

  // A new message at the bottom scrolls to it; older messages added above keep the view in place.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [newestKey]);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    if (lastHeight.current && element.scrollTop < 8)
      element.scrollTop += element.scrollHeight - lastHeight.current;
    lastHeight.current = element.scrollHeight;
  }, [oldest]);

  return (
    <div ref={scroller} className="max-h-[60vh] min-h-64 overflow-y-auto px-4 py-4">
      {olderPages.has && (
        <div className="mb-4 flex justify-center">
          <Button variant="ghost" busy={olderPages.loading} onClick={olderPages.load}>
            Load older
          </Button>
        </div>
      )}
      {messages.length === 0 && outgoing.length === 0 && (
        <p className="py-10 text-center text-sm text-slate-500">
          No messages yet. Say hello and agree on the next steps.
        </p>
      )}
      <div role="log" aria-label="Messages">
        <ol className="space-y-3">
          {messages.map((message) => {
            const own = message.sender.party === side;
            const sender = senderLabel(message, side, ownHandle);
            return (
              <li
                key={message.id}
                data-sequence={message.sequence}
                className={`flex flex-col ${own ? 'items-end' : 'items-start'}`}
              >
                <p className="mb-1 text-xs text-slate-500">
                  <span className="font-medium text-slate-700">{sender.name}</span> ·{' '}
                  <time dateTime={message.created}>
                    {timeFormat.format(new Date(message.created))}
                  </time>
                  {!own && (
                    <>
                      {' · '}
                      <button
                        type="button"
                        aria-label="Report message"
                        onClick={() => setReported(message.id)}
                        className={`rounded text-slate-500 hover:text-slate-900 hover:underline ${focusRing}`}
                      >
                        Report
                      </button>
                    </>
                  )}
                </p>
                <Bubble own={own}>{message.body}</Bubble>
                {message.sequence === seenSequence && (
                  <p data-testid="seen-mark" className="mt-1 text-xs text-slate-500">
                    Seen
                  </p>
                )}
              </li>
            );
          })}
          {outgoing.map((message) => (
            <li
              key={message.clientId}
              data-outgoing={message.state}
              className="flex flex-col items-end"
            >
              <Bubble own tone={message.state === 'failed' ? 'failed' : 'pending'}>
                {message.body}
              </Bubble>
              {message.state === 'sending' ? (
                <p className="mt-1 text-xs text-slate-500">Sending…</p>
              ) : (
                <div className="mt-1 flex items-center gap-2 text-xs text-red-700">
                  <span>Not sent: {message.problem}</span>
                  <Button variant="secondary" onClick={() => onRetry(message)}>
                    Retry
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ol>
      </div>
      <ReportDialog
        open={reported !== null}
        onClose={() => setReported(null)}
        item={{ kind: 'message', id: reported ?? '' }}
      />
    </div>
  );
}
