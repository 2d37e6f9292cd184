import type { ReactNode } from 'react';
import { ShellFrame } from './ShellFrame';
import { LAYOUT_MENUS } from './layoutMenus';

/** The admin area: admin header and the admin menu (staff see Users and Servers only). */
export default function AdminLayout({ children }: { children: ReactNode }) {
  return (
    <ShellFrame menu={LAYOUT_MENUS.admin} variant="admin">
      {children}
    </ShellFrame>
  );
}
