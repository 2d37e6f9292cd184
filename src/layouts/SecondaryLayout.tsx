import type { ReactNode } from 'react';
import { WebAppInfoProvider } from '../shell/WebAppInfo';
import { ShellFrame } from './ShellFrame';
import { LAYOUT_MENUS } from './layoutMenus';

/** App-level pages: the web-app sidebar (WordPress apps get the WordPress manager). */
export default function SecondaryLayout({ children }: { children: ReactNode }) {
  return (
    <WebAppInfoProvider>
      <ShellFrame menu={LAYOUT_MENUS.secondary}>{children}</ShellFrame>
    </WebAppInfoProvider>
  );
}
