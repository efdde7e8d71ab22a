/**
 * The header's "Collaborations" link of signed-in users with its live badge:
 * how many messages of the other side they have not seen, over all their
 * collaborations (lib/collaborations-api follows `collaboration.updated`).
 * Loaded only once signed in (it needs the live queries and their socket).
 */
import { NavLink } from 'react-router-dom';
import { paths } from '@/config/paths';
import { totalUnread } from '@/lib/collaboration-live';
import { useGetCollaborationsQuery } from '@/lib/collaborations-api';
import { useGetMeQuery } from '@/lib/me-api';
import type { SignedInNavLinkProps } from '@/components/layout/nav-items';
import { CountBadge } from '@/components/ui/count-badge';

export function CollaborationsNavLink({ className, onClick }: SignedInNavLinkProps) {
  const { data: me } = useGetMeQuery();
  const { data: collaborations } = useGetCollaborationsQuery(undefined, { skip: !me });
  if (!me) return null;
  const unread = collaborations ? totalUnread(collaborations, me.user) : 0;
  return (
    <NavLink to={paths.collaborations.path} onClick={onClick} className={className}>
      Collaborations
      {unread > 0 && <CountBadge count={unread} unit="unread" testId="collaborations-badge" />}
    </NavLink>
  );
}
