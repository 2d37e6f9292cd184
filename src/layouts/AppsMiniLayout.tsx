import type { ReactNode } from 'react';
import { WebAppInfoProvider } from '../shell/WebAppInfo';
import { ShellFrame } from './ShellFrame';

/** App tools opened from an app: the mini web-app sidebar with its way back. */
export default function AppsMiniLayout({ children }: { children: ReactNode }) {
  return (
    <WebAppInfoProvider>
      <ShellFrame menu="appMini">{children}</ShellFrame>
    </WebAppInfoProvider>
  );
}
