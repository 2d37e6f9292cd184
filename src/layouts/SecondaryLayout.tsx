import type { ReactNode } from 'react';
import { WebAppInfoProvider } from '../shell/WebAppInfo';
import { ShellFrame } from './ShellFrame';

/** App-level pages: the web-app sidebar (WordPress apps get the WordPress manager). */
export default function SecondaryLayout({ children }: { children: ReactNode }) {
  return (
    <WebAppInfoProvider>
      <ShellFrame menu="webApp">{children}</ShellFrame>
    </WebAppInfoProvider>
  );
}
