import type { ReactNode } from 'react';
import { WebAppInfoProvider } from '../shell/WebAppInfo';
import { ShellFrame } from './ShellFrame';
import { LAYOUT_MENUS } from './layoutMenus';

/** App tools opened from an app: the mini web-app sidebar with its way back. */
export default function AppsMiniLayout({ children }: { children: ReactNode }) {
  return (
    <WebAppInfoProvider>
      <ShellFrame menu={LAYOUT_MENUS.appsMini}>{children}</ShellFrame>
    </WebAppInfoProvider>
  );
}
