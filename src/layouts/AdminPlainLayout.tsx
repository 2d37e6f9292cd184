import type { ReactNode } from 'react';
import { ShellFrame } from './ShellFrame';

/** Admin pages that need the full width: admin header, no sidebar. */
export default function AdminPlainLayout({ children }: { children: ReactNode }) {
  return (
    <ShellFrame menu={null} variant="admin">
      {children}
    </ShellFrame>
  );
}
