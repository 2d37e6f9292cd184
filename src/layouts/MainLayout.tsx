import type { ReactNode } from 'react';
import { ShellFrame } from './ShellFrame';
import { LAYOUT_MENUS } from './layoutMenus';

/** Account-wide server tools: header and the main sidebar. */
export default function MainLayout({ children }: { children: ReactNode }) {
  return <ShellFrame menu={LAYOUT_MENUS.main}>{children}</ShellFrame>;
}
