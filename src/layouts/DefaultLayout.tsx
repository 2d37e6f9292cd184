import Box from '@mui/material/Box';
import { type ReactNode, Suspense } from 'react';
import { LoadingScreen } from './LoadingScreen';

/** The default layout: the page alone, behind the full-page loading screen while it loads. */
export default function DefaultLayout({ children }: { children: ReactNode }) {
  return (
    <Box
      component="main"
      id="main-content"
      sx={{ minHeight: '100vh', bgcolor: 'background.default' }}
    >
      <Suspense fallback={<LoadingScreen />}>{children}</Suspense>
    </Box>
  );
}
