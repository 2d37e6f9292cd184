import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

/** Sign-in and error pages: no header, no sidebar; the page draws its own card. */
export default function PlainLayout({ children }: { children: ReactNode }) {
  return (
    <Box
      component="main"
      id="main-content"
      sx={{ minHeight: '100vh', bgcolor: 'background.default' }}
    >
      {children}
    </Box>
  );
}
