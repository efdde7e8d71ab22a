/**
 * The collaborations pages of both parties (a creator or a brand user),
 * each once GET /api/me has answered: /collaborations (the list) and
 * /collaborations/:id (one conversation; a brand member's own handle, from
 * their team, tells their messages from their teammates').
 */
import { useParams } from 'react-router-dom';
import type { Me } from '@raly/contracts/bff-api';
import { isBrandUser } from '@raly/contracts/records';
import { WithMe } from '@/app/routes/with-me';
import { CollaborationsPage } from '@/features/collaborations/components/collaborations-page';
import { CollaborationPage } from '@/features/collaborations/components/collaboration-page';
import { useGetTeamQuery } from '@/features/team/api/team-api';

export function CollaborationsRoute() {
  return <WithMe>{(me) => <CollaborationsPage me={me} />}</WithMe>;
}

export function CollaborationRoute() {
  const { id = '' } = useParams();
  return <WithMe>{(me) => <CollaborationWithHandle key={id} id={id} me={me} />}</WithMe>;
}

function CollaborationWithHandle({ id, me }: { id: string; me: Me }) {
  const team = useGetTeamQuery(undefined, { skip: !isBrandUser(me.user) });
  const ownHandle =
    team.data?.members.find((member) => member.userId === me.user.id)?.handle ?? null;
  return <CollaborationPage id={id} me={me} ownHandle={ownHandle} />;
}
