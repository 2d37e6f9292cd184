import type { ReactNode } from 'react';
import { ShellFrame } from './ShellFrame';

/** Mail pages: the email sidebar; mailbox routes name the mailbox or email mini sidebar. */
export default function EmailLayout({ children }: { children: ReactNode }) {
  return <ShellFrame menu="email">{children}</ShellFrame>;
}
