/**
 * The public profiles, for anyone, signed in or not:
 * /brand/:username and /user/:username (config/public-urls). The brand's
 * own pages under /brand/offers are matched first (config/paths).
 */
import { useParams } from 'react-router-dom';
import { PublicBrandPage } from '@/features/public-profiles/components/public-brand-page';
import { PublicCreatorPage } from '@/features/public-profiles/components/public-creator-page';

export function PublicBrandRoute() {
  const { username = '' } = useParams();
  return <PublicBrandPage key={username} username={username} />;
}

export function PublicCreatorRoute() {
  const { username = '' } = useParams();
  return <PublicCreatorPage key={username} username={username} />;
}
