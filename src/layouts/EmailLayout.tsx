import type { ReactNode } from 'react';
import { ShellFrame } from './ShellFrame';
import { LAYOUT_MENUS } from './layoutMenus';

/** Mail pages: the email sidebar; mailbox routes name the mailbox or email mini sidebar. */
export default function EmailLayout({ children }: { children: ReactNode }) {
  return <ShellFrame menu={LAYOUT_MENUS.email}>{children}</ShellFrame>;
}
