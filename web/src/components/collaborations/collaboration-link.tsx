/**
 * The way from an accepted application to its collaboration, on the
 * creator's and on the brand's screens. The collaboration opens a moment
 * after the acceptance (the service hears of it through Kafka), so until
 * the live list holds it a note says it is on its way.
 */
import { Link } from 'react-router-dom';
import { paths, pathOf } from '@/config/paths';
import { useGetCollaborationsQuery } from '@/lib/collaborations-api';
import { buttonClass } from '@/components/ui/button';

export function CollaborationLink({ applicationId }: { applicationId: string }) {
  const { data } = useGetCollaborationsQuery();
  if (!data) return null;
  const collaboration = data.find((each) => each.applicationId === applicationId);
  if (!collaboration)
    return <p className="text-sm text-slate-500">The collaboration is opening…</p>;
  return (
    <Link
      to={pathOf(paths.collaboration, { id: collaboration.id })}
      className={buttonClass('secondary')}
    >
      Open collaboration
    </Link>
  );
}
