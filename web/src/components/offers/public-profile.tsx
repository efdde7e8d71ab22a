/**
 * The parts of a public profile (spec §1 public brand profile, and
 * the public creator profile): the cover and profile images with the name
 * and verified badge, and the social links. Public fields only: never a
 * first name, last name or e-mail.
 */
import type { ReactNode } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { focusRing } from '@/components/ui/button';
import { VerifiedBadge } from '@/components/offers/offer-card';

export function ProfileBanner({
  name,
  profileImg,
  coverImg,
  verified = false,
  publicPath,
  children,
}: {
  /** The name the profile is known by (a brand's company, a creator's username). */
  name: string;
  profileImg: string;
  coverImg: string;
  verified?: boolean;
  /** The profile's public URL path, host omitted (spec §1), e.g. '/brand/acme'. */
  publicPath: string;
  /** Lines under the public path (e.g. the website). */
  children?: ReactNode;
}) {
  return (
    <div className="overflow-hidden rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      <div className="h-32 bg-gradient-to-r from-indigo-100 to-slate-100 sm:h-40">
        {coverImg && <img src={coverImg} alt="Cover image" className="size-full object-cover" />}
      </div>
      <div className="flex flex-wrap items-end gap-4 px-6 pb-5">
        <div className="-mt-10 rounded-full bg-white p-1">
          <Avatar src={profileImg} name={name} className="size-20 text-2xl" />
        </div>
        <div className="min-w-0 pt-2">
          <h1 className="flex flex-wrap items-center gap-2 text-xl font-bold text-slate-900 sm:text-2xl">
            {name}
            {verified && <VerifiedBadge />}
          </h1>
          <p className="text-sm text-slate-500">{publicPath}</p>
          {children}
        </div>
      </div>
    </div>
  );
}

const socialNames: Record<string, string> = {
  x: 'X',
  instagram: 'Instagram',
  threads: 'Threads',
  discord: 'Discord',
};

/** @returns true when `value` is an http(s) URL (only those become links) */
const isWebLink = (value: string) => /^https?:\/\//i.test(value);

/** The non-empty social handles or links of a profile; links open in a new tab. */
export function SocialLinks({ socials }: { socials: Readonly<Record<string, string>> }) {
  const entries = Object.entries(socials).filter(([, value]) => value.trim());
  if (entries.length === 0) return null;
  return (
    <ul aria-label="Socials" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
      {entries.map(([key, value]) => (
        <li key={key}>
          <span className="text-slate-500">{socialNames[key] ?? key}: </span>
          {isWebLink(value) ? (
            <a
              href={value}
              target="_blank"
              rel="noopener noreferrer nofollow"
              className={`rounded text-indigo-700 hover:underline ${focusRing}`}
            >
              {value.replace(/^https?:\/\//i, '')}
            </a>
          ) : (
            <span className="text-slate-900">{value}</span>
          )}
        </li>
      ))}
    </ul>
  );
}
