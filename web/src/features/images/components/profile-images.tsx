/**
 * The images at the top of a settings page: the cover image as a banner
 * (when the owner has one: creators and brands, not brand-side users) and
 * the profile image over it, each with its picker. The pictures come from
 * the live record, so an upload shows here, in the header avatar and in
 * every open tab once the record's push arrives. Until an owner has a
 * picture (the backend makes an initials picture at creation) the initials
 * show.
 */
import type { ImageOwnerType } from '@raly/contracts/images';
import { Avatar } from '@/components/ui/avatar';
import { ImagePickerButton } from '@/features/images/components/image-picker-button';

export interface ProfileImagesProps {
  ownerType: ImageOwnerType;
  /** The name the initials come from (username, "first last" or company). */
  name: string;
  profileImg: string;
  /** The cover image URL ('' when none yet); leave out for an owner without a cover. */
  coverImg?: string;
}

export function ProfileImages({ ownerType, name, profileImg, coverImg }: ProfileImagesProps) {
  const hasCover = coverImg !== undefined;
  return (
    <div className="overflow-hidden rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      {hasCover && (
        <div className="relative h-36 bg-gradient-to-r from-indigo-500 via-sky-500 to-emerald-400 sm:h-44">
          {coverImg && <img src={coverImg} alt="Cover image" className="size-full object-cover" />}
          <div className="absolute right-3 bottom-3">
            <ImagePickerButton ownerType={ownerType} kind="cover" label="Change cover image" />
          </div>
        </div>
      )}
      {/* The picture overlaps the banner; being positioned, it paints above it. */}
      <div className={`flex flex-wrap items-end gap-4 px-6 pb-5 ${hasCover ? '-mt-10' : 'pt-5'}`}>
        {profileImg ? (
          <img
            src={profileImg}
            alt="Profile image"
            className="relative size-20 shrink-0 rounded-full bg-slate-100 object-cover ring-4 ring-white"
          />
        ) : (
          <Avatar name={name} className="relative size-20 text-2xl ring-4 ring-white" />
        )}
        <ImagePickerButton ownerType={ownerType} kind="profile" label="Change profile image" />
      </div>
    </div>
  );
}
