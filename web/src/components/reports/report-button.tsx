/**
 * The quiet "Report" button of an offer page and of the public profiles, with its dialog
 * (components/reports/report-dialog): shown to signed-in people only, and never on what is their
 * own (`isOwn`: their profile, their brand, their brand's offer).
 */
import { useState } from 'react';
import type { Me } from '@raly/contracts/bff-api';
import { useGetMeQuery } from '@/lib/me-api';
import { useSession } from '@/lib/use-session';
import { Button } from '@/components/ui/button';
import { ReportDialog, type ReportedItem } from '@/components/reports/report-dialog';

/**
 * @param item what a report would name (its kind and id)
 * @param isOwn true when the signed-in person owns the item (no button then)
 */
export function ReportButton({ item, isOwn }: { item: ReportedItem; isOwn: (me: Me) => boolean }) {
  const signedIn = useSession().status === 'signed-in';
  const { data: me } = useGetMeQuery(undefined, { skip: !signedIn });
  const [open, setOpen] = useState(false);
  if (!signedIn || !me || isOwn(me)) return null;
  return (
    <>
      <Button variant="ghost" onClick={() => setOpen(true)}>
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth={1.5}
          className="size-4"
        >
          <path strokeLinecap="round" strokeLinejoin="round" d="M4 21V4m0 0h12l-2 4 2 4H4" />
        </svg>
        Report
      </Button>
      <ReportDialog open={open} onClose={() => setOpen(false)} item={item} />
    </>
  );
}
