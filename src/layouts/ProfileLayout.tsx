import type { ReactNode } from 'react';
import { ShellFrame } from './ShellFrame';

/** Account pages (dashboard, profile, billing...): header and the profile sidebar. */
export default function ProfileLayout({ children }: { children: ReactNode }) {
  return <ShellFrame menu="profile">{children}</ShellFrame>;
}
