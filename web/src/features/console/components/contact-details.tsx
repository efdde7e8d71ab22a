/**
 * A creator's or a brand's contact details in a console row (docs/console.md "Contact details"),
 * as the BFF answered a contact view: the e-mail as a mailto link and the names; for a brand each
 * member, the admin marked. It says that viewing them is recorded in the audit log, and "Hide"
 * takes them off the row.
 */
import type { BrandContact, ContactView } from '@raly/contracts/internal';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';

/** One person's name and e-mail (a mailto link); the name is left out when the record has none. */
function Person({ person }: { person: Pick<BrandContact, 'email' | 'firstName' | 'lastName'> }) {
  const name = [person.firstName, person.lastName].filter(Boolean).join(' ');
  return (
    <>
      {name && <span className="font-medium text-slate-900">{name} </span>}
      <a href={`mailto:${person.email}`} className="text-indigo-700 underline">
        {person.email}
      </a>
    </>
  );
}

/**
 * @param view the contact view the BFF answered
 * @param onHide takes the details off the row
 */
export function ContactDetails({ view, onHide }: { view: ContactView; onHide(): void }) {
  return (
    <section
      aria-label="Contact details"
      className="space-y-2 rounded-md bg-slate-50 px-3 py-2 text-sm"
    >
      {view.kind === 'creator' ? (
        <p>
          <Person person={view} />
        </p>
      ) : (
        <ul aria-label="Members" className="space-y-1">
          {view.members.map((member) => (
            <li key={member.userId} className="flex flex-wrap items-center gap-2">
              <Person person={member} />
              {member.isAdmin && <Badge tone="indigo">Admin</Badge>}
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-slate-600">Viewing contact details is recorded in the audit log.</p>
        <Button variant="secondary" onClick={onHide}>
          Hide
        </Button>
      </div>
    </section>
  );
}
