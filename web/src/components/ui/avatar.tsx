/**
 * A round picture of a user: their live profile image, or, until one exists
 * (or when it fails to load), a circle with their initials (at most two
 * letters, spec §3/§9, from `initialsOf` of @raly/contracts/images).
 */
import { useState } from 'react';
import { initialsOf } from '@raly/contracts/images';

export interface AvatarProps {
  /** The profile image URL; empty until the user has one. */
  src?: string | null;
  /** The name the initials come from (username, or first and last name); empty while loading. */
  name: string;
  /** Tailwind size classes, e.g. 'size-9 text-sm'. */
  className?: string;
}

export function Avatar({ src, name, className = 'size-9 text-sm' }: AvatarProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (src && src !== failedSrc) {
    return (
      <img
        src={src}
        alt=""
        onError={() => setFailedSrc(src)}
        className={`shrink-0 rounded-full bg-slate-100 object-cover ${className}`}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      data-testid="avatar-initials"
      className={`inline-flex shrink-0 select-none items-center justify-center rounded-full bg-indigo-100 font-semibold text-indigo-800 ${className}`}
    >
      {name ? initialsOf(name) : null}
    </span>
  );
}
