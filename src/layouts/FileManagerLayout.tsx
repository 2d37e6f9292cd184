import type { ReactNode } from 'react';
import { WebAppInfoProvider } from '../shell/WebAppInfo';
import { WebAppStrip } from '../shell/WebAppStrip';
import { ShellFrame } from './ShellFrame';
import { LAYOUT_MENUS } from './layoutMenus';

/**
 * File manager and file editor: the app's facts in a strip under the header, the same web-app
 * sidebar as the app's other pages (layoutMenus.ts), and no footer (spec section 2).
 */
export default function FileManagerLayout({ children }: { children: ReactNode }) {
  return (
    <WebAppInfoProvider>
      <ShellFrame menu={LAYOUT_MENUS.fileManager} footer={false} strip={<WebAppStrip />}>
        {children}
      </ShellFrame>
    </WebAppInfoProvider>
  );
}
