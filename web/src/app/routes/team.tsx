/**
 * /brand/team (brand users only, behind BrandOnly: the team page) and
 * /join/team?token=… (anyone: an invitation's landing page).
 */
import { paths } from '@/config/paths';
import { AuthCard } from '@/app/routes/auth-card';
import { BrandOnly } from '@/app/routes/offer-guards';
import { JoinTeamPage } from '@/features/team/components/join-team-page';
import { TeamPage } from '@/features/team/components/team-page';

export function BrandTeamRoute() {
  return <BrandOnly>{(me) => <TeamPage me={me} />}</BrandOnly>;
}

export function JoinTeamRoute() {
  return (
    <AuthCard title={paths.joinTeam.title}>
      <JoinTeamPage />
    </AuthCard>
  );
}
