import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import { BrandMark } from '../shell/BrandMark';

/** The default layout's loading screen, also shown while a layout or page part loads. */
export function LoadingScreen({ fullPage = true }: { fullPage?: boolean }) {
  const translate = useTranslate();
  return (
    <Box
      role="status"
      aria-live="polite"
      sx={{
        minHeight: fullPage ? '100vh' : 320,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 2,
        bgcolor: fullPage ? 'background.default' : 'transparent',
      }}
    >
      {fullPage && <BrandMark size={44} />}
      <CircularProgress size={28} thickness={4.5} aria-label={translate('shell.loading')} />
      <Typography variant="body2" color="text.secondary">
        {translate('shell.loading')}
      </Typography>
    </Box>
  );
}
