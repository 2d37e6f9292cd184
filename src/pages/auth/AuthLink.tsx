import MuiLink from '@mui/material/Link';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

/** An in-app link styled for the sign-in pages. */
export function AuthLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <MuiLink component={Link} to={to} underline="hover" sx={{ fontWeight: 600 }}>
      {children}
    </MuiLink>
  );
}
