import type { ReactNode } from 'react';
import { ShellFrame } from './ShellFrame';
import { LAYOUT_MENUS } from './layoutMenus';

/** Account pages (dashboard, profile, billing...): header and the profile sidebar. */
export default function ProfileLayout({ children }: { children: ReactNode }) {
  return <ShellFrame menu={LAYOUT_MENUS.profile}>{children}</ShellFrame>;
}
