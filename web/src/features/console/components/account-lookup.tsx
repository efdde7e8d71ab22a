/**
 * A console lookup of accounts (docs/console.md), brands or creators: a search form, the "Reason
 * for a decision" field and the rows found, each decision updating its row in place with the
 * account as the BFF answered. "Show contact details" on a row asks the BFF for the account's
 * contact details with the same reason (each view is an audit entry) and shows them in the row
 * until "Hide". A query or reason the check refuses is not sent; a refusal shows on the form or on
 * the row it concerns, in the BFF's words.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import {
  contactViewReasonSchema,
  suspensionReasonSchema,
  type ContactView,
} from '@raly/contracts/internal';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { messageOf } from '@/features/console/api/console-api';

/** What a row's "Show contact details" runs as, besides the row's own actions. */
export const contactViewKind = 'contact-view';

/**
 * What a lookup hands each row: its running decision, its problem, where to send a decision, and
 * the account's contact details while shown.
 */
export interface RowState<Action extends { kind: string }> {
  /** The action of this row waiting for the BFF, if any (its control shows busy, the others wait). */
  running?: Action['kind'] | typeof contactViewKind;
  /** Why the BFF (or the reason check) refused this row's last action. */
  problem?: string;
  onAction(action: Action): void;
  /** The account's contact details as the BFF answered them, while shown. */
  contacts?: ContactView;
  /** Asks the BFF for the contact details, with the lookup's reason. */
  onShowContacts(): void;
  onHideContacts(): void;
}

export interface AccountLookupProps<Item extends { id: string }, Action extends { kind: string }> {
  /** The section's heading (e.g. "Brands"). */
  heading: string;
  /** The search field's label (e.g. "Username or company"). */
  searchLabel: string;
  /** The list's name (e.g. "Brands found") and what shows when nothing matched. */
  listLabel: string;
  noMatch: string;
  /** The reason field's hint and longest reason the field takes. */
  reasonHint: string;
  reasonMaxLength: number;
  /** @returns why `query` (trimmed) cannot be sent, or undefined when it can */
  queryProblem(query: string): string | undefined;
  /** @returns why `reason` (trimmed) cannot go with `action`, or undefined when it can */
  reasonProblem(action: Action, reason: string): string | undefined;
  /** The BFF's search. @throws Error with the words to show */
  find(query: string): Promise<Item[]>;
  /** Sends `action` on `item` with `reason`. @returns the item as the BFF answered; @throws Error */
  send(item: Item, action: Action, reason: string): Promise<Item>;
  /**
   * Asks the BFF for `item`'s contact details with `reason` (recorded in the audit log).
   * @throws Error with the words to show
   */
  viewContacts(item: Item, reason: string): Promise<ContactView>;
  /** One row of the list (a `li` with its key). */
  renderRow(item: Item, state: RowState<Action>): ReactNode;
}

/**
 * @returns the contract's words ('Give a reason for the suspension.', …) when `reason` cannot go
 *   with a suspension, else undefined
 */
export function suspensionReasonProblem(reason: string): string | undefined {
  const checked = suspensionReasonSchema.safeParse(reason);
  return checked.success ? undefined : checked.error.issues[0]?.message;
}

/**
 * @returns the contract's words ('Give a reason for viewing contact details (at least 3
 *   characters).', …) when `reason` cannot go with a contact view, else undefined
 */
export function contactViewReasonProblem(reason: string): string | undefined {
  const checked = contactViewReasonSchema.safeParse(reason);
  return checked.success ? undefined : checked.error.issues[0]?.message;
}

export function AccountLookup<Item extends { id: string }, Action extends { kind: string }>({
  heading,
  searchLabel,
  listLabel,
  noMatch,
  reasonHint,
  reasonMaxLength,
  queryProblem,
  reasonProblem,
  find,
  send,
  viewContacts,
  renderRow,
}: AccountLookupProps<Item, Action>) {
  const [query, setQuery] = useState('');
  const [reason, setReason] = useState('');
  const [items, setItems] = useState<Item[] | undefined>();
  const [searching, setSearching] = useState(false);
  const [running, setRunning] = useState<{ id: string; kind: RowState<Action>['running'] }>();
  const [contacts, setContacts] = useState<Record<string, ContactView>>({});
  const [problem, setProblem] = useState<string | undefined>();
  const [rowProblem, setRowProblem] = useState<{ id: string; message: string }>();
  const headingId = `${heading.toLowerCase()}-heading`;

  const search = async (event: FormEvent) => {
    event.preventDefault();
    const refused = queryProblem(query.trim());
    if (refused) return setProblem(refused);
    setSearching(true);
    setProblem(undefined);
    setRowProblem(undefined);
    // A new search starts with every row's contact details hidden: each view is asked for anew.
    setContacts({});
    try {
      setItems(await find(query.trim()));
    } catch (error) {
      setProblem(messageOf(error));
    } finally {
      setSearching(false);
    }
  };

  const act = async (item: Item, action: Action) => {
    const trimmed = reason.trim();
    const refused = reasonProblem(action, trimmed);
    if (refused) return setRowProblem({ id: item.id, message: refused });
    setRunning({ id: item.id, kind: action.kind });
    setRowProblem(undefined);
    try {
      const decided = await send(item, action, trimmed);
      setItems((list) => list?.map((listed) => (listed.id === decided.id ? decided : listed)));
    } catch (error) {
      setRowProblem({ id: item.id, message: messageOf(error) });
    } finally {
      setRunning(undefined);
    }
  };

  const showContacts = async (item: Item) => {
    const trimmed = reason.trim();
    const refused = contactViewReasonProblem(trimmed);
    if (refused) return setRowProblem({ id: item.id, message: refused });
    setRunning({ id: item.id, kind: contactViewKind });
    setRowProblem(undefined);
    try {
      const view = await viewContacts(item, trimmed);
      setContacts((shown) => ({ ...shown, [item.id]: view }));
    } catch (error) {
      setRowProblem({ id: item.id, message: messageOf(error) });
    } finally {
      setRunning(undefined);
    }
  };

  const hideContacts = (item: Item) => setContacts(({ [item.id]: _hidden, ...shown }) => shown);

  return (
    <section aria-labelledby={headingId} className="space-y-6">
      <h1 id={headingId} className="text-2xl font-bold tracking-tight text-slate-900">
        {heading}
      </h1>
      <form role="search" onSubmit={search} className="flex flex-wrap items-end gap-3">
        <TextField
          label={searchLabel}
          name="query"
          value={query}
          maxLength={100}
          onChange={(event) => setQuery(event.target.value)}
          className="min-w-64 flex-1"
        />
        <Button type="submit" busy={searching}>
          Search
        </Button>
      </form>
      <TextField
        label="Reason for a decision"
        name="reason"
        value={reason}
        maxLength={reasonMaxLength}
        hint={reasonHint}
        onChange={(event) => setReason(event.target.value)}
      />
      {problem && (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
      {items && items.length === 0 && <p className="text-slate-600">{noMatch}</p>}
      {items && items.length > 0 && (
        <ul
          aria-label={listLabel}
          className="divide-y divide-slate-200 rounded-md bg-white shadow-sm"
        >
          {items.map((item) =>
            renderRow(item, {
              running: running?.id === item.id ? running.kind : undefined,
              problem: rowProblem?.id === item.id ? rowProblem.message : undefined,
              onAction: (action) => void act(item, action),
              contacts: contacts[item.id],
              onShowContacts: () => void showContacts(item),
              onHideContacts: () => hideContacts(item),
            }),
          )}
        </ul>
      )}
    </section>
  );
}
