/**
 * The collaborations pages of both parties (a creator or a brand user),
 * each once GET /api/me has answered: /collaborations (the list) and
 * /collaborations/:id (one conversation).
 */
import { useParams } from 'react-router-dom';
import { WithMe } from '@/app/routes/with-me';
import { CollaborationsPage } from '@/features/collaborations/components/collaborations-page';
import { CollaborationPage } from '@/features/collaborations/components/collaboration-page';

export function CollaborationsRoute() {
  return <WithMe>{(me) => <CollaborationsPage me={me} />}</WithMe>;
}

export function CollaborationRoute() {
  const { id = '' } = useParams();
  return <WithMe>{(me) => <CollaborationPage key={id} id={id} me={me} />}</WithMe>;
}
