import type { ReactNode } from 'react';
import { WebAppInfoProvider } from '../shell/WebAppInfo';
import { WebAppStrip } from '../shell/WebAppStrip';
import { ShellFrame } from './ShellFrame';

/**
 * File manager and file editor: the app's facts in a strip under the header, the mini
 * web-app sidebar, and no footer (spec section 2).
 */
export default function FileManagerLayout({ children }: { children: ReactNode }) {
  return (
    <WebAppInfoProvider>
      <ShellFrame menu="appMini" footer={false} strip={<WebAppStrip />}>
        {children}
      </ShellFrame>
    </WebAppInfoProvider>
  );
}
