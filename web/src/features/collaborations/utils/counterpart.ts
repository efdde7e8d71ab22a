/** How a collaboration names the other side to each party: public names only, never a person's name. */
import type { CollaborationParty, CollaborationRecord } from '@raly/contracts/collaborations';
import { paths, pathOf } from '@/config/paths';

export interface Counterpart {
  /** The brand's company for the creator; the creator's username for the brand. */
  name: string;
  profileImg: string;
  /** The other side's public profile page. */
  profilePath: string;
}

/** @param side the reader's side */
export function counterpartOf(
  collaboration: Pick<CollaborationRecord, 'brand' | 'creator'>,
  side: CollaborationParty,
): Counterpart {
  const { brand, creator } = collaboration;
  return side === 'creator'
    ? {
        name: brand.company,
        profileImg: brand.profileImg,
        profilePath: pathOf(paths.publicBrand, { username: brand.username }),
      }
    : {
        name: creator.username,
        profileImg: creator.profileImg,
        profilePath: pathOf(paths.publicCreator, { username: creator.username }),
      };
}
