/**
 * The staff console's frame (docs/console.md): signs the staff member in with keycloak-js
 * (features/console/services/console-session), then shows the console to staff (realm role
 * raly-moderator or raly-admin) and "This account has no staff role." to anyone else, both
 * with "Sign out". Staff switch between the brand and the creator lookups, the audit log and the
 * reports ("Brands" / "Creators" / "Audit log" / "Reports" tabs). Administrators (raly-admin in the access token) also see the accounts' flags;
 * the BFF checks the role again on each call. It never reads or shows the product's session.
 */
import { useEffect, useMemo, useState, type ComponentType } from 'react';
import { Button } from '@/components/ui/button';
import { PageSpinner } from '@/components/ui/spinner';
import { consoleApi, type ConsoleApi } from '@/features/console/api/console-api';
import { AuditLog } from '@/features/console/components/audit-log';
import { BrandLookup } from '@/features/console/components/brand-lookup';
import { CreatorLookup } from '@/features/console/components/creator-lookup';
import { ReportQueue } from '@/features/console/components/report-queue';
import type { ConsoleLiveAddress } from '@/features/console/services/console-live';
import {
  startConsoleSession,
  type ConsoleSession,
  type ConsoleSignInConfig,
} from '@/features/console/services/console-session';

type SignIn =
  | { status: 'signing-in' }
  | { status: 'signed-in'; session: ConsoleSession }
  | { status: 'failed'; message: string };

/**
 * The console's configuration comes as props from the router (config/env there): importing
 * config/env here would make the bundler split it into a chunk of its own, a few hundred bytes
 * more on the product's first page.
 * @param config where staff sign in (/config.json's console fields), null when not set up
 * (The same holds for the product's live contracts: the socket's address comes as `live`.)
 * @param apiBaseUrl the BFF's REST prefix
 * @param live where the BFF's socket.io server answers (the report queue's pushes)
 */
export function ConsolePage({
  config,
  apiBaseUrl,
  live,
}: {
  config: ConsoleSignInConfig | null;
  apiBaseUrl: string;
  live: ConsoleLiveAddress;
}) {
  const [signIn, setSignIn] = useState<SignIn>({ status: 'signing-in' });

  useEffect(() => {
    document.title = 'Console - Raly';
    if (!config) return;
    let current = true;
    startConsoleSession(config).then(
      (session) => current && setSignIn({ status: 'signed-in', session }),
      (error: unknown) => {
        console.error('[console] sign-in failed', error);
        if (current)
          setSignIn({ status: 'failed', message: 'The sign-in service could not be reached.' });
      },
    );
    return () => {
      current = false;
    };
  }, [config]);

  if (!config) return <ConsoleMessage>The console is not set up on this server.</ConsoleMessage>;
  if (signIn.status === 'signing-in') return <PageSpinner label="Signing in to the console" />;
  if (signIn.status === 'failed') return <ConsoleMessage>{signIn.message}</ConsoleMessage>;

  return <SignedIn session={signIn.session} apiBaseUrl={apiBaseUrl} live={live} />;
}

function SignedIn({
  session,
  apiBaseUrl,
  live,
}: {
  session: ConsoleSession;
  apiBaseUrl: string;
  live: ConsoleLiveAddress;
}) {
  const api = useMemo(() => consoleApi(apiBaseUrl, session, live), [apiBaseUrl, session, live]);
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-4 py-3">
          <p className="font-semibold text-slate-900">Raly console</p>
          <div className="flex items-center gap-3 text-sm text-slate-600">
            <span>{session.email}</span>
            <Button variant="secondary" onClick={() => void session.signOut()}>
              Sign out
            </Button>
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-5xl flex-1 px-4 py-8">
        {session.roles.length === 0 ? (
          <p role="alert" className="text-slate-700">
            This account has no staff role.
          </p>
        ) : (
          <ConsoleSections api={api} canSetFlags={session.roles.includes('raly-admin')} />
        )}
      </main>
    </div>
  );
}

/** What a section of the console is handed: the staff member's calls and whether they are an administrator. */
interface SectionProps {
  api: ConsoleApi;
  canSetFlags: boolean;
}

interface ConsoleSection {
  id: string;
  label: string;
  Section: ComponentType<SectionProps>;
}

const sections: readonly [ConsoleSection, ...ConsoleSection[]] = [
  { id: 'brands', label: 'Brands', Section: BrandLookup },
  { id: 'creators', label: 'Creators', Section: CreatorLookup },
  { id: 'audit', label: 'Audit log', Section: AuditLog },
  { id: 'reports', label: 'Reports', Section: ReportQueue },
];

/**
 * The brand and creator lookups (one reason field and search form each), the audit log and the
 * reports, one at a time behind tabs. Only the shown section is mounted: opening a tab reads it afresh, so the
 * audit log opened after a decision in a lookup reads the log again.
 */
export function ConsoleSections({ api, canSetFlags }: SectionProps) {
  const [shown, setShown] = useState('brands');
  const { Section } = sections.find((section) => section.id === shown) ?? sections[0];
  return (
    <div className="space-y-6">
      <div
        role="tablist"
        aria-label="Console sections"
        className="flex gap-2 border-b border-slate-200"
      >
        {sections.map((section) => (
          <button
            key={section.id}
            type="button"
            role="tab"
            id={`${section.id}-tab`}
            aria-selected={shown === section.id}
            aria-controls={`${section.id}-panel`}
            onClick={() => setShown(section.id)}
            className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium ${
              shown === section.id
                ? 'border-indigo-600 text-indigo-700'
                : 'border-transparent text-slate-600 hover:text-slate-900'
            }`}
          >
            {section.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${shown}-panel`} aria-labelledby={`${shown}-tab`}>
        <Section api={api} canSetFlags={canSetFlags} />
      </div>
    </div>
  );
}

function ConsoleMessage({ children }: { children: string }) {
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-16">
      <p role="alert" className="text-slate-700">
        {children}
      </p>
    </main>
  );
}
