import type { ReactNode } from 'react';
import { ShellFrame } from './ShellFrame';

/** Server-level pages (the spec's web-page layout): the server sidebar with the server id. */
export default function WebAppLayout({ children }: { children: ReactNode }) {
  return <ShellFrame menu="server">{children}</ShellFrame>;
}
