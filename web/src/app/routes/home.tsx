/** / — the marketing page (spec §2); its page title is the product name alone. */
import { HomePage } from '@/features/home/components/home-page';

export function HomeRoute() {
  return <HomePage />;
}
