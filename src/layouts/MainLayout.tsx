import type { ReactNode } from 'react';
import { ShellFrame } from './ShellFrame';

/** Account-wide server tools: header and the main sidebar. */
export default function MainLayout({ children }: { children: ReactNode }) {
  return <ShellFrame menu="main">{children}</ShellFrame>;
}
